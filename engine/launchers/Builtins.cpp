#include "Builtins.h"

#include "core/Engine.h"

#ifdef SANDBOX_HAVE_AUTO_LAUNCHER
#include "auto/AutoLauncher.h"
#endif

#ifdef SANDBOX_HAVE_VM_LAUNCHER
#include "launchers/vm/VmLauncher.h"
#endif

#include <memory>

namespace sandbox {

void registerBuiltinLaunchers(Engine &engine)
{
#ifdef SANDBOX_HAVE_AUTO_LAUNCHER
    engine.registerBuiltin(std::make_shared<AutoLauncher>());
#endif
#ifdef SANDBOX_HAVE_VM_LAUNCHER
    engine.registerBuiltin(createVmLauncher());
#endif
}

} // namespace sandbox
