#pragma once

#include "VmDriver.h"

#include <QMutex>

namespace sandbox {

class QmpClient;

// QEMU on Linux. With KVM (when /dev/kvm is usable and a boot proves it works) the
// `microvm` machine with virtio-mmio devices; under TCG the `pc` machine with virtio-pci
// devices (microvm's timer calibration stalls without hardware help). No NIC, no monitor,
// QEMU's own seccomp sandbox on, 9p shares (read-only ones read-only in QEMU itself),
// the agent on a virtio-serial port over a unix-socket chardev.
class QemuDriver final : public VmDriver
{
public:
    explicit QemuDriver(QString program = QString());

    QString name() const override { return QStringLiteral("qemu"); }
    Availability availability() const override;
    Result<Command> bootCommand(const VmSpec &spec, Acceleration acceleration) const override;
    QString shareFileSystem() const override { return QStringLiteral("9p"); }
    bool mayAccelerate() const override;
    // The first line of `qemu-system-x86_64 --version`, asked again only when the program
    // file changed (its device, inode, size, modification or status change time).
    QString version() const override;
    Availability baselineSupport() const override { return availability(); }
    // Stop, migrate the whole state into the file (an fd handed over the monitor: QEMU 7.2 has
    // no file: URI, and its seccomp sandbox forbids exec:), continue.
    Status saveBaseline(const VmSpec &spec, int artifactFd) const override;
    // migrate-incoming from the file (the VM was started with -incoming defer -S), continue.
    Status restoreBaseline(const VmSpec &spec, int artifactFd) const override;
    // Under TCG (the pc machine, ACPI PCI hotplug on its root bus): a spec.sharesAttachedLater
    // VM's first spec.shareSlots shares are in the slots' devices from boot; restoreBaseline()
    // hot-adds one virtio-9p-pci device per share beyond them (as many as the root bus has
    // free slots) once the state is loaded and before the guest runs, on the -fsdev backend
    // the command line already holds (read-only ones read-only there, as at boot); a device
    // QEMU refuses fails it with Error::where "builtin:vm.driver.shares". microvm's
    // virtio-mmio devices cannot be hot-added.
    Availability shareAttachSupport(const VmSpec &spec, Acceleration acceleration) const override;
    // QEMU's own user-mode network behind UserNetwork (a namespace and slirp4netns).
    Availability userNetworkSupport() const override;

    QString program() const { return m_program; }
    // The program as found on PATH (qemu-system-x86_64), empty when absent.
    static QString findProgram();

private:
    static Status addShareDevices(QmpClient &monitor, const VmSpec &spec);

    QString m_program;
    mutable QMutex m_versionMutex;
    mutable QByteArray m_versionKey; // guarded by m_versionMutex
    mutable QString m_version; // guarded by m_versionMutex
};

} // namespace sandbox
