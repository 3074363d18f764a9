#include "VmLauncher.h"
#include "VmLauncherCommon.h"
#include "VmMachine.h"
#include "launchers/vm/baseline/FileDigest.h"
#include "launchers/vm/guest/GuestRequest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutexLocker>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox {

using namespace vmlauncher;

Result<BaselineManifest> VmLauncher::baselineIdentity(const VmSpec &spec, VmDriver::Acceleration acceleration) const
{
    VmSpec identitySpec = spec;
    identitySpec.incoming = false;
    identitySpec.sharesAttachedLater = false;
    identitySpec.shares.clear();
    const Result<VmDriver::Command> command = m_driver->bootCommand(identitySpec, acceleration);
    if (!command.ok())
        return command.error();
    BaselineManifest expected;
    expected.driver = m_driver->name();
    expected.driverVersion = m_driver->version();
    expected.machine.append(command.value().program);
    for (const QString &argument : command.value().arguments) {
        QString canonical = argument;
        expected.machine.append(canonical.replace(identitySpec.runDirectory, QStringLiteral("@run")));
    }
    expected.kernelSha256 = FileDigest::rememberedSha256(identitySpec.kernel);
    expected.initramfsSha256 = FileDigest::rememberedSha256(identitySpec.initramfs);
    {
        QMutexLocker lock(&m_mutex);
        expected.helperSha256 = m_helperSha256;
    }
    expected.memoryMb = identitySpec.memoryMb;
    expected.cpus = identitySpec.cpus;
    expected.uid = ::getuid();
    return expected;
}

std::shared_ptr<VmMachine> VmLauncher::restoreForWorkspace(const GuestLayout &layout,
                                                           VmDriver::Acceleration acceleration, QString *coldBootNote)
{
    QElapsedTimer clock;
    clock.start();
    std::shared_ptr<BaselineLease> held;
    {
        QMutexLocker lock(&m_mutex);
        if (!m_settings.baselineEnabled || !m_driver->baselineSupport().available || layout.shares.isEmpty())
            return {};
        if (layout.proxied) {
            lock.unlock();
            // The baseline has no forwarder port (a device QEMU cannot add to a restored VM
            // of this kind): an allowlist VM is always booted.
            *coldBootNote = tr("workspace VM not restored: network allowlist VMs are booted with their proxy "
                               "port; cold boot");
            return {};
        }
        if (layout.userNetwork) {
            lock.unlock();
            // Nor a NIC, nor the namespace QEMU must start in: a full VM is always booted.
            *coldBootNote = tr("workspace VM not restored: network full VMs are booted in their own network "
                               "namespace with their NIC; cold boot");
            return {};
        }
        if (!m_workspaceRestoreProblem.isEmpty()) {
            const QString problem = m_workspaceRestoreProblem;
            lock.unlock();
            *coldBootNote = tr("workspace VM not restored: an earlier restore failed (%1); cold boot").arg(problem);
            return {};
        }
        held = m_baselineLease.lock();
    }
    Result<VmSpec> made = makeSpec(layout, true, true);
    if (!made.ok()) {
        *coldBootNote = tr("workspace VM not restored: %1; cold boot").arg(made.error().message);
        return {};
    }
    VmSpec spec = made.value();
    auto giveUp = [&](const QString &reason) -> std::shared_ptr<VmMachine> {
        QDir(spec.runDirectory).removeRecursively();
        *coldBootNote = tr("workspace VM not restored: %1; cold boot").arg(reason);
        return {};
    };
    if (const Availability attach = m_driver->shareAttachSupport(spec, acceleration); !attach.available)
        return giveUp(attach.reason);
    const Result<BaselineManifest> expected = baselineIdentity(spec, acceleration);
    if (!expected.ok())
        return giveUp(expected.error().message);
    // The cold boot this VM turns into should any step fail: the same VM with its shares.
    VmSpec cold = spec;
    cold.incoming = false;
    cold.sharesAttachedLater = false;
    cold.monitorSocket.clear();
    cold.shareSlots = 0;
    cold.kernelCommandLine = kCommandLine; // never saved as a baseline
    cold.initramfs = spec.runDirectory + QStringLiteral("/workspace.cpio");
    const Result<VmDriver::Command> coldCommand = m_driver->bootCommand(cold, acceleration);
    spec.incoming = true;
    const Result<VmDriver::Command> command = m_driver->bootCommand(spec, acceleration);
    if (!coldCommand.ok() || !command.ok())
        return giveUp((command.ok() ? coldCommand.error() : command.error()).message);

    BaselineCache cache(baselineDirectory());
    auto candidate = std::make_shared<BaselineCache::Candidate>(cache.lookUp(expected.value(), held));
    if (candidate->verdict != BaselineCache::Verdict::Usable)
        return giveUp(candidate->reason);
    {
        QMutexLocker lock(&m_mutex);
        m_baselineLease = candidate->lease;
    }
    const QString baseline = QFileInfo(candidate->directory).fileName();
    auto lease = std::make_shared<std::shared_ptr<BaselineLease>>(candidate->lease);
    GuestLayout shared = layout;
    shared.shares = spec.shares; // without what could not be opened as it was looked at
    std::shared_ptr<VmMachine> machine = createMachine(command.value(), spec, shared, kRestoreTimeoutMs, true, lease);
    VmMachine *raw = machine.get();
    const qint64 preparedMs = clock.elapsed();
    QMetaObject::invokeMethod(
        raw,
        [this, raw, lease, baseline, cold, preparedMs, coldCommand = coldCommand.value()] {
            raw->setColdFallback(coldCommand, cold, kSoftwareBootTimeoutMs);
            QObject::connect(raw, &VmMachine::ready, raw, [this, raw, baseline, preparedMs] {
                if (raw->isRestored())
                    noteWorkspaceBoot(tr("workspace VM restored from baseline %1, %2 shares attached (engine "
                                         "%3 ms, QEMU start and state load %4 ms, handshake %5 ms, shares mounted "
                                         "%6 ms)")
                                          .arg(baseline)
                                          .arg(raw->layout().shares.size())
                                          .arg(preparedMs)
                                          .arg(raw->stateLoadedMs())
                                          .arg(raw->handshakeDoneMs() - raw->stateLoadedMs())
                                          .arg(raw->bootMs() - raw->handshakeDoneMs()),
                                      raw);
            });
            QObject::connect(raw, &VmMachine::fellBack, raw, [this, raw, lease](const QString &reason) {
                // Not restored any more: the baseline is free of it.
                lease->reset();
                {
                    QMutexLocker lock(&m_mutex);
                    m_workspaceRestoreProblem = reason.left(300);
                }
                noteWorkspaceBoot(tr("workspace VM restore discarded: %1; cold boot").arg(reason.left(600)), raw);
            });
            QObject::connect(raw, &VmMachine::log, raw,
                             [](const QString &message) { qWarning("builtin:vm guest: %s", qUtf8Printable(message)); });
            raw->start();
        },
        Qt::BlockingQueuedConnection);

    // The driver's steps block on QEMU's monitor: they run beside the spawn, which returns
    // at once (its command waits in the machine until the VM is ready).
    const std::weak_ptr<VmMachine> weak = machine;
    VmDriver *driver = m_driver.get();
    QFuture<void> steps = QtConcurrent::run([driver, spec, candidate, weak, baselineRoot = baselineDirectory()] {
        const Status done = driver->restoreBaseline(spec, candidate->artifactFd);
        // A share device QEMU refused is no fault of the baseline's.
        const bool loaded = done.ok() || done.error().where == QLatin1String("builtin:vm.driver.shares");
        const std::shared_ptr<VmMachine> alive = weak.lock();
        if (!loaded) {
            // The driver could not use it: it goes, as at activation.
            BaselineCache(baselineRoot).invalidate(*candidate);
        }
        if (!alive)
            return;
        VmMachine *target = alive.get();
        if (!done.ok()) {
            const QString reason = loaded
                ? done.error().message
                : tr("baseline invalid: driver failure on restore (%1)").arg(done.error().message.left(300));
            QMetaObject::invokeMethod(target, [target, reason] { target->abandonRestore(reason); });
            return;
        }
        QMetaObject::invokeMethod(target,
                                  [target, payload = GuestRequest::handshakePayload(),
                                   seed = GuestRequest::freshSeed()] { target->confirmRestored(payload, seed); });
    });
    QMutexLocker lock(&m_mutex);
    m_restores.erase(std::remove_if(m_restores.begin(), m_restores.end(),
                                    [](const QFuture<void> &restore) { return restore.isFinished(); }),
                     m_restores.end());
    m_restores.append(steps);
    m_machines.append(machine);
    return machine;
}

Result<std::shared_ptr<VmMachine>> VmLauncher::bootPrepared(VmDriver::Acceleration acceleration,
                                                            std::shared_ptr<VmMachine> booted)
{
    Settings settings;
    {
        QMutexLocker lock(&m_mutex);
        settings = m_settings;
    }
    LauncherHost *launcherHost = host();
    auto note = [launcherHost](const QString &text) { launcherHost->reportActivationNote(text); };
    const Availability support = m_driver->baselineSupport();
    if (!settings.baselineEnabled || !support.available) {
        if (settings.baselineEnabled)
            note(tr("baselines unavailable with %1: %2; cold boot").arg(m_driver->name(), support.reason));
        {
            QMutexLocker lock(&m_mutex);
            m_lastPrepareRestored = false;
        }
        if (booted)
            return booted;
        return boot(GuestLayout(), acceleration, kSoftwareBootTimeoutMs, true);
    }

    // What the baseline is bound to: the machine this activation would boot.
    Result<VmSpec> spec = booted ? Result<VmSpec>(booted->spec()) : makeSpec(GuestLayout(), true);
    if (!spec.ok())
        return spec.error();
    const Result<BaselineManifest> identity = baselineIdentity(spec.value(), acceleration);
    if (!identity.ok())
        return identity.error();
    const BaselineManifest expected = identity.value();

    BaselineCache cache(baselineDirectory());
    bool mayStore = true;
    bool restored = false;
    if (!booted) {
        BaselineCache::Candidate candidate = cache.lookUp(expected);
        switch (candidate.verdict) {
        case BaselineCache::Verdict::Usable: {
            Result<std::shared_ptr<VmMachine>> machine
                = start(GuestLayout(), spec.value(), acceleration, kRestoreTimeoutMs, true, &candidate);
            if (machine.ok()) {
                note(tr("restored from baseline %1").arg(QFileInfo(candidate.directory).fileName()));
                QMutexLocker lock(&m_mutex);
                m_baselineLease = candidate.lease;
                booted = machine.value();
                restored = true;
                mayStore = false;
                break;
            }
            // The driver could not use it: it goes, and this activation boots once.
            cache.invalidate(candidate);
            note(tr("baseline invalid: driver failure on restore (%1); cold boot")
                     .arg(machine.error().message.left(300)));
            spec = makeSpec(GuestLayout(), true);
            if (!spec.ok())
                return spec.error();
            break;
        }
        case BaselineCache::Verdict::Missing:
            note(tr("no baseline yet; cold boot"));
            break;
        case BaselineCache::Verdict::Leased:
            note(tr("%1; cold boot").arg(candidate.reason));
            mayStore = false;
            break;
        default:
            note(tr("baseline invalid: %1; cold boot").arg(candidate.reason));
            break;
        }
        if (!booted) {
            Result<std::shared_ptr<VmMachine>> machine
                = start(GuestLayout(), spec.value(), acceleration, kSoftwareBootTimeoutMs, true);
            if (!machine.ok())
                return machine.error();
            booted = machine.value();
        }
    }
    {
        QMutexLocker lock(&m_mutex);
        m_lastPrepareRestored = restored;
    }
    if (mayStore) {
        // Agent ready, and nothing of any workload has reached this VM: spawns wait for
        // prepare() to finish. A baseline that cannot be saved costs only itself.
        const VmSpec bootedSpec = booted->spec();
        const Status stored = cache.store(expected, [&](int fd) { return m_driver->saveBaseline(bootedSpec, fd); });
        note(stored ? tr("baseline saved") : tr("baseline not saved: %1").arg(stored.error().message));
    }
    cache.evict(settings.baselineMaxInactiveArtifacts, settings.baselineMaxBytes);
    return booted;
}

} // namespace sandbox
