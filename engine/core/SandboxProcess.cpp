#include "SandboxProcess.h"

namespace sandbox {

// Out of line, so the class's vtable and type information live in the launcher API library.
SandboxProcess::~SandboxProcess() = default;

} // namespace sandbox
