#include "Builtins.h"

#include "core/Engine.h"

#ifdef SANDBOX_HAVE_AUTO_LAUNCHER
#include "auto/AutoLauncher.h"
#endif
#include "auto/macos/SeatbeltLauncher.h"
#include "auto/windows/WindowsLauncher.h"

#ifdef SANDBOX_HAVE_VM_LAUNCHER
#include "launchers/vm/VmLauncher.h"
#endif

#include <QDebug>

#include <functional>
#include <memory>

namespace sandbox {

namespace {

void registerOrWarn(Engine &engine, const QString &kind, std::function<std::shared_ptr<Launcher>()> factory)
{
    if (const Status status = engine.registerBuiltin(kind, std::move(factory)); !status.ok())
        qWarning("Built-in backend %s is not available: %s", qUtf8Printable(kind),
                 qUtf8Printable(status.error().toString()));
}

} // namespace

// Plans are recorded on Linux only (builtin:auto's PlanRecorder).
void registerBuiltinLaunchers(Engine &engine, [[maybe_unused]] std::shared_ptr<PlanRecording> planRecording)
{
#ifdef SANDBOX_HAVE_AUTO_LAUNCHER
    // A fresh instance per activation: a candidate never reconfigures the one serving.
    registerOrWarn(engine, QStringLiteral("auto"),
                   [planRecording] { return std::make_shared<AutoLauncher>(planRecording); });
#elif defined(Q_OS_MACOS)
    registerOrWarn(engine, QStringLiteral("auto"), [] { return std::make_shared<SeatbeltLauncher>(); });
#elif defined(Q_OS_WIN)
    registerOrWarn(engine, QStringLiteral("auto"), [] { return std::make_shared<WindowsLauncher>(); });
#endif
#ifdef SANDBOX_HAVE_VM_LAUNCHER
    registerOrWarn(engine, QStringLiteral("vm"), [] { return createVmLauncher(); });
#endif
}

} // namespace sandbox
