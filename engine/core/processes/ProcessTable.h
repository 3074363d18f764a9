#pragma once

#include "core/launcher/Launcher.h"
#include "core/launcher/SandboxProcess.h"
#include "protocol/SpawnRequest.h"

#include <QHash>
#include <QList>
#include <QMutex>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

// Every process the engine started, with the launcher instance and backend that created
// it. A launcher stays in use while it owns a running process or is pinned by a spawn in
// progress; when its use drops to zero the idle callback fires (outside the lock), which
// is when a retired launcher's resources may be disposed.
class ProcessTable final
{
public:
    void setIdleCallback(std::function<void(const Launcher *)> callback);

    void pin(const Launcher *launcher);
    void unpin(const Launcher *launcher);

    quint64 add(const BackendRef &owner, std::shared_ptr<Launcher> launcher, std::shared_ptr<SandboxProcess> process,
                const SpawnRequest &request);
    // Records the pid of a process that has started; returns its info then.
    std::optional<ProcessInfo> setPid(quint64 id, qint64 pid);
    // Adds a note the process's launcher made about how it started; returns its info then.
    std::optional<ProcessInfo> addNote(quint64 id, const QString &note);
    // Marks a process ended; returns its final info, or nothing when it had already ended.
    std::optional<ProcessInfo> finish(quint64 id, const ExitStatus &status);

    bool isIdle(const Launcher *launcher) const;
    int runningCount(const Launcher *launcher) const;
    QList<ProcessInfo> list() const;
    std::optional<ProcessInfo> info(quint64 id) const;
    std::shared_ptr<SandboxProcess> process(quint64 id) const;
    // Forgets every process (the engine is shutting down) and hands back the running ones.
    QList<std::shared_ptr<SandboxProcess>> takeRunning();

private:
    struct Row
    {
        ProcessInfo info;
        std::shared_ptr<Launcher> launcher; // kept alive while the process runs
        std::shared_ptr<SandboxProcess> process;
    };

    void releaseLocked(const Launcher *launcher, QList<const Launcher *> *nowIdle);
    void notifyIdle(const QList<const Launcher *> &launchers);

    // Ended processes kept for listing; older ones are forgotten.
    static constexpr int finishedKept = 200;

    mutable QMutex m_mutex;
    quint64 m_nextId = 1;
    QList<Row> m_rows;
    QHash<const Launcher *, int> m_use;
    std::function<void(const Launcher *)> m_idleCallback;
};

} // namespace sandbox
