#pragma once

#include "protocol/Error.h"

#include <QFuture>

namespace sandbox {

class StopSignal;

enum class WaitOutcome { Finished, TimedOut, Stopped };

// Waits for a launcher's future on an engine worker thread while running that thread's
// event loop (so a launcher may finish its work with timers, sockets or child processes
// owned by the calling thread), for at most `timeoutMs`, and no longer once `stop` fires.
// Every wait is bounded: there is no unbounded variant.
WaitOutcome waitForFuture(const QFuture<void> &future, int timeoutMs, const StopSignal *stop);

// Runs one launcher call's future to its end under its bound. The call's own Status when
// it finished; otherwise the future is cancelled and the error names `where` and the
// call ("prepare()") and says it timed out after N s (or that the engine is stopping).
Status awaitLauncherCall(QFuture<Status> future, int timeoutMs, const StopSignal *stop, const QString &where,
                         const QString &call);

// The error for a launcher call that did not finish in time.
Error launcherCallTimedOut(const QString &where, const QString &call, int timeoutMs);
Error launcherCallStopped(const QString &where, const QString &call);

// The Status a finished launcher future carries; a cancelled or empty future is an error
// naming `where` and the launcher call `call` ("prepare()", ...).
Status statusOf(const QFuture<Status> &future, const QString &where, const QString &call);

} // namespace sandbox
