#include "FutureWait.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFutureWatcher>

namespace sandbox {

void waitForFuture(const QFuture<void> &future)
{
    if (future.isFinished())
        return;
    QEventLoop loop;
    QFutureWatcher<void> watcher;
    QObject::connect(&watcher, &QFutureWatcher<void>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    // The future may have finished between the check above and setFuture().
    if (!future.isFinished())
        loop.exec();
}

} // namespace sandbox

namespace sandbox {

Status statusOf(const QFuture<Status> &future, const QString &where, const QString &call)
{
    if (future.isCanceled() || future.resultCount() == 0) {
        return Error{ where,
                      QCoreApplication::translate("FutureWait", "The backend's %1 ended without a result.").arg(call),
                      {} };
    }
    return future.result();
}

} // namespace sandbox
