#include "Builtins.h"

#include "auto/AutoLauncher.h"
#include "core/Engine.h"

#ifdef SANDBOX_HAVE_VM_LAUNCHER
#include "launchers/vm/VmLauncher.h"
#endif

#include <memory>

namespace sandbox {

void registerBuiltinLaunchers(Engine &engine)
{
    engine.registerBuiltin(std::make_shared<AutoLauncher>());
#ifdef SANDBOX_HAVE_VM_LAUNCHER
    engine.registerBuiltin(createVmLauncher());
#endif
}

} // namespace sandbox
