#pragma once

#include "protocol/Error.h"

#include <QFuture>

namespace sandbox {

// Waits for a launcher's future on an engine worker thread while running that thread's
// event loop, so a launcher may finish its work with timers, sockets or child processes
// owned by the calling thread instead of deadlocking on a plain blocking wait.
void waitForFuture(const QFuture<void> &future);

// The Status a finished launcher future carries; a cancelled or empty future is an error
// naming `where` and the launcher call `call` ("prepare()", ...).
Status statusOf(const QFuture<Status> &future, const QString &where, const QString &call);

} // namespace sandbox
