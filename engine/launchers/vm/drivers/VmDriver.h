#pragma once

#include "launchers/vm/guest/GuestLayout.h"
#include "launchers/vm/guest/OpenedShares.h"
#include "protocol/BackendInfo.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace sandbox {

// What a driver is asked to boot: a kernel and initramfs, the guest's size, the host
// directories it shares (GuestLayout order; share i has tag "s<i>"), and the host end of
// the exec agent's channel (a unix socket the driver's VM listens on).
struct VmSpec
{
    QString kernel;
    QString initramfs;
    QString kernelCommandLine;
    // The backend's settings (VmLauncher::makeSpec), whose defaults are its descriptor's.
    int memoryMb = 0;
    int cpus = 0;
    QList<GuestLayout::Share> shares;
    // The shares held open since they were checked, one descriptor per share (QEMU on
    // Linux); without them a driver gives the host paths.
    std::shared_ptr<const OpenedShares> openedShares;
    QString agentSocket;
    // Network allowlist: the unix socket (listened on by the engine) the guest's forwarder
    // port sandbox.proxy connects to; empty for no network at all.
    QString proxySocket;
    // Network full: a NIC on user-mode networking that reaches neither the host nor an
    // internal address but `openedAddresses` (IPv4, host byte order), nor `closedAddresses`.
    bool userNetwork = false;
    QList<quint32> openedAddresses;
    QList<quint32> closedAddresses;
    QString consoleLog;
    QString runDirectory; // per-VM scratch directory (owner-only)
    // Baselines (QEMU): the monitor socket the engine drives save and restore through, and
    // whether this VM starts paused waiting for a saved state instead of booting.
    QString monitorSocket;
    bool incoming = false;
    // A VM restored from a baseline saved without mounted shares: the shares' backends are
    // there from the start, their devices are the share slots' or hot-added on restore.
    bool sharesAttachedLater = false;
    // Share devices present from boot (tags s0 ...), the first ones carrying `shares`, the
    // rest the empty read-only directory `emptyShare`: a baseline saved with them unmounted
    // serves workspaces whose shares then only need mounting (QEMU under TCG; others ignore it).
    int shareSlots = 0;
    QString emptyShare;
};

// How one hypervisor is driven. Each driver builds the command that boots a VmSpec; the
// launcher runs it, connects to the agent channel and owns the VM's lifetime.
class VmDriver
{
public:
    enum class Acceleration { Hardware, Software };

    struct Command
    {
        QString program;
        QStringList arguments;
    };

    virtual ~VmDriver() = default;
    virtual QString name() const = 0;
    // Whether this host can run the driver at all, and why not.
    virtual Availability availability() const = 0;
    virtual Result<Command> bootCommand(const VmSpec &spec, Acceleration acceleration) const = 0;
    // The file systems the guest mounts shares with ("9p" or "virtiofs").
    virtual QString shareFileSystem() const = 0;
    // Whether the driver can use hardware acceleration here (a boot still has to prove it).
    virtual bool mayAccelerate() const = 0;
    // The hypervisor's own version text (what a baseline is bound to).
    virtual QString version() const { return name(); }

    // Pre-workload baselines: whether this driver can save a running guest's state and start
    // a VM from it instead of booting, and why not.
    virtual Availability baselineSupport() const = 0;
    // Saves the running VM's state (booted from `spec`) into `artifactFd`, an open file the
    // engine owns, and lets the VM go on running. Never changes the guest otherwise.
    virtual Status saveBaseline(const VmSpec &spec, int artifactFd) const = 0;
    // Loads the state in `artifactFd` into the VM started from `spec` (spec.incoming) and
    // lets it run; with spec.sharesAttachedLater it adds the shares' devices before (a
    // failure to add one is an Error whose `where` is "builtin:vm.driver.shares").
    virtual Status restoreBaseline(const VmSpec &spec, int artifactFd) const = 0;
    // Whether a VM for `spec` can be restored from a baseline saved without mounted shares
    // and get its shares on restore, and why not.
    // Whether this driver can give a VM network "full" (VmSpec::userNetwork) here, and why not.
    virtual Availability userNetworkSupport() const
    {
        return { false,
                 QCoreApplication::translate("sandbox::VmDriver",
                                             "%1 cannot keep the host and internal addresses unreachable from a "
                                             "VM's user-mode network")
                     .arg(name()) };
    }
    virtual Availability shareAttachSupport(const VmSpec &spec, Acceleration acceleration) const
    {
        Q_UNUSED(spec)
        Q_UNUSED(acceleration)
        return { false, QStringLiteral("%1 cannot add shares to a running VM").arg(name()) };
    }
};

} // namespace sandbox
