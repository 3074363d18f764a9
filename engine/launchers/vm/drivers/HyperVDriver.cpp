#include "HyperVDriver.h"

#include "GuestProtocol.h"
#include "launchers/vm/image/HyperVBootDisk.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::HyperVDriver", text);
}

} // namespace

Availability HyperVDriver::availability() const
{
#ifndef Q_OS_WIN
    return { false, tr("Hyper-V runs on Windows only") };
#else
    return { false,
             tr("the Hyper-V driver cannot run the guest yet: the engine does not carry the exec agent's channel "
                "through winvm-helper, and shares are not passed to a Hyper-V guest") };
#endif
}

QString HyperVDriver::vmName(const VmSpec &spec)
{
    return QStringLiteral("sandbox-vm-") + QFileInfo(spec.runDirectory).fileName();
}

QString HyperVDriver::serviceId(quint32 port)
{
    return QStringLiteral("%1-facb-11e6-bd58-64006a7986d3").arg(port, 8, 16, QLatin1Char('0'));
}

QString HyperVDriver::quoted(const QString &text)
{
    QString escaped = text;
    return QLatin1Char('\'') + escaped.replace(QLatin1Char('\''), QStringLiteral("''")) + QLatin1Char('\'');
}

QString HyperVDriver::bootDisk(const VmSpec &spec)
{
    return spec.runDirectory + QStringLiteral("/boot.vhdx");
}

QString HyperVDriver::guestCommandLine(const VmSpec &spec)
{
    return spec.kernelCommandLine + QStringLiteral(" sandbox.channel=vsock");
}

Status HyperVDriver::writeBootDisk(const VmSpec &spec, const QString &stub)
{
    return HyperVBootDisk::write({ stub, spec.kernel, spec.initramfs, guestCommandLine(spec) }, bootDisk(spec));
}

QString HyperVDriver::vmIdFromOutput(const QByteArray &output)
{
    static const QRegularExpression line(
        QStringLiteral("^sandbox-vm-id ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\r?$"),
        QRegularExpression::MultilineOption | QRegularExpression::CaseInsensitiveOption);
    return line.match(QString::fromUtf8(output)).captured(1).toLower();
}

VmDriver::Command HyperVDriver::agentBridgeCommand(const QString &helper, const QString &vmId)
{
    return Command{ helper,
                    { QStringLiteral("--vm-id"), vmId, QStringLiteral("--port"), QString::number(guest::kVsockPort) } };
}

VmDriver::Command HyperVDriver::teardownCommand(const VmSpec &spec)
{
    const QString name = quoted(vmName(spec));
    const QStringList script{ QStringLiteral("$ErrorActionPreference = 'Stop'"),
                              QStringLiteral("Stop-VM -Name %1 -TurnOff -Force").arg(name),
                              QStringLiteral("Remove-VM -Name %1 -Force").arg(name) };
    return Command{ QStringLiteral("powershell.exe"),
                    { QStringLiteral("-NoProfile"), QStringLiteral("-NonInteractive"), QStringLiteral("-Command"),
                      script.join(QStringLiteral("; ")) } };
}

Result<VmDriver::Command> HyperVDriver::bootCommand(const VmSpec &spec, Acceleration) const
{
    if (!spec.proxySocket.isEmpty())
        return Error{ QStringLiteral("builtin:vm.network"),
                      tr("the Hyper-V driver does not carry the guest's network forwarder yet, so network allowlist "
                         "is not enforced with it; nothing was run"),
                      {} };
    const QString name = quoted(vmName(spec));
    QStringList script;
    script << QStringLiteral("$ErrorActionPreference = 'Stop'");
    script << QStringLiteral("New-VM -Name %1 -Generation 2 -MemoryStartupBytes %2MB -NoVHD -Path %3")
                  .arg(name)
                  .arg(spec.memoryMb)
                  .arg(quoted(spec.runDirectory));
    script << QStringLiteral("Set-VMProcessor -VMName %1 -Count %2").arg(name).arg(spec.cpus);
    // Network none: the VM gets no adapter at all.
    script << QStringLiteral("Get-VMNetworkAdapter -VMName %1 | Remove-VMNetworkAdapter").arg(name);
    script << QStringLiteral("Set-VMFirmware -VMName %1 -EnableSecureBoot Off").arg(name);
    script << QStringLiteral("Add-VMHardDiskDrive -VMName %1 -Path %2").arg(name, quoted(bootDisk(spec)));
    script << QStringLiteral("Set-VMFirmware -VMName %1 -FirstBootDevice (Get-VMHardDiskDrive -VMName %1)").arg(name);
    script << QStringLiteral("Set-VMComPort -VMName %1 -Number 1 -Path %2")
                  .arg(name, quoted(QStringLiteral("\\\\.\\pipe\\") + vmName(spec) + QStringLiteral("-console")));
    // The agent's channel: an hv_sock service registered for the vsock port.
    const QString service = serviceId(guest::kVsockPort);
    const QString serviceKey = quoted(QStringLiteral("HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\"
                                                     "Virtualization\\GuestCommunicationServices\\")
                                      + service);
    script << QStringLiteral("New-Item -Force -Path %1 | Out-Null").arg(serviceKey);
    script << QStringLiteral("Set-ItemProperty -Path %1 -Name ElementName -Value 'Sandbox Studio exec agent'")
                  .arg(serviceKey);
    script << QStringLiteral("Start-VM -VMName %1").arg(name);
    // The id winvm-helper needs, then as long as the VM runs: the VM's end is this command's.
    script << QStringLiteral("Write-Output ('sandbox-vm-id ' + (Get-VM -Name %1).Id.Guid)").arg(name);
    script
        << QStringLiteral("while ((Get-VM -Name %1).State -eq 'Running') { Start-Sleep -Milliseconds 500 }").arg(name);
    return Command{ QStringLiteral("powershell.exe"),
                    { QStringLiteral("-NoProfile"), QStringLiteral("-NonInteractive"), QStringLiteral("-Command"),
                      script.join(QStringLiteral("; ")) } };
}

VmDriver::Command HyperVDriver::checkpointCommand(const VmSpec &spec, const QString &checkpoint)
{
    const QString name = quoted(vmName(spec));
    const QStringList script{ QStringLiteral("$ErrorActionPreference = 'Stop'"),
                              QStringLiteral("Set-VM -Name %1 -CheckpointType Standard").arg(name),
                              QStringLiteral("Checkpoint-VM -Name %1 -SnapshotName %2").arg(name, quoted(checkpoint)) };
    return Command{ QStringLiteral("powershell.exe"),
                    { QStringLiteral("-NoProfile"), QStringLiteral("-NonInteractive"), QStringLiteral("-Command"),
                      script.join(QStringLiteral("; ")) } };
}

VmDriver::Command HyperVDriver::restoreCheckpointCommand(const VmSpec &spec, const QString &checkpoint)
{
    const QString name = quoted(vmName(spec));
    const QStringList script{
        QStringLiteral("$ErrorActionPreference = 'Stop'"),
        QStringLiteral("Restore-VMCheckpoint -VMName %1 -Name %2 -Confirm:$false").arg(name, quoted(checkpoint)),
        QStringLiteral("Start-VM -VMName %1").arg(name)
    };
    return Command{ QStringLiteral("powershell.exe"),
                    { QStringLiteral("-NoProfile"), QStringLiteral("-NonInteractive"), QStringLiteral("-Command"),
                      script.join(QStringLiteral("; ")) } };
}

Status HyperVDriver::saveBaseline(const VmSpec &spec, int artifactFd) const
{
    if (const Availability available = availability(); !available.available)
        return Error{ QStringLiteral("builtin:vm.driver"), available.reason, {} };
    // The artifact holds the checkpoint's name; Hyper-V keeps the state itself.
    const QString checkpoint = QStringLiteral("sandbox-baseline-") + QFileInfo(spec.runDirectory).fileName();
    QFile artifact;
    if (!artifact.open(artifactFd, QIODevice::WriteOnly, QFileDevice::DontCloseHandle)
        || artifact.write(checkpoint.toUtf8()) < 0 || !artifact.flush())
        return Error{ QStringLiteral("builtin:vm.driver"), tr("cannot write the checkpoint's name"), {} };
    const Command command = checkpointCommand(spec, checkpoint);
    QProcess process;
    process.start(command.program, command.arguments);
    if (!process.waitForFinished(120000) || process.exitCode() != 0)
        return Error{ QStringLiteral("builtin:vm.driver"),
                      tr("Checkpoint-VM failed: %1").arg(QString::fromLocal8Bit(process.readAllStandardError())),
                      {} };
    return Status::success();
}

Status HyperVDriver::restoreBaseline(const VmSpec &spec, int artifactFd) const
{
    if (const Availability available = availability(); !available.available)
        return Error{ QStringLiteral("builtin:vm.driver"), available.reason, {} };
    QFile artifact;
    if (!artifact.open(artifactFd, QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
        return Error{ QStringLiteral("builtin:vm.driver"), tr("cannot read the checkpoint's name"), {} };
    const QString checkpoint = QString::fromUtf8(artifact.read(256));
    const Command command = restoreCheckpointCommand(spec, checkpoint);
    QProcess process;
    process.start(command.program, command.arguments);
    if (!process.waitForFinished(120000) || process.exitCode() != 0)
        return Error{ QStringLiteral("builtin:vm.driver"),
                      tr("Restore-VMCheckpoint failed: %1").arg(QString::fromLocal8Bit(process.readAllStandardError())),
                      {} };
    return Status::success();
}

} // namespace sandbox
