#pragma once

#include "core/launcher/Launcher.h"
#include "launchers/vm/baseline/BaselineCache.h"
#include "launchers/vm/drivers/VmDriver.h"
#include "launchers/vm/guest/GuestLayout.h"
#include "launchers/vm/guest/GuestRequest.h"

#include <QCoreApplication>
#include <QList>
#include <QMutex>
#include <QUrl>

#include <memory>

namespace sandbox {

class VmMachine;
class VmProcess;

// builtin:vm — every command runs inside a small Linux VM booted by the engine (QEMU here,
// vfkit on macOS, Hyper-V on Windows), through the guest exec agent. prepare() fetches and
// verifies the guest helpers, assembles the initramfs and boots a VM to "agent ready".
// A VM shares exactly what the policy allows for one workspace (GuestLayout), so a spawn
// whose layout differs from every running VM's boots a VM for it. What it enforces is
// stated in descriptor().enforcement; what it cannot enforce it refuses to run.
class VmLauncher final : public Launcher
{
    Q_DECLARE_TR_FUNCTIONS(VmLauncher)

public:
    // As configure() read them; their defaults are the descriptor's fields' only.
    struct Settings
    {
        QString driver;
        int memoryMb = 0;
        int cpus = 0;
        QString kernel;
        QString initramfs;
        QUrl helperSource;
        bool baselineEnabled = false;
        int baselineMaxInactiveArtifacts = 0;
        qint64 baselineMaxBytes = 0;
    };

    VmLauncher();
    ~VmLauncher() override;

    QString kind() const override;
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

    // Where the helpers come from unless the helperSource setting says otherwise.
    static QString defaultHelperSource();
    // The helpers the guest needs on this host.
    static QStringList requiredHelpers();
    // The share devices a baseline's VM carries from boot (QEMU under TCG): a workspace VM
    // restored from it with at most this many shares only mounts them. A host's home
    // directory split around its denied paths easily gives 30 shares or more; each empty
    // slot costs the baseline's boot a little and its restores nothing measurable.
    static constexpr int kBaselineShareSlots = 50;
    // How long the last boot to "agent ready" took (ms), 0 before one.
    qint64 lastBootMs() const;
    // True when hardware acceleration (KVM) runs this backend's VMs.
    bool accelerated() const;
    // Whether the last prepare() started its VM from a cached baseline.
    bool lastPrepareRestored() const;
    // Where this backend keeps its baselines (under its state directory).
    QString baselineDirectory() const;
    // How each VM booted since the last call for a workspace's commands started: restored
    // from a baseline with its shares attached, or why it cold booted (oldest first).
    QStringList takeWorkspaceBootNotes();

    // The guest agent as a command's SSH configuration runs it (`--ssh-proxy HOST PORT`: its
    // ProxyCommand, through the guest's network forwarder).
    static constexpr const char *kGuestAgentProgram = "/.sandbox/sandbox-vm-agent";

private:
    Status prepareNow();
    // Opens the filtering SSH agent of the command `id` (`process`, not begun yet) and gives it
    // to the process; what the spawn request carries for it into the guest.
    Result<GuestRequest::Agent> openAgent(const PolicySshAgent &policy, const SpawnRequest &request, quint32 id,
                                          const std::shared_ptr<VmProcess> &process);
    Result<std::shared_ptr<VmMachine>> machineFor(const GuestLayout &layout, bool wait);
    // A VM's spec with its own run directory and initramfs (the layout appended). A
    // baseline-compatible VM (`monitor`: a monitor, the share slots) with an empty layout, or
    // one restored with its shares attached later (`attachLater`), boots the image with an
    // empty layout prepare() wrote; with `attachLater` the layout's own image is written as
    // workspace.cpio for a cold boot: one image written per VM at most.
    Result<VmSpec> makeSpec(const GuestLayout &layout, bool monitor, bool attachLater = false);
    // What a baseline for VMs started from `spec` is bound to: the command line that matters
    // for compatibility (without the shares' backends and the incoming state), the digests.
    Result<BaselineManifest> baselineIdentity(const VmSpec &spec, VmDriver::Acceleration acceleration) const;
    // A VM for a workspace's commands restored from the baseline, its shares given to it on
    // restore and mounted by the agent (cold booting once in its place when any step fails);
    // null with `coldBootNote` saying why when no baseline can serve it.
    std::shared_ptr<VmMachine> restoreForWorkspace(const GuestLayout &layout, VmDriver::Acceleration acceleration,
                                                   QString *coldBootNote);
    // How a workspace's VM started: logged, kept for takeWorkspaceBootNotes(), and given to
    // the commands waiting for `machine` (their processes' notes).
    void noteWorkspaceBoot(const QString &note, VmMachine *machine);
    // Boots `spec` (or, with `restore`, starts it from that baseline and runs the handshake).
    Result<std::shared_ptr<VmMachine>> boot(const GuestLayout &layout, VmDriver::Acceleration acceleration,
                                            int timeoutMs, bool wait);
    Result<std::shared_ptr<VmMachine>> start(const GuestLayout &layout, VmSpec spec,
                                             VmDriver::Acceleration acceleration, int timeoutMs, bool wait,
                                             BaselineCache::Candidate *restore = nullptr);
    // Creates the machine object (in the VM I/O thread), owning its run directory and, once
    // handed over, the lease of the baseline it was restored from.
    std::shared_ptr<VmMachine> createMachine(const VmDriver::Command &command, const VmSpec &spec,
                                             const GuestLayout &layout, int timeoutMs, bool restoring,
                                             std::shared_ptr<std::shared_ptr<BaselineLease>> lease);
    // The trusted boot of prepare(): restored from a baseline when one is valid, else cold
    // booted once (and saved as the baseline before any workload reaches it).
    Result<std::shared_ptr<VmMachine>> bootPrepared(VmDriver::Acceleration acceleration,
                                                    std::shared_ptr<VmMachine> booted);
    VmDriver::Acceleration decideAcceleration(const GuestLayout &layout, std::shared_ptr<VmMachine> &booted);
    QString accelerationVerdictKey() const;
    void stopIdleMachines(const QString &keepKey);
    QMap<QString, QString> enforcement() const;

    mutable QMutex m_mutex;
    Settings m_settings;
    std::unique_ptr<VmDriver> m_driver;
    QString m_kernel;
    QString m_baseInitramfs;
    QString m_baselineInitramfs; // the base image with an empty layout; empty without baselines
    bool m_prepared = false;
    QString m_unavailableReason;
    VmDriver::Acceleration m_acceleration = VmDriver::Acceleration::Software;
    QString m_accelerationNote;
    qint64 m_lastBootMs = 0;
    bool m_lastPrepareRestored = false;
    quint32 m_nextId = 1;
    QList<std::shared_ptr<VmMachine>> m_machines;
    QMap<QString, QString> m_helperSha256;
    std::weak_ptr<BaselineLease> m_baselineLease; // while a VM restored from it runs
    QString m_workspaceRestoreProblem; // why workspace VMs cold boot from now on
    QStringList m_workspaceBootNotes;
    QList<QFuture<void>> m_restores; // driver steps of workspace restores under way
};

std::shared_ptr<Launcher> createVmLauncher();

} // namespace sandbox
