#pragma once

#include "VmDriver.h"

namespace sandbox {

// vfkit on macOS (Apple's Virtualization framework): the kernel (uncompressed) and
// initramfs through `--bootloader linux`, the agent over virtio-vsock bridged to a unix
// socket vfkit listens on, shares as virtio-fs, no network device, a REST endpoint on a
// unix socket for state and stop. vfkit's virtio-fs has no read-only mode, so only
// writable shares (the workspace) are given to the guest: readable paths are not shared
// at all under vfkit. Elsewhere it reports itself unavailable.
class VfkitDriver final : public VmDriver
{
public:
    explicit VfkitDriver(QString program = QString());

    QString name() const override { return QStringLiteral("vfkit"); }
    Availability availability() const override;
    Result<Command> bootCommand(const VmSpec &spec, Acceleration acceleration) const override;
    QString shareFileSystem() const override { return QStringLiteral("virtiofs"); }
    bool mayAccelerate() const override { return true; }
    // vfkit has no way to save a running VM and start one from the saved state.
    Availability baselineSupport() const override;
    Status saveBaseline(const VmSpec &spec, int artifactFd) const override;
    Status restoreBaseline(const VmSpec &spec, int artifactFd) const override;

    // The REST endpoint of a VM booted from `spec` (GET /vm/state, POST /vm/state {"state":"Stop"}).
    static QString restSocket(const VmSpec &spec);

private:
    QString m_program;
};

} // namespace sandbox
