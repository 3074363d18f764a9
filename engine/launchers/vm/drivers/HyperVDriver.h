#pragma once

#include "VmDriver.h"

namespace sandbox {

// Hyper-V on Windows, driven through PowerShell's Hyper-V module: a generation 2 VM with
// no network adapter and Secure Boot off, booted from bootDisk() (HyperVBootDisk: the
// kernel, initramfs and command line packed as one EFI executable, since that firmware
// cannot be handed them directly), the agent on vsock port guest::kVsockPort reached over
// hv_sock through winvm-helper.exe, which the engine runs as a child process and talks to
// over its standard input and output (agentBridgeCommand). The boot command is the
// PowerShell script that creates and starts the VM, prints its id and lasts as long as
// the VM runs. The engine does not yet carry its agent channel over a child process's
// standard handles (it connects to a local socket), and shares are not passed to a
// Hyper-V guest: on every host this driver says it is unavailable.
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
    // The guest's command line under Hyper-V: the spec's, the agent on vsock.
    static QString guestCommandLine(const VmSpec &spec);
    // Packs spec.kernel, spec.initramfs and guestCommandLine() with the EFI stub `stub`
    // (empty: HyperVBootDisk::defaultStub()) into bootDisk(spec).
    static Status writeBootDisk(const VmSpec &spec, const QString &stub = QString());
    // The VM's id from the boot command's output (its "sandbox-vm-id <GUID>" line), empty
    // when there is none.
    static QString vmIdFromOutput(const QByteArray &output);
    // winvm-helper.exe (at `helper`, verified by the helper store) relaying the agent's
    // hv_sock service of the VM `vmId` to its standard input and output.
    static Command agentBridgeCommand(const QString &helper, const QString &vmId);
    // The PowerShell that turns the VM off and removes it (its run directory stays).
    static Command teardownCommand(const VmSpec &spec);
};

} // namespace sandbox
