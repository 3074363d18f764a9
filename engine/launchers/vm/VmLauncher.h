#pragma once

#include "core/Launcher.h"

#include <QCoreApplication>

#include <memory>

namespace sandbox {

// The built-in VM backend (builtin:vm). It is always listed, so users can see and select
// it, but in this build it reports itself unavailable: its guest helper binaries are not
// provisioned yet. It never runs a command, so it can never run one unconfined.
class VmLauncher final : public Launcher
{
    Q_DECLARE_TR_FUNCTIONS(VmLauncher)

public:
    QString kind() const override;
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

    static QString unavailableReason();
};

std::shared_ptr<Launcher> createVmLauncher();

} // namespace sandbox
