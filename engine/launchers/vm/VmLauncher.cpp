#include "VmLauncher.h"

#include <QFuture>

namespace sandbox {

QString VmLauncher::kind() const
{
    return QStringLiteral("vm");
}

QString VmLauncher::unavailableReason()
{
    return tr("The VM backend is not available in this build yet: its guest helper binaries are not provisioned.");
}

BackendDescriptor VmLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = tr("Virtual machine");
    descriptor.description = tr("Runs each command in a lightweight virtual machine with its own kernel.");
    descriptor.platforms = { QStringLiteral("linux"), QStringLiteral("macos"), QStringLiteral("windows") };

    FieldSpec baseline;
    baseline.id = QStringLiteral("baselineEnabled");
    baseline.type = FieldSpec::Type::Boolean;
    baseline.label = tr("Cache a boot baseline");
    baseline.description = tr("Keep a snapshot taken after a trusted guest boot to start workloads faster.");
    baseline.defaultValue = false;

    FieldSpec artifacts;
    artifacts.id = QStringLiteral("baselineMaxInactiveArtifacts");
    artifacts.type = FieldSpec::Type::Number;
    artifacts.label = tr("Inactive baselines kept");
    artifacts.defaultValue = 2;
    artifacts.min = 0;
    artifacts.max = 64;

    FieldSpec bytes;
    bytes.id = QStringLiteral("baselineMaxBytes");
    bytes.type = FieldSpec::Type::Number;
    bytes.label = tr("Baseline cache size limit (bytes)");
    bytes.defaultValue = 4294967296.0;
    bytes.min = 0;

    descriptor.fields = { baseline, artifacts, bytes };
    return descriptor;
}

QFuture<Status> VmLauncher::configure(const ResolvedSettings &)
{
    return QtFuture::makeReadyFuture(Status());
}

QFuture<Status> VmLauncher::prepare()
{
    return QtFuture::makeReadyFuture(Status(Error{ QStringLiteral("builtin:vm"), unavailableReason(), {} }));
}

QFuture<Availability> VmLauncher::isAvailable()
{
    return QtFuture::makeReadyFuture(Availability{ false, unavailableReason() });
}

Result<std::shared_ptr<SandboxProcess>> VmLauncher::spawn(const SpawnRequest &, const Policy &)
{
    return Error{ QStringLiteral("builtin:vm"), unavailableReason(), {} };
}

QFuture<Status> VmLauncher::disposeIdle()
{
    return QtFuture::makeReadyFuture(Status());
}

std::shared_ptr<Launcher> createVmLauncher()
{
    return std::make_shared<VmLauncher>();
}

} // namespace sandbox
