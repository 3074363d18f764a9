#pragma once

#include "protocol/Error.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <type_traits>
#include <utility>

namespace sandbox {

// Calls `callback(future)` on `context`'s thread once `future` has finished, with or without
// a result, unless `context` has been destroyed by then (the watcher is its child and dies
// with it). Qt 6.4's QFuture::then(context, ...) asserts when the context is gone. The
// protocol server uses it directly (it says which request was cancelled); presenters use
// whenReady.
template <typename T, typename Callback> void whenFinished(QObject *context, QFuture<T> future, Callback &&callback)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, callback = std::forward<Callback>(callback)]() mutable {
                         watcher->deleteLater();
                         callback(watcher->future());
                     });
    watcher->setFuture(std::move(future));
}

// Calls `callback(result)` on `context`'s thread once `future` (a Client call's) is ready,
// as whenFinished; every presenter (widgets, the TUI, the ACP bridge) uses this. A future
// that ends without a result reports an error instead of nothing.
template <typename T, typename Callback> void whenReady(QObject *context, QFuture<T> future, Callback &&callback)
{
    whenFinished(context, std::move(future),
                 [callback = std::forward<Callback>(callback)](const QFuture<T> &done) mutable {
                     if (done.resultCount() > 0) {
                         callback(done.result());
                         return;
                     }
                     const Error gone{ QStringLiteral("engine"), QStringLiteral("the request was cancelled"), {} };
                     if constexpr (std::is_same_v<T, Status>)
                         callback(Status(gone));
                     else
                         callback(T(gone));
                 });
}

} // namespace sandbox
