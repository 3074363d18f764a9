#pragma once

#include "core/launcher/Launcher.h"

namespace sandbox {

// builtin:auto on macOS: each command runs under `sandbox-exec -p PROFILE`, the profile
// compiled from its policy (SeatbeltProfile); allowed domains through the engine's filtering
// proxy, bridged to the one loopback port the profile lets the command reach. Plain Qt, so
// it is compiled (not run) everywhere; registered on macOS only.
class SeatbeltLauncher final : public Launcher
{
public:
    static inline const QString kSandboxExec = QStringLiteral("/usr/bin/sandbox-exec");

    QString kind() const override { return QStringLiteral("auto"); }
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

    // Why commands cannot run here; empty when they can.
    static QString unavailableReason();
};

} // namespace sandbox
