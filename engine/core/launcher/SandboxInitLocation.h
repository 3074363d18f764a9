#pragma once

#include <QString>

namespace sandbox {

// The engine's helper sandbox-init: $SANDBOX_INIT_PATH, else next to the running program,
// else in ../libexec/sandbox-studio; empty when none is executable.
QString locateSandboxInit();

} // namespace sandbox
