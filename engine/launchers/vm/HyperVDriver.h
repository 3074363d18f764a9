#pragma once

#include "VmDriver.h"

namespace sandbox {

// Hyper-V on Windows, driven through PowerShell's Hyper-V module: a generation 2 VM with
// no network adapter, booted from the guest image, the agent over an hv_sock service
// (the winvm-helper's role on the host side). The command is the PowerShell script that
// creates and starts the VM. Hyper-V cannot boot a kernel and initramfs directly, so the
// image must first be packed as a bootable disk; that packing is not written yet, and
// shares would go through the winvm-helper: on every host this driver says so.
class HyperVDriver final : public VmDriver
{
public:
    QString name() const override { return QStringLiteral("hyperv"); }
    Availability availability() const override;
    Result<Command> bootCommand(const VmSpec &spec, Acceleration acceleration) const override;
    QString shareFileSystem() const override { return QStringLiteral("9p"); }
    bool mayAccelerate() const override { return true; }
    // Baselines are Hyper-V checkpoints of the VM, named after the artifact; the engine keeps
    // the name in the artifact file.
    Availability baselineSupport() const override { return availability(); }
    Status saveBaseline(const VmSpec &spec, int artifactFd) const override;
    Status restoreBaseline(const VmSpec &spec, int artifactFd) const override;
    // The PowerShell that checkpoints the running VM, and the one that applies a checkpoint
    // to a stopped VM and starts it.
    static Command checkpointCommand(const VmSpec &spec, const QString &checkpoint);
    static Command restoreCheckpointCommand(const VmSpec &spec, const QString &checkpoint);

    // The VM's name for a spec (its run directory's last component, prefixed).
    static QString vmName(const VmSpec &spec);
    // The hv_sock service id the agent listens on: Hyper-V's template for a vsock port.
    static QString serviceId(quint32 port);
    // PowerShell single-quoted literal.
    static QString quoted(const QString &text);
    // The boot disk Hyper-V starts from (packed from the kernel and initramfs).
    static QString bootDisk(const VmSpec &spec);
};

} // namespace sandbox
