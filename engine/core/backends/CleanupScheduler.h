#pragma once

#include "core/launcher/Launcher.h"
#include "protocol/ActivationEvent.h"

#include <QCoreApplication>
#include <QHash>
#include <QMutex>

#include <functional>
#include <memory>

class QObject;

namespace sandbox {

class ProcessTable;
class StopSignal;

// Disposal of retired launchers' idle resources (step 7 of the activation transaction).
// A launcher that still owns running processes is disposed when its last one ends. A
// failed disposal is reported as a CleanupWarning and retried in the background with
// exponential backoff.
class CleanupScheduler final
{
    Q_DECLARE_TR_FUNCTIONS(CleanupScheduler)

public:
    struct Backoff
    {
        int initialDelayMs = 1000;
        int maxDelayMs = 60000;
        int maxAttempts = 10;
    };

    enum class Outcome { Disposed, FailedWillRetry, Deferred };
    struct Attempt
    {
        Outcome outcome = Outcome::Disposed;
        QString message;
    };

    // `disposeBound` gives the bound (ms) on one disposeIdle() of a backend; a call that
    // does not answer in time is cancelled and counts as a failed attempt.
    CleanupScheduler(ProcessTable &table, QObject *timerContext, Backoff backoff,
                     std::function<void(const CleanupWarning &)> warn,
                     std::function<int(const BackendRef &)> disposeBound, const StopSignal *stop);

    // From the activation worker: disposes now (waiting for the launcher) when it is
    // idle, else defers until it is. A failure is warned about and retried.
    Attempt retire(const BackendRef &ref, std::shared_ptr<Launcher> launcher);
    // Same, but the first attempt also runs in the background (a failed candidate).
    void retireInBackground(const BackendRef &ref, std::shared_ptr<Launcher> launcher);
    // The launcher became active again (a re-activated single-instance backend): any
    // pending disposal of it is dropped.
    void reclaim(const Launcher *launcher);
    // ProcessTable's idle callback.
    void launcherIdle(const Launcher *launcher);
    // Launchers whose disposal has not succeeded yet (deferred or being retried).
    int pendingCount() const;
    void shutdown();

private:
    struct Item
    {
        BackendRef ref;
        std::shared_ptr<Launcher> launcher;
    };

    void scheduleAttempt(Item item, int attempt, int delayMs);
    void attemptFailed(Item item, int attempt, const QString &message);
    int delayBefore(int attempt) const;

    ProcessTable &m_table;
    QObject *m_timerContext;
    Backoff m_backoff;
    std::function<void(const CleanupWarning &)> m_warn;
    std::function<int(const BackendRef &)> m_disposeBound;
    const StopSignal *m_stop;
    mutable QMutex m_mutex;
    QHash<const Launcher *, Item> m_deferred;
    QHash<const Launcher *, int> m_retrying;
    bool m_shutdown = false;
};

} // namespace sandbox
