#include "VmLauncher.h"

#include "FileDigest.h"
#include "ForwarderProtocol.h"
#include "GuestImage.h"
#include "GuestProxyLink.h"
#include "HelperStore.h"
#include "HyperVDriver.h"
#include "QemuDriver.h"
#include "UserNetwork.h"
#include "UserNetworkProtocol.h"
#include "VfkitDriver.h"
#include "VmMachine.h"
#include "VmProcess.h"
#include "protocol/RuntimeDirectory.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <future>
#include <unistd.h>

// Fetch progress, also in the log (QT_LOGGING_RULES="sandbox.vm.fetch.info=true"); the
// activation's events carry it live.
Q_LOGGING_CATEGORY(lcVmFetch, "sandbox.vm.fetch", QtWarningMsg)
// How the VMs for workspaces started (restored or cold booted, and why).
Q_LOGGING_CATEGORY(lcVmBoot, "sandbox.vm.boot", QtInfoMsg)

namespace sandbox {

namespace {

const QString kWhere = QStringLiteral("builtin:vm");
constexpr int kSoftwareBootTimeoutMs = 240 * 1000;
constexpr int kHardwareProbeTimeoutMs = 20 * 1000;
constexpr int kMaxMachines = 4;
constexpr int kRestoreTimeoutMs = 60 * 1000;
const QString kCommandLine = QStringLiteral("console=ttyS0 quiet panic=-1 rdinit=/init");
// For a VM a baseline may be saved from or restored into: freed pages (the unpacked
// initramfs archive above all) are zero, which a baseline then stores as nothing. It costs
// the boot the clearing of all guest memory (about 3 s of 512 MiB under TCG), so no other
// VM pays it.
const QString kBaselineCommandLine = QStringLiteral(" init_on_free=1");

template <typename T> QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

QByteArray spawnPayload(const SpawnRequest &request, bool proxied)
{
    QByteArray payload;
    auto put = [&](const QString &text) {
        payload += text.toUtf8();
        payload += '\0';
    };
    put(request.cwd);
    put(QStringLiteral("observe"));
    put(QString::number(request.argv.size()));
    for (const QString &arg : request.argv)
        put(arg);
    QMap<QString, QString> env = request.env;
    if (!env.contains(QStringLiteral("PATH")))
        env.insert(QStringLiteral("PATH"),
                   QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/.sandbox/bin"));
    if (proxied) {
        // Set after the request's own: a command cannot point tools elsewhere (and there is
        // nowhere else to go).
        const QString http = QStringLiteral("http://127.0.0.1:%1").arg(forwarder::kListenPort);
        const QString socks = QStringLiteral("socks5h://127.0.0.1:%1").arg(forwarder::kListenPort);
        for (const char *name : { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "npm_config_proxy",
                                  "npm_config_https_proxy", "PIP_PROXY", "SANDBOX_PROXY" })
            env.insert(QString::fromLatin1(name), http);
        env.insert(QStringLiteral("ALL_PROXY"), socks);
        env.insert(QStringLiteral("all_proxy"), socks);
        env.insert(QStringLiteral("NO_PROXY"), QString());
        env.insert(QStringLiteral("no_proxy"), QString());
    }
    put(QString::number(env.size()));
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        put(it.key() + QLatin1Char('=') + it.value());
    return payload;
}

// The handshake a restored guest must complete before it is ready: its clock set to the
// host's (it stood still since the baseline was saved) and fresh host randomness mixed into
// its pool (every VM restored from one baseline starts from the same pool otherwise).
QByteArray handshakePayload()
{
    QByteArray payload;
    auto put = [&](const QString &text) {
        payload += text.toUtf8();
        payload += '\0';
    };
    const QStringList argv{
        QStringLiteral("/bin/sh"), QStringLiteral("-c"),
        QStringLiteral("date -u -s @%1 >/dev/null && cat >/dev/urandom").arg(QDateTime::currentSecsSinceEpoch())
    };
    put(QStringLiteral("/"));
    put(QString());
    put(QString::number(argv.size()));
    for (const QString &arg : argv)
        put(arg);
    put(QStringLiteral("1"));
    put(QStringLiteral("PATH=/.sandbox/bin:/bin"));
    return payload;
}

QByteArray freshSeed()
{
    QByteArray seed(64, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(seed.data()),
                                         reinterpret_cast<quint32 *>(seed.data() + seed.size()));
    return seed;
}

bool hasNul(const SpawnRequest &request)
{
    auto bad = [](const QString &text) { return text.contains(QChar(0)); };
    if (bad(request.cwd) || bad(request.workspace))
        return true;
    for (const QString &arg : request.argv)
        if (bad(arg))
            return true;
    for (auto it = request.env.cbegin(); it != request.env.cend(); ++it)
        if (bad(it.key()) || bad(it.value()) || it.key().contains(QLatin1Char('=')))
            return true;
    return false;
}

} // namespace

VmLauncher::VmLauncher() = default;

VmLauncher::~VmLauncher()
{
    QList<std::shared_ptr<VmMachine>> machines;
    {
        QMutexLocker lock(&m_mutex);
        machines.swap(m_machines);
    }
    for (const std::shared_ptr<VmMachine> &machine : std::as_const(machines)) {
        VmMachine *raw = machine.get();
        if (QThread::currentThread() == raw->thread())
            raw->stop();
        else
            QMetaObject::invokeMethod(
                raw, [raw] { raw->stop(); }, Qt::BlockingQueuedConnection);
    }
    // The VMs are gone, so a restore's driver steps end at once.
    QList<QFuture<void>> restores;
    {
        QMutexLocker lock(&m_mutex);
        restores.swap(m_restores);
    }
    for (QFuture<void> &restore : restores)
        restore.waitForFinished();
    machines.clear();
    // Their run directories and leases go in the I/O thread: done before this returns (a
    // launcher that never ran a VM, like every catalog instance, queued nothing there).
    QObject *context = VmMachine::startedIoContext();
    if (context && QThread::currentThread() != context->thread())
        QMetaObject::invokeMethod(
            context, [] {}, Qt::BlockingQueuedConnection);
}

QStringList VmLauncher::takeWorkspaceBootNotes()
{
    QMutexLocker lock(&m_mutex);
    return std::exchange(m_workspaceBootNotes, {});
}

void VmLauncher::noteWorkspaceBoot(const QString &note, VmMachine *machine)
{
    qCInfo(lcVmBoot, "%s", qUtf8Printable(note));
    {
        QMutexLocker lock(&m_mutex);
        m_workspaceBootNotes.append(note);
    }
    if (machine)
        QMetaObject::invokeMethod(machine, [machine, note] { machine->noteBoot(note); });
}

QString VmLauncher::kind() const
{
    return QStringLiteral("vm");
}

QString VmLauncher::defaultHelperSource()
{
    return QStringLiteral("https://sandbox-studio.dev/releases/" SANDBOX_VERSION "/vm-helpers/");
}

QStringList VmLauncher::requiredHelpers()
{
    return { QStringLiteral("sandbox-vm-agent"), QStringLiteral("sandbox-vm-seccomp-observer"),
             QStringLiteral("sandbox-vm-gvforwarder") };
}

qint64 VmLauncher::lastBootMs() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastBootMs;
}

bool VmLauncher::accelerated() const
{
    QMutexLocker lock(&m_mutex);
    return m_prepared && m_acceleration == VmDriver::Acceleration::Hardware;
}

bool VmLauncher::lastPrepareRestored() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastPrepareRestored;
}

QString VmLauncher::baselineDirectory() const
{
    LauncherHost *launcherHost = host();
    return launcherHost ? launcherHost->stateDirectory() + QStringLiteral("/baselines") : QString();
}

BackendDescriptor VmLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = tr("Virtual machine");
    descriptor.description = tr("Runs each command in a lightweight virtual machine with its own kernel.");
    descriptor.platforms = { QStringLiteral("linux"), QStringLiteral("macos"), QStringLiteral("windows") };

    FieldSpec driver = FieldSpec::make(QStringLiteral("driver"), FieldSpec::Type::Select, tr("Hypervisor"),
                                       tr("Automatic picks QEMU on Linux, vfkit on macOS and Hyper-V on Windows."),
                                       QStringLiteral("auto"));
    driver.options = { { QStringLiteral("auto"), tr("Automatic") },
                       { QStringLiteral("qemu"), tr("QEMU") },
                       { QStringLiteral("vfkit"), tr("vfkit") },
                       { QStringLiteral("hyperv"), tr("Hyper-V") } };
    FieldSpec memory
        = FieldSpec::make(QStringLiteral("memoryMb"), FieldSpec::Type::Number, tr("Memory (MiB)"), {}, 512);
    memory.min = 128;
    memory.max = 65536;
    FieldSpec cpus = FieldSpec::make(QStringLiteral("cpus"), FieldSpec::Type::Number, tr("Virtual CPUs"), {}, 1);
    cpus.min = 1;
    cpus.max = 64;
    const FieldSpec kernel
        = FieldSpec::make(QStringLiteral("kernel"), FieldSpec::Type::String, tr("Guest kernel"),
                          tr("Empty: the newest kernel in /boot that has the 9p and virtio modules."), QString());
    const FieldSpec initramfs = FieldSpec::make(
        QStringLiteral("initramfs"), FieldSpec::Type::String, tr("Guest initramfs"),
        tr("Empty: assembled by the engine from busybox, the kernel's modules and the verified helpers."), QString());
    const FieldSpec source = FieldSpec::make(
        QStringLiteral("helperSource"), FieldSpec::Type::String, tr("Helper download location"),
        tr("Where the guest helpers are fetched from on first use (http, https or file URL). Empty: the "
           "release's own location. Each one is checked against the digest pinned in this release."),
        QString());

    FieldSpec baseline
        = FieldSpec::make(QStringLiteral("baselineEnabled"), FieldSpec::Type::Boolean, tr("Cache a boot baseline"),
                          tr("Keep a snapshot taken after a trusted guest boot to start workloads faster."), false);
    FieldSpec artifacts = FieldSpec::make(QStringLiteral("baselineMaxInactiveArtifacts"), FieldSpec::Type::Number,
                                          tr("Inactive baselines kept"), {}, 2);
    artifacts.min = 0;
    artifacts.max = 64;
    FieldSpec bytes = FieldSpec::make(QStringLiteral("baselineMaxBytes"), FieldSpec::Type::Number,
                                      tr("Baseline cache size limit (bytes)"), {}, 4294967296.0);
    bytes.min = 0;
    bytes.unit = FieldSpec::Unit::Bytes;

    descriptor.fields = { driver, memory, cpus, kernel, initramfs, source, baseline, artifacts, bytes };
    descriptor.enforcement = enforcement();
    descriptor.refusals = tr("Reported as they happen: every system call the guest's seccomp observer refuses, tied "
                             "to the command (and still written on the command's stderr); under the allowlist "
                             "network mode every connection the filtering proxy refuses, for this backend (one "
                             "VM's forwarder serves every command in it, so such a refusal is not tied to one "
                             "command); and the engine's own refusals. Not observed: what the guest's kernel "
                             "refuses on files (a write to a read-only share; a denied path is simply absent from "
                             "the guest).");
    return descriptor;
}

QMap<QString, QString> VmLauncher::enforcement() const
{
    QMutexLocker lock(&m_mutex);
    QString engine;
    if (!m_prepared) {
        engine = tr("a VM (QEMU on Linux; KVM when a KVM boot works, else TCG software emulation: decided at "
                    "activation)");
    } else if (m_acceleration == VmDriver::Acceleration::Hardware) {
        engine = tr("a VM (QEMU with KVM hardware virtualization)");
    } else {
        engine = tr("a VM (QEMU with TCG software emulation%1)").arg(m_accelerationNote);
    }
    QMap<QString, QString> claims;
    claims.insert(QStringLiteral("filesystem"),
                  tr("%1 with its own kernel; the workspace shared read-write over 9p; readable paths shared "
                     "read-only (read-only in QEMU itself); denied paths never shared: a directory holding a "
                     "denied path is not shared, its other subdirectories are (those present when the VM "
                     "booted; read-only ones whose names hold a tab or line break are left out), its files are "
                     "not; read-only paths inside the workspace shared read-only on top (a read-only file makes "
                     "its whole directory read-only); /tmp, /proc, /sys, /dev and /run are the guest's own, "
                     "private to the VM; a VM never serves another workspace or a stricter policy; repository "
                     "files that make git run code are protected only where they are read-only paths of the "
                     "policy: a new repository, commondir, modules/*/config, info/ and the control files of "
                     "nested repositories can be written from the guest (the auto backend refuses them at the "
                     "write)")
                      .arg(engine));
    if (m_settings.baselineEnabled && !(m_prepared && m_acceleration == VmDriver::Acceleration::Hardware)) {
        // Under TCG a baseline's VM carries its share slots (KVM's microvm has none).
        claims[QStringLiteral("filesystem")]
            += tr("; with baselines (QEMU under TCG) the VM a baseline is saved from and the VMs restored from it "
                  "carry %1 share devices from boot, each one no share of the VM fills backed by an empty "
                  "directory of the engine's, read-only in QEMU itself")
                   .arg(kBaselineShareSlots);
    }
    claims.insert(QStringLiteral("confinement"),
                  tr("host processes invisible and unreachable (a separate kernel); commands of one VM share it; "
                     "each command runs under a seccomp filter in the guest (mount, ptrace, namespaces, bpf, "
                     "io_uring, keyrings, modules, kexec, reboot, perf refused with EPERM and reported on the "
                     "command's stderr; foreign architectures killed); QEMU itself runs under its seccomp sandbox "
                     "(no spawning, no privilege changes)"));
    const Availability full = m_driver ? m_driver->userNetworkSupport() : Availability{ true, QString() };
    const QString fullNetwork = !full.available
        ? tr("Full is unavailable here (%1): a command under it is refused and nothing is run").arg(full.reason)
        : tr("Full (QEMU on Linux with slirp4netns and user namespaces; elsewhere a command under it is refused "
             "and nothing is run): the VM's one NIC is on QEMU's user-mode network (IPv4 only, nothing forwarded "
             "into the guest); QEMU runs in a user and network namespace of its own whose only way out is "
             "slirp4netns, its mapping to the host's loopback disabled; that namespace's routing table, set "
             "before QEMU starts (QEMU holds no capability there, so it cannot change it), prohibits every loopback, "
             "private, carrier-grade NAT, link-local, multicast, "
             "reserved and unspecified IPv4 range and the host's own IPv4 addresses (those it had when the VM "
             "booted), so the host and internal networks are unreachable and public addresses are reachable; "
             "the guest's gateway %1 is that namespace's own loopback, where nothing listens. An internal IPv4 "
             "address or one of the host's, listed without a port in the policy's allowed domains, is "
             "reachable on every port; an IPv4 address in its denied domains is not (deny wins); names in "
             "either list change nothing. A policy naming a loopback address, an internal address with a port "
             "or one in the VM's own networks (%2/%3, %4/%5) is refused and nothing is run. Name lookups go to "
             "slirp4netns's DNS forwarder %6, which asks the host's resolver: besides a host address the policy "
             "names, the one service of the host the guest reaches")
              .arg(QHostAddress(usernet::kGuestGateway).toString(), QHostAddress(usernet::kGuestNetwork).toString())
              .arg(usernet::kGuestPrefix)
              .arg(QHostAddress(usernet::kOuterNetwork).toString())
              .arg(usernet::kOuterPrefix)
              .arg(QHostAddress(usernet::kOuterDns).toString());
    claims.insert(QStringLiteral("network"),
                  tr("none: the VM has no network device. Allowlist: no network device either; the guest's only "
                     "way out is its network forwarder (sandbox-vm-gvforwarder, a verified helper) on the guest's "
                     "127.0.0.1:3128, whose connections travel over a virtio-serial port of their own to the "
                     "engine, which connects each one to its filtering proxy and to nothing else (QEMU only). %1")
                      .arg(fullNetwork));
    claims.insert(QStringLiteral("allowedDomains"),
                  tr("under network allowlist the engine's filtering proxy is the VM's only way out: commands get "
                     "HTTP_PROXY, HTTPS_PROXY and ALL_PROXY (and their lower-case forms) pointing at the "
                     "forwarder (HTTP, HTTPS through CONNECT, SOCKS5), set after the request's own environment; "
                     "the proxy connects only to the policy's allowed domains and addresses, a denied entry "
                     "winning. Nothing else leaves the VM, name lookups included (the proxy resolves names). Each "
                     "set of domain rules gets a VM of its own. Under network full only IPv4 addresses in the "
                     "lists count (see network), and each set of lists gets a VM of its own too"));
    claims.insert(QStringLiteral("hostExecution"),
                  tr("nothing of the host is reachable from the guest whatever the policy says (deny, ask and "
                     "allow alike): host sockets are not reachable through 9p; the only channels are the exec "
                     "agent's and, under network allowlist, the forwarder's, which the engine connects only to its "
                     "filtering proxy; under network full the NIC reaches neither the host's loopback nor its own "
                     "addresses, except its name resolver and an address of the host the policy names"));
    return claims;
}

QFuture<Status> VmLauncher::configure(const ResolvedSettings &resolved)
{
    // The descriptor's defaults for what is not given (the engine gives them all; a direct
    // caller may not): they are written there only.
    const QMap<QString, QJsonValue> values = resolved.values.withDefaults(descriptor()).values;
    Settings settings;
    settings.driver = values.value(QStringLiteral("driver")).toString();
    settings.memoryMb = values.value(QStringLiteral("memoryMb")).toInt();
    settings.cpus = values.value(QStringLiteral("cpus")).toInt();
    settings.kernel = values.value(QStringLiteral("kernel")).toString();
    settings.initramfs = values.value(QStringLiteral("initramfs")).toString();
    settings.baselineEnabled = values.value(QStringLiteral("baselineEnabled")).toBool();
    settings.baselineMaxInactiveArtifacts = values.value(QStringLiteral("baselineMaxInactiveArtifacts")).toInt();
    settings.baselineMaxBytes = qint64(values.value(QStringLiteral("baselineMaxBytes")).toDouble());
    const QString source = values.value(QStringLiteral("helperSource")).toString();
    settings.helperSource = QUrl(source.isEmpty() ? defaultHelperSource() : source, QUrl::StrictMode);

    const QStringList drivers
        = { QStringLiteral("auto"), QStringLiteral("qemu"), QStringLiteral("vfkit"), QStringLiteral("hyperv") };
    if (!drivers.contains(settings.driver))
        return ready(
            Status(Error{ kWhere + QStringLiteral(".driver"),
                          tr("unknown driver \"%1\" (expected auto, qemu, vfkit or hyperv)").arg(settings.driver),
                          {} }));
    const QStringList schemes = { QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("file") };
    if (!settings.helperSource.isValid() || !schemes.contains(settings.helperSource.scheme()))
        return ready(Status(Error{ kWhere + QStringLiteral(".helperSource"),
                                   tr("\"%1\" is not an http, https or file URL").arg(source),
                                   {} }));
    for (const auto &[id, path] : { std::pair{ QStringLiteral("kernel"), settings.kernel },
                                    std::pair{ QStringLiteral("initramfs"), settings.initramfs } }) {
        if (!path.isEmpty() && !QFileInfo(path).isFile())
            return ready(Status(Error{ kWhere + QLatin1Char('.') + id, tr("%1 is not a file").arg(path), {} }));
    }
    QMutexLocker lock(&m_mutex);
    m_settings = settings;
    m_prepared = false;
    return ready(Status::success());
}

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
        if (!image.open(QIODevice::WriteOnly) || image.write(baseImage) != baseImage.size()
            || image.write(GuestImage::singleFileArchive(QStringLiteral("/.sandbox/layout"), shared.layoutFile())) <= 0)
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
            ? launcherHost->openProxyChannel(layout.allowedDomains, layout.deniedDomains)
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
        QMetaObject::invokeMethod(
            raw, [raw, payload = handshakePayload(), seed = freshSeed()] { raw->confirmRestored(payload, seed); });
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
        QMetaObject::invokeMethod(target, [target, payload = handshakePayload(), seed = freshSeed()] {
            target->confirmRestored(payload, seed);
        });
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

void VmLauncher::stopIdleMachines(const QString &keepKey)
{
    QList<std::shared_ptr<VmMachine>> idle;
    {
        QMutexLocker lock(&m_mutex);
        for (auto it = m_machines.begin(); it != m_machines.end();) {
            // Only the launcher and no process hold it; a failed one goes too.
            if (((*it)->layoutKey() != keepKey && it->use_count() == 1) || (*it)->hasFailed()) {
                idle.append(*it);
                it = m_machines.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (const std::shared_ptr<VmMachine> &machine : std::as_const(idle)) {
        VmMachine *raw = machine.get();
        QMetaObject::invokeMethod(raw, [raw] { raw->stop(); });
    }
}

Result<std::shared_ptr<VmMachine>> VmLauncher::machineFor(const GuestLayout &layout, bool wait)
{
    const QString key = layout.key();
    {
        QMutexLocker lock(&m_mutex);
        for (const std::shared_ptr<VmMachine> &machine : std::as_const(m_machines)) {
            if (machine->layoutKey() == key && !machine->hasFailed())
                return machine;
        }
        for (const std::shared_ptr<VmMachine> &machine : std::as_const(m_machines)) {
            if (!machine->hasFailed() && layout.isServedBy(machine->layout()))
                return machine;
        }
    }
    stopIdleMachines(key);
    VmDriver::Acceleration acceleration;
    {
        QMutexLocker lock(&m_mutex);
        if (m_machines.size() >= kMaxMachines)
            return Error{ kWhere,
                          tr("%1 VMs are already running commands for other workspaces or policies; wait for "
                             "them to finish")
                              .arg(kMaxMachines),
                          {} };
        acceleration = m_acceleration;
    }
    QString coldBootNote;
    if (!wait) {
        if (std::shared_ptr<VmMachine> restored = restoreForWorkspace(layout, acceleration, &coldBootNote))
            return restored;
    }
    Result<std::shared_ptr<VmMachine>> booted = boot(
        layout, acceleration,
        acceleration == VmDriver::Acceleration::Hardware ? kHardwareProbeTimeoutMs : kSoftwareBootTimeoutMs, wait);
    if (!coldBootNote.isEmpty())
        noteWorkspaceBoot(coldBootNote, booted.ok() ? booted.value().get() : nullptr);
    return booted;
}

QFuture<Availability> VmLauncher::isAvailable()
{
    QMutexLocker lock(&m_mutex);
    if (!m_prepared)
        return ready(Availability{ false, tr("the VM backend has not been prepared") });
    return ready(Availability{ true, QString() });
}

Result<std::shared_ptr<SandboxProcess>> VmLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    {
        QMutexLocker lock(&m_mutex);
        if (!m_prepared)
            return Error{ kWhere, tr("the VM backend has not been prepared; nothing was run"), {} };
    }
    if (policy.network == Policy::NetworkMode::Full) {
        QString unsupported;
        {
            QMutexLocker lock(&m_mutex);
            const Availability support = m_driver->userNetworkSupport();
            if (!support.available)
                unsupported = support.reason;
        }
        if (!unsupported.isEmpty())
            return Error{
                kWhere,
                tr("network \"full\" is unavailable in the VM backend here: %1; nothing was run").arg(unsupported),
                {}
            };
        if (const Result<UserNetwork::Addresses> addresses
            = UserNetwork::fromPolicy(policy.allowedDomains, policy.deniedDomains);
            !addresses.ok())
            return addresses.error();
    }
    if (hasNul(request))
        return Error{ kWhere, tr("the command, its environment or its directory contains a NUL character"), {} };
    const Result<GuestLayout> computed
        = GuestLayout::fromPolicy(policy, request.effectiveWorkspace(), QDir::homePath());
    if (!computed.ok())
        return computed.error();
    GuestLayout layout = computed.value();
    const bool proxied = policy.network == Policy::NetworkMode::Allowlist;
    if (proxied || policy.network == Policy::NetworkMode::Full) {
        layout.proxied = proxied;
        layout.userNetwork = !proxied;
        layout.allowedDomains = policy.allowedDomains;
        layout.deniedDomains = policy.deniedDomains;
    }
    Result<std::shared_ptr<VmMachine>> machine = machineFor(layout, false);
    if (!machine.ok())
        return machine.error();
    quint32 id;
    {
        QMutexLocker lock(&m_mutex);
        id = m_nextId++;
    }
    auto process = std::make_shared<VmProcess>(machine.value(), id);
    process->begin(spawnPayload(request, proxied), process);
    return std::shared_ptr<SandboxProcess>(process);
}

QFuture<Status> VmLauncher::disposeIdle()
{
    stopIdleMachines(QStringLiteral("-"));
    return ready(Status::success());
}

std::shared_ptr<Launcher> createVmLauncher()
{
    return std::make_shared<VmLauncher>();
}

} // namespace sandbox
