#pragma once

#include <QLoggingCategory>

namespace sandbox {

// The protocol server's log ("sandbox.server"): connections, refusals, teardown. A daemon
// shows it; an embedding CLI turns its info messages off so stderr stays the command's.
Q_DECLARE_LOGGING_CATEGORY(lcServer)

} // namespace sandbox
