#pragma once

#include "core/launcher/Launcher.h"

namespace sandbox {

// builtin:auto on Windows: each command runs under sandbox-init.exe with the plan compiled
// from its policy (WindowsPlanBuilder): an AppContainer of its own, ACL changes per path
// (undone afterwards), firewall rules, a restricted token and a job object. Plain Qt, so it
// is compiled (not run) everywhere; registered on Windows only.
class WindowsLauncher final : public Launcher
{
public:
    QString kind() const override { return QStringLiteral("auto"); }
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

    // sandbox-init.exe: $SANDBOX_INIT_PATH, or next to the executable.
    static QString locateInit();
    // Why commands cannot run here; empty when they can.
    static QString unavailableReason();
};

} // namespace sandbox
