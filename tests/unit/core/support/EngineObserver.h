#pragma once

#include "TestFiles.h"
#include "core/Engine.h"

#include <QByteArray>
#include <QFile>
#include <QFuture>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QMutex>
#include <QObject>
#include <QSignalSpy>
#include <QTest>

namespace sandbox::test {

// Records everything an engine reports, from whichever thread it reports it.
class EngineObserver final : public QObject
{
    Q_OBJECT

public:
    explicit EngineObserver(Engine *engine);

    QList<ActivationEvent> events(quint64 activationId) const;
    QList<ActivationEvent> allEvents() const;
    QList<CleanupWarning> cleanupWarnings() const;
    QList<ActivationResult> results() const;
    // (step, state) of one activation, e.g. "validate:started".
    QStringList trace(quint64 activationId) const;
    // Everything reported, as JSON text (to search for leaked secrets).
    QByteArray everythingAsJson() const;

private:
    mutable QMutex m_mutex;
    QList<ActivationEvent> m_events;
    QList<CleanupWarning> m_warnings;
    QList<ActivationResult> m_results;
    QList<HostInteractionRequest> m_interactions;
};

// Waits for a future while this thread's event loop keeps running (processes the engine
// spawned in this thread keep being served).
template <typename T> T await(QFuture<T> future, int timeoutMs = 60000)
{
    if (!future.isFinished()) {
        QFutureWatcher<T> watcher;
        QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
        watcher.setFuture(future);
        if (!finished.wait(timeoutMs))
            qFatal("a future did not finish in time");
    }
    return future.result();
}

QJsonObject readJson(const QString &path);

} // namespace sandbox::test
