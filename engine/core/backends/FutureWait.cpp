#include "core/backends/FutureWait.h"

#include "core/backends/LauncherBounds.h"
#include "core/backends/StopSignal.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QTimer>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("FutureWait", text);
}

} // namespace

WaitOutcome waitForFuture(const QFuture<void> &future, int timeoutMs, const StopSignal *stop)
{
    if (future.isFinished())
        return WaitOutcome::Finished;
    if (stop && stop->isStopped())
        return WaitOutcome::Stopped;
    QEventLoop loop;
    QFutureWatcher<void> watcher;
    QTimer bound;
    bound.setSingleShot(true);
    QObject::connect(&watcher, &QFutureWatcher<void>::finished, &loop, &QEventLoop::quit);
    QObject::connect(&bound, &QTimer::timeout, &loop, &QEventLoop::quit);
    if (stop) // emitted from the stopping thread: queued to this loop's thread
        QObject::connect(stop, &StopSignal::stopped, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    bound.start(qMax(timeoutMs, 0));
    // The future may have finished, or the stop come, before the connections were made.
    if (!future.isFinished() && !(stop && stop->isStopped()))
        loop.exec();
    if (future.isFinished())
        return WaitOutcome::Finished;
    return (stop && stop->isStopped()) ? WaitOutcome::Stopped : WaitOutcome::TimedOut;
}

Error launcherCallTimedOut(const QString &where, const QString &call, int timeoutMs)
{
    return Error{
        where,
        tr("The backend's %1 timed out after %2 s and was cancelled.").arg(call, LauncherBounds::seconds(timeoutMs)),
        {}
    };
}

Error launcherCallStopped(const QString &where, const QString &call)
{
    return Error{ where, tr("The backend's %1 was cancelled: the engine is shutting down.").arg(call), {} };
}

Status awaitLauncherCall(QFuture<Status> future, int timeoutMs, const StopSignal *stop, const QString &where,
                         const QString &call)
{
    switch (waitForFuture(QFuture<void>(future), timeoutMs, stop)) {
    case WaitOutcome::Finished:
        return statusOf(future, where, call);
    case WaitOutcome::TimedOut:
        future.cancel();
        return launcherCallTimedOut(where, call, timeoutMs);
    case WaitOutcome::Stopped:
        future.cancel();
        return launcherCallStopped(where, call);
    }
    return launcherCallStopped(where, call);
}

Status statusOf(const QFuture<Status> &future, const QString &where, const QString &call)
{
    if (future.isCanceled() || future.resultCount() == 0) {
        return Error{ where, tr("The backend's %1 ended without a result.").arg(call), {} };
    }
    return future.result();
}

} // namespace sandbox
