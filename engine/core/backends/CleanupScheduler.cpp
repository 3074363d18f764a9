#include "core/backends/CleanupScheduler.h"

#include "core/backends/FutureWait.h"
#include "core/processes/ProcessTable.h"

#include <QFutureWatcher>
#include <QTimer>

namespace sandbox {

CleanupScheduler::CleanupScheduler(ProcessTable &table, QObject *timerContext, Backoff backoff,
                                   std::function<void(const CleanupWarning &)> warn,
                                   std::function<int(const BackendRef &)> disposeBound, const StopSignal *stop)
    : m_table(table)
    , m_timerContext(timerContext)
    , m_backoff(backoff)
    , m_warn(std::move(warn))
    , m_disposeBound(std::move(disposeBound))
    , m_stop(stop)
{ }

int CleanupScheduler::delayBefore(int attempt) const
{
    // attempt 2 waits the initial delay, each later one twice as long, up to the cap.
    qint64 delay = m_backoff.initialDelayMs;
    for (int i = 2; i < attempt && delay < m_backoff.maxDelayMs; ++i)
        delay *= 2;
    return int(qMin<qint64>(delay, m_backoff.maxDelayMs));
}

CleanupScheduler::Attempt CleanupScheduler::retire(const BackendRef &ref, std::shared_ptr<Launcher> launcher)
{
    {
        QMutexLocker locker(&m_mutex);
        if (!m_table.isIdle(launcher.get())) {
            const int running = m_table.runningCount(launcher.get());
            m_deferred.insert(launcher.get(), Item{ ref, launcher });
            return Attempt{ Outcome::Deferred,
                            tr("Deferred until the %n process(es) it still runs have ended.", nullptr, running) };
        }
        m_retrying.insert(launcher.get(), 1);
    }
    const Status status = awaitLauncherCall(launcher->disposeIdle(), m_disposeBound(ref), m_stop, ref.toString(),
                                            QStringLiteral("disposeIdle()"));
    if (status.ok()) {
        QMutexLocker locker(&m_mutex);
        m_retrying.remove(launcher.get());
        return Attempt{ Outcome::Disposed, {} };
    }
    const QString message = status.error().toString();
    attemptFailed(Item{ ref, std::move(launcher) }, 1, message);
    return Attempt{ Outcome::FailedWillRetry, message };
}

void CleanupScheduler::retireInBackground(const BackendRef &ref, std::shared_ptr<Launcher> launcher)
{
    QMutexLocker locker(&m_mutex);
    if (m_table.isIdle(launcher.get())) {
        m_retrying.insert(launcher.get(), 1);
        locker.unlock();
        scheduleAttempt(Item{ ref, std::move(launcher) }, 1, 0);
        return;
    }
    m_deferred.insert(launcher.get(), Item{ ref, std::move(launcher) });
}

void CleanupScheduler::reclaim(const Launcher *launcher)
{
    QMutexLocker locker(&m_mutex);
    m_deferred.remove(launcher);
    m_retrying.remove(launcher);
}

void CleanupScheduler::launcherIdle(const Launcher *launcher)
{
    QMutexLocker locker(&m_mutex);
    auto it = m_deferred.find(launcher);
    if (it == m_deferred.end())
        return;
    Item item = it.value();
    m_deferred.erase(it);
    m_retrying.insert(launcher, 1);
    locker.unlock();
    scheduleAttempt(std::move(item), 1, 0);
}

void CleanupScheduler::attemptFailed(Item item, int attempt, const QString &message)
{
    const bool willRetry = attempt < m_backoff.maxAttempts;
    {
        QMutexLocker locker(&m_mutex);
        if (willRetry && !m_shutdown)
            m_retrying.insert(item.launcher.get(), attempt + 1);
        else
            m_retrying.remove(item.launcher.get());
    }
    if (m_warn)
        m_warn(CleanupWarning{ item.ref, message, attempt, willRetry });
    if (willRetry)
        scheduleAttempt(std::move(item), attempt + 1, delayBefore(attempt + 1));
}

void CleanupScheduler::scheduleAttempt(Item item, int attempt, int delayMs)
{
    QMutexLocker locker(&m_mutex);
    if (m_shutdown)
        return;
    locker.unlock();
    QMetaObject::invokeMethod(m_timerContext, [this, item, attempt, delayMs] {
        QTimer::singleShot(delayMs, m_timerContext, [this, item, attempt] {
            {
                QMutexLocker guard(&m_mutex);
                // Shut down, reclaimed, or superseded: this attempt is no longer wanted.
                if (m_shutdown || m_retrying.value(item.launcher.get()) != attempt)
                    return;
            }
            // Whichever comes first, the call's answer or its bound, settles the attempt.
            auto *watcher = new QFutureWatcher<Status>(m_timerContext);
            auto *bound = new QTimer(watcher);
            bound->setSingleShot(true);
            const int boundMs = m_disposeBound(item.ref);
            QObject::connect(
                watcher, &QFutureWatcher<Status>::finished, m_timerContext, [this, watcher, bound, item, attempt] {
                    bound->stop();
                    const Status status
                        = statusOf(watcher->future(), item.ref.toString(), QStringLiteral("disposeIdle()"));
                    watcher->disconnect();
                    watcher->deleteLater();
                    if (status.ok()) {
                        QMutexLocker guard(&m_mutex);
                        m_retrying.remove(item.launcher.get());
                    } else {
                        attemptFailed(item, attempt, status.error().toString());
                    }
                });
            QObject::connect(bound, &QTimer::timeout, m_timerContext, [this, watcher, item, attempt, boundMs] {
                watcher->disconnect();
                QFuture<Status> abandoned = watcher->future();
                abandoned.cancel();
                watcher->deleteLater();
                attemptFailed(
                    item, attempt,
                    launcherCallTimedOut(item.ref.toString(), QStringLiteral("disposeIdle()"), boundMs).toString());
            });
            watcher->setFuture(item.launcher->disposeIdle());
            bound->start(boundMs);
        });
    });
}

int CleanupScheduler::pendingCount() const
{
    QMutexLocker locker(&m_mutex);
    return int(m_deferred.size() + m_retrying.size());
}

void CleanupScheduler::shutdown()
{
    QMutexLocker locker(&m_mutex);
    m_shutdown = true;
    m_deferred.clear();
    m_retrying.clear();
}

} // namespace sandbox
