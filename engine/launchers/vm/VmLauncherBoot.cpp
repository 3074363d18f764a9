#include "VmLauncher.h"
#include "VmLauncherCommon.h"
#include "VmMachine.h"
#include "launchers/vm/baseline/FileDigest.h"
#include "launchers/vm/drivers/HyperVDriver.h"
#include "launchers/vm/drivers/QemuDriver.h"
#include "launchers/vm/drivers/UserNetwork.h"
#include "launchers/vm/drivers/VfkitDriver.h"
#include "launchers/vm/guest/GuestImage.h"
#include "launchers/vm/guest/GuestProxyLink.h"
#include "launchers/vm/guest/GuestRequest.h"
#include "launchers/vm/guest/HelperStore.h"
#include "protocol/RuntimeDirectory.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutexLocker>
#include <QSaveFile>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <future>

namespace sandbox {

using namespace vmlauncher;

QFuture<Status> VmLauncher::prepare()
{
    return QtConcurrent::run([this] { return prepareNow(); });
}

Status VmLauncher::prepareNow()
{
    Settings settings;
    {
        QMutexLocker lock(&m_mutex);
        settings = m_settings;
    }
    QString driverName = settings.driver;
    if (driverName == QLatin1String("auto")) {
#if defined(Q_OS_MACOS)
        driverName = QStringLiteral("vfkit");
#elif defined(Q_OS_WIN)
        driverName = QStringLiteral("hyperv");
#else
        driverName = QStringLiteral("qemu");
#endif
    }
    std::unique_ptr<VmDriver> driver;
    if (driverName == QLatin1String("vfkit"))
        driver = std::make_unique<VfkitDriver>();
    else if (driverName == QLatin1String("hyperv"))
        driver = std::make_unique<HyperVDriver>();
    else
        driver = std::make_unique<QemuDriver>();
    const Availability driverAvailability = driver->availability();
    if (!driverAvailability.available)
        return Error{ kWhere + QStringLiteral(".driver"),
                      tr("%1: %2").arg(driver->name(), driverAvailability.reason),
                      {} };

    LauncherHost *launcherHost = host();
    if (!launcherHost)
        return Error{ kWhere, tr("the launcher is not attached to an engine"), {} };
    const QString vmDir = launcherHost->stateDirectory();
    HelperStore helpers(vmDir + QStringLiteral("/bin"), settings.helperSource);
    const Result<QMap<QString, QByteArray>> verified
        = helpers.ensure(requiredHelpers(), [launcherHost](const QString &message) {
              qCInfo(lcVmFetch, "%s", qUtf8Printable(message));
              launcherHost->reportActivationProgress(message);
          });
    if (!verified.ok())
        return verified.error();

    GuestImage::Inputs inputs;
    inputs.kernel = settings.kernel;
    inputs.helpers = verified.value();
    QString initramfs = settings.initramfs;
    QString kernel;
    if (initramfs.isEmpty()) {
        initramfs = vmDir + QStringLiteral("/initramfs.cpio");
        const Result<QString> built = GuestImage::build(inputs, initramfs);
        if (!built.ok())
            return built.error();
        kernel = built.value();
    } else {
        const Result<QString> found
            = settings.kernel.isEmpty() ? GuestImage::discoverKernel() : Result<QString>(settings.kernel);
        if (!found.ok())
            return found.error();
        kernel = found.value();
    }
    // The image baseline-compatible VMs boot: the base one with an empty layout appended,
    // the same bytes every time, so an unchanged one keeps its file (and remembered digest).
    QString baselineInitramfs;
    if (settings.baselineEnabled) {
        QFile base(initramfs);
        if (!base.open(QIODevice::ReadOnly))
            return Error{ kWhere, tr("cannot read the guest initramfs %1").arg(initramfs), {} };
        baselineInitramfs = vmDir + QStringLiteral("/initramfs-baseline.cpio");
        const Status written = GuestImage::write(
            baselineInitramfs,
            base.readAll()
                + GuestImage::singleFileArchive(QStringLiteral("/.sandbox/layout"), GuestLayout().layoutFile()));
        if (!written)
            return written.error();
    }
    QList<QFuture<void>> restores;
    {
        QMutexLocker lock(&m_mutex);
        restores.swap(m_restores);
    }
    for (QFuture<void> &restore : restores)
        restore.waitForFinished();
    {
        QMutexLocker lock(&m_mutex);
        m_driver = std::move(driver);
        m_kernel = kernel;
        m_baseInitramfs = initramfs;
        m_baselineInitramfs = baselineInitramfs;
        m_workspaceRestoreProblem.clear();
        m_helperSha256.clear();
        for (auto it = verified.value().cbegin(); it != verified.value().cend(); ++it)
            m_helperSha256.insert(
                it.key(),
                QString::fromLatin1(QCryptographicHash::hash(it.value(), QCryptographicHash::Sha256).toHex()));
    }

    // The first VM: proves the whole chain (helpers, image, driver, agent) and serves spawns
    // whose layout it has.
    std::shared_ptr<VmMachine> booted;
    const VmDriver::Acceleration acceleration = decideAcceleration(GuestLayout(), booted);
    Result<std::shared_ptr<VmMachine>> machine = bootPrepared(acceleration, booted);
    if (!machine.ok())
        return machine.error();
    QMutexLocker lock(&m_mutex);
    m_acceleration = acceleration;
    m_lastBootMs = machine.value()->bootMs();
    m_prepared = true;
    return Status::success();
}

QString VmLauncher::accelerationVerdictKey() const
{
    QMutexLocker lock(&m_mutex);
    const auto *qemu = dynamic_cast<const QemuDriver *>(m_driver.get());
    const QString program = qemu ? qemu->program() : QString();
    return QStringLiteral("%1 %2 %3 %4")
        .arg(program, QFileInfo(program).lastModified().toString(Qt::ISODate), m_kernel, QSysInfo::kernelVersion());
}

VmDriver::Acceleration VmLauncher::decideAcceleration(const GuestLayout &layout, std::shared_ptr<VmMachine> &booted)
{
    if (!m_driver->mayAccelerate()) {
        QMutexLocker lock(&m_mutex);
        m_accelerationNote = tr("; /dev/kvm is not usable");
        return VmDriver::Acceleration::Software;
    }
    // KVM is trusted only once a KVM boot has reached the agent on this host, QEMU and kernel.
    const QString verdictFile = host()->stateDirectory() + QStringLiteral("/kvm-verdict");
    const QString key = accelerationVerdictKey();
    QFile previous(verdictFile);
    if (previous.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = previous.readAll().split('\n');
        if (lines.size() >= 2 && QString::fromUtf8(lines[0]) == key && lines[1] == "broken") {
            QMutexLocker lock(&m_mutex);
            m_accelerationNote = tr("; a KVM boot did not reach the guest agent on this host: %1")
                                     .arg(QString::fromUtf8(lines.value(2)));
            return VmDriver::Acceleration::Software;
        }
    }
    Result<std::shared_ptr<VmMachine>> probe
        = boot(layout, VmDriver::Acceleration::Hardware, kHardwareProbeTimeoutMs, true);
    QSaveFile verdict(verdictFile);
    if (verdict.open(QIODevice::WriteOnly)) {
        verdict.write(key.toUtf8() + '\n' + (probe.ok() ? "works" : "broken") + '\n'
                      + (probe.ok() ? QByteArray() : probe.error().message.left(300).toUtf8().replace('\n', ' ')));
        verdict.commit();
    }
    if (probe.ok()) {
        booted = probe.value();
        return VmDriver::Acceleration::Hardware;
    }
    QMutexLocker lock(&m_mutex);
    m_accelerationNote = tr("; a KVM boot did not reach the guest agent on this host: %1")
                             .arg(probe.error().message.left(300).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    return VmDriver::Acceleration::Software;
}

Result<std::shared_ptr<VmMachine>> VmLauncher::boot(const GuestLayout &layout, VmDriver::Acceleration acceleration,
                                                    int timeoutMs, bool wait)
{
    bool monitor = false;
    {
        QMutexLocker lock(&m_mutex);
        // The first VM gets a monitor: it is the one a baseline is saved from.
        monitor = m_settings.baselineEnabled && layout.shares.isEmpty() && m_driver->baselineSupport().available;
    }
    Result<VmSpec> spec = makeSpec(layout, monitor);
    if (!spec.ok())
        return spec.error();
    return start(layout, spec.value(), acceleration, timeoutMs, wait);
}

Result<VmSpec> VmLauncher::makeSpec(const GuestLayout &layout, bool monitor, bool attachLater)
{
    QString kernel, baseInitramfs, baselineInitramfs;
    VmSpec spec;
    {
        QMutexLocker lock(&m_mutex);
        kernel = m_kernel;
        baseInitramfs = m_baseInitramfs;
        baselineInitramfs = m_baselineInitramfs;
        spec.memoryMb = m_settings.memoryMb;
        spec.cpus = m_settings.cpus;
    }
    // A short private directory for the VM's sockets (unix socket paths are limited to about
    // 100 bytes), in the engine's owner-only runtime directory: never in the shared /tmp,
    // where a command of another sandbox could rename them or listen first.
    const QString runtimeBase = host() && !host()->runtimeDirectory().isEmpty() ? host()->runtimeDirectory()
                                                                                : RuntimeDirectory::defaultDirectory();
    if (Status owned = RuntimeDirectory::ensure(runtimeBase); !owned)
        return Error{ kWhere,
                      tr("cannot use the engine's runtime directory for the VM: %1").arg(owned.error().toString()),
                      {} };
    QTemporaryDir runDirectory(runtimeBase + QStringLiteral("/sandbox-vm-XXXXXX"));
    if (!runDirectory.isValid())
        return Error{ kWhere, tr("cannot create a directory for the VM under %1").arg(runtimeBase), {} };
    runDirectory.setAutoRemove(false);
    spec.runDirectory = runDirectory.path();
    spec.kernel = kernel;
    spec.kernelCommandLine = kCommandLine + (monitor ? kBaselineCommandLine : QString());
    // The shares are opened (and checked to be the directories the layout looked at) before
    // the guest's layout file is written: what the guest is told is what QEMU will share.
    GuestLayout shared = layout;
    QStringList dropped;
    spec.openedShares = OpenedShares::open(shared, &dropped);
    for (const QString &path : std::as_const(dropped))
        qWarning("builtin:vm: %s is not shared: it is gone or is another directory than when the VM's layout was "
                 "computed",
                 qUtf8Printable(path));
    spec.shares = shared.shares;
    spec.agentSocket = spec.runDirectory + QStringLiteral("/agent");
    if (layout.proxied) {
        spec.proxySocket = spec.runDirectory + QStringLiteral("/proxy");
        spec.kernelCommandLine += QStringLiteral(" sandbox.net=proxy");
    }
    if (layout.userNetwork) {
        const Result<UserNetwork::Addresses> addresses
            = UserNetwork::fromPolicy(layout.allowedDomains, layout.deniedDomains);
        if (!addresses.ok()) {
            QDir(spec.runDirectory).removeRecursively();
            return addresses.error();
        }
        spec.userNetwork = true;
        spec.openedAddresses = addresses.value().opened;
        spec.closedAddresses = addresses.value().closed;
        spec.kernelCommandLine += QStringLiteral(" sandbox.net=full");
    }
    spec.consoleLog = spec.runDirectory + QStringLiteral("/console.log");
    spec.sharesAttachedLater = attachLater;
    // A baseline-compatible VM boots (or is restored into) the image with an empty layout,
    // written once by prepare(); any other VM gets one with its layout, written here.
    const bool baselineImage
        = monitor && !baselineInitramfs.isEmpty() && (attachLater || shared.layoutFile() == GuestLayout().layoutFile());
    const QString ownImage
        = spec.runDirectory + (attachLater ? QStringLiteral("/workspace.cpio") : QStringLiteral("/initramfs.cpio"));
    spec.initramfs = baselineImage ? baselineInitramfs : ownImage;
    if (!baselineImage || attachLater) {
        QFile base(baseInitramfs);
        QFile image(ownImage);
        if (!base.open(QIODevice::ReadOnly))
            return Error{ kWhere, tr("cannot read the guest initramfs %1").arg(baseInitramfs), {} };
        const QByteArray baseImage = base.readAll();
        QByteArray bundle;
        if (!shared.caBundle.isEmpty()) {
            QFile file(shared.caBundle);
            if (!file.open(QIODevice::ReadOnly))
                return Error{ kWhere,
                              tr("cannot read the certificate bundle %1: %2").arg(shared.caBundle, file.errorString()),
                              {} };
            bundle = GuestImage::singleFileArchive(QString::fromLatin1(GuestLayout::kCaBundle), file.readAll());
        }
        if (!image.open(QIODevice::WriteOnly) || image.write(baseImage) != baseImage.size()
            || image.write(GuestImage::singleFileArchive(QStringLiteral("/.sandbox/layout"), shared.layoutFile())) <= 0
            || image.write(bundle) != bundle.size())
            return Error{ kWhere, tr("cannot write the VM's initramfs %1").arg(ownImage), {} };
    }
    if (monitor) {
        spec.monitorSocket = spec.runDirectory + QStringLiteral("/monitor");
        // The VMs a baseline is saved from or restored into carry its share slots.
        spec.shareSlots = kBaselineShareSlots;
        spec.emptyShare = spec.runDirectory + QStringLiteral("/empty");
        if (!QDir().mkdir(spec.emptyShare))
            return Error{ kWhere, tr("cannot create %1").arg(spec.emptyShare), {} };
    }
    return spec;
}

Result<std::shared_ptr<VmMachine>> VmLauncher::start(const GuestLayout &layout, VmSpec spec,
                                                     VmDriver::Acceleration acceleration, int timeoutMs, bool wait,
                                                     BaselineCache::Candidate *restore)
{
    spec.incoming = restore != nullptr;
    Result<VmDriver::Command> command = m_driver->bootCommand(spec, acceleration);
    if (!command.ok()) {
        QDir(spec.runDirectory).removeRecursively();
        return command.error();
    }

    // Network allowlist: a proxy channel of the VM's own, under the VM's domain rules.
    std::shared_ptr<ProxyChannel> proxyChannel;
    if (!spec.proxySocket.isEmpty()) {
        LauncherHost *launcherHost = host();
        Result<std::shared_ptr<ProxyChannel>> opened = launcherHost
            ? launcherHost->openProxyChannel(layout.allowedDomains, layout.deniedDomains, layout.credentials,
                                             layout.extraCaCertificates, layout.upstreamProxy)
            : Result<std::shared_ptr<ProxyChannel>>(
                Error{ kWhere, tr("the launcher is not attached to an engine"), {} });
        if (!opened.ok()) {
            QDir(spec.runDirectory).removeRecursively();
            return opened.error();
        }
        proxyChannel = opened.value();
    }

    // A VM restored from a baseline holds its lease until it is gone.
    // (handed over once the VM is ready; until then a failure leaves it to the caller).
    auto lease = std::make_shared<std::shared_ptr<BaselineLease>>();
    GuestLayout shared = layout;
    shared.shares = spec.shares; // without what could not be opened as it was looked at
    std::shared_ptr<VmMachine> machine
        = createMachine(command.value(), spec, shared, timeoutMs, restore != nullptr, lease);
    if (proxyChannel) {
        // The forwarder's port connects as QEMU starts: its host end listens first.
        Status linked = Status::success();
        QMetaObject::invokeMethod(
            VmMachine::ioContext(),
            [&] { linked = (new GuestProxyLink(proxyChannel, machine.get()))->listen(spec.proxySocket); },
            Qt::BlockingQueuedConnection);
        if (!linked)
            return linked.error();
    }
    auto outcome = std::make_shared<std::promise<QString>>();
    std::future<QString> booted = outcome->get_future();
    VmMachine *raw = machine.get();
    QMetaObject::invokeMethod(
        raw,
        [raw, outcome] {
            auto done = std::make_shared<bool>(false);
            QObject::connect(raw, &VmMachine::ready, raw, [outcome, done] {
                if (!std::exchange(*done, true))
                    outcome->set_value(QString());
            });
            QObject::connect(raw, &VmMachine::failed, raw, [outcome, done](const QString &reason) {
                if (!std::exchange(*done, true))
                    outcome->set_value(reason);
            });
            QObject::connect(raw, &VmMachine::log, raw,
                             [](const QString &message) { qWarning("builtin:vm guest: %s", qUtf8Printable(message)); });
            raw->start();
        },
        Qt::BlockingQueuedConnection);
    if (restore) {
        // The driver loads the state (QEMU waits for the agent's channel to be connected
        // first, which the machine does on its own), then the guest must answer.
        const Status restored = m_driver->restoreBaseline(spec, restore->artifactFd);
        if (!restored) {
            QMetaObject::invokeMethod(
                raw, [raw] { raw->stop(); }, Qt::BlockingQueuedConnection);
            return restored.error();
        }
        QMetaObject::invokeMethod(raw,
                                  [raw, payload = GuestRequest::handshakePayload(), seed = GuestRequest::freshSeed()] {
                                      raw->confirmRestored(payload, seed);
                                  });
    }
    if (wait) {
        const QString failure = booted.get();
        if (!failure.isEmpty()) {
            QMetaObject::invokeMethod(
                raw, [raw] { raw->stop(); }, Qt::BlockingQueuedConnection);
            return Error{ kWhere, failure, {} };
        }
    }
    if (restore)
        *lease = restore->lease;
    QMutexLocker lock(&m_mutex);
    m_machines.append(machine);
    return machine;
}

std::shared_ptr<VmMachine> VmLauncher::createMachine(const VmDriver::Command &command, const VmSpec &spec,
                                                     const GuestLayout &layout, int timeoutMs, bool restoring,
                                                     std::shared_ptr<std::shared_ptr<BaselineLease>> lease)
{
    const QString runPath = spec.runDirectory;
    std::shared_ptr<VmMachine> machine;
    QMetaObject::invokeMethod(
        VmMachine::ioContext(),
        [&] {
            machine = std::shared_ptr<VmMachine>(
                new VmMachine(command, spec, layout, timeoutMs, restoring), [runPath, lease](VmMachine *raw) {
                    QMetaObject::invokeMethod(VmMachine::ioContext(), [raw, runPath, lease] {
                        delete raw;
                        QDir(runPath).removeRecursively();
                        lease->reset();
                    });
                });
        },
        Qt::BlockingQueuedConnection);
    return machine;
}

} // namespace sandbox
