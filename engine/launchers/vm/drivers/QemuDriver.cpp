#include "QemuDriver.h"

#include "QmpClient.h"
#include "UserNetwork.h"
#include "UserNetworkProtocol.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>

#include <algorithm>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::QemuDriver", text);
}

// Devices on the pc machine's root bus; the rest go behind PCI bridges.
constexpr int kRootBusShares = 20;
constexpr int kBridgeSlots = 30;
// The root bus's slots for share devices and bridges: its 32 less the host bridge, the PIIX3
// functions and the virtio-serial controller. Hot-added shares go on the root bus only.
constexpr int kRootBusFree = 29;

// The bridges `devices` share devices need, placed as bootCommand() places them.
int bridgesFor(qsizetype devices)
{
    return devices > kRootBusShares ? int((devices - kRootBusShares + kBridgeSlots - 1) / kBridgeSlots) : 0;
}

// How many share devices can be hot-added beside `present` devices there from boot.
qsizetype hotplugCapacity(qsizetype present)
{
    const qsizetype onRootBus = std::min<qsizetype>(present, kRootBusShares) + bridgesFor(present);
    return std::max<qsizetype>(0, kRootBusFree - onRootBus);
}

constexpr int kMonitorTimeoutMs = 20 * 1000;
constexpr int kMigrationTimeoutMs = 120 * 1000;
const QString kArtifactFdName = QStringLiteral("baseline");
const QString kShareDevicesWhere = QStringLiteral("builtin:vm.driver.shares");

QString escapeOption(const QString &value)
{
    // QEMU option values double a comma to mean a literal one.
    QString escaped = value;
    return escaped.replace(QLatin1Char(','), QStringLiteral(",,"));
}

} // namespace

QemuDriver::QemuDriver(QString program)
    : m_program(program.isEmpty() ? findProgram() : std::move(program))
{ }

QString QemuDriver::findProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"));
}

Availability QemuDriver::availability() const
{
#ifndef Q_OS_LINUX
    return { false, tr("the QEMU driver runs on Linux hosts") };
#else
    if (m_program.isEmpty())
        return { false, tr("qemu-system-x86_64 was not found on PATH (install qemu-system-x86)") };
    if (!QFileInfo(m_program).isExecutable())
        return { false, tr("%1 is not executable").arg(m_program) };
    return { true, QString() };
#endif
}

bool QemuDriver::mayAccelerate() const
{
    return ::access("/dev/kvm", R_OK | W_OK) == 0;
}

QString QemuDriver::version() const
{
    struct stat info
    {
    };
    QByteArray key;
    if (::stat(QFile::encodeName(m_program).constData(), &info) == 0) {
        key = QByteArray::number(quint64(info.st_dev)) + ' ' + QByteArray::number(quint64(info.st_ino)) + ' '
            + QByteArray::number(qint64(info.st_size)) + ' ' + QByteArray::number(qint64(info.st_mtim.tv_sec)) + '.'
            + QByteArray::number(qint64(info.st_mtim.tv_nsec)) + ' ' + QByteArray::number(qint64(info.st_ctim.tv_sec))
            + '.' + QByteArray::number(qint64(info.st_ctim.tv_nsec));
        QMutexLocker lock(&m_versionMutex);
        if (key == m_versionKey)
            return m_version;
    }
    QProcess process;
    process.start(m_program, { QStringLiteral("--version") });
    if (!process.waitForFinished(10000) || process.exitCode() != 0)
        return QString();
    const QString version
        = QString::fromUtf8(process.readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0).trimmed();
    if (!key.isEmpty()) {
        QMutexLocker lock(&m_versionMutex);
        m_versionKey = key;
        m_version = version;
    }
    return version;
}

Result<VmDriver::Command> QemuDriver::bootCommand(const VmSpec &spec, Acceleration acceleration) const
{
    if (m_program.isEmpty())
        return Error{ QStringLiteral("builtin:vm.driver"), availability().reason, {} };
    const bool kvm = acceleration == Acceleration::Hardware;
    const QString bus = kvm ? QStringLiteral("device") : QStringLiteral("pci");
    QStringList args;
    args << QStringLiteral("-nodefaults") << QStringLiteral("-no-user-config") << QStringLiteral("-no-reboot")
         << QStringLiteral("-display") << QStringLiteral("none");
    if (kvm) {
        args << QStringLiteral("-accel") << QStringLiteral("kvm") << QStringLiteral("-cpu") << QStringLiteral("host")
             << QStringLiteral("-M") << QStringLiteral("microvm");
    } else {
        args << QStringLiteral("-accel") << QStringLiteral("tcg") << QStringLiteral("-M")
             << QStringLiteral("pc,hpet=off") << QStringLiteral("-bios") << QStringLiteral("qboot.rom");
    }
    args << QStringLiteral("-m") << QString::number(spec.memoryMb) << QStringLiteral("-smp")
         << QString::number(spec.cpus);
    // QEMU's own seccomp filter: no spawning, no privilege changes, no obsolete calls.
    args << QStringLiteral("-sandbox")
         << QStringLiteral("on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny");
    if (spec.userNetwork) {
        // Network full: a NIC on QEMU's own user-mode network (IPv4 only, nothing forwarded
        // in), whose connections the VM's namespace (UserNetwork) confines.
        args << QStringLiteral("-netdev")
             << QStringLiteral("user,id=net0,net=%1/%2,host=%3,ipv6=off")
                    .arg(QHostAddress(usernet::kGuestNetwork).toString())
                    .arg(usernet::kGuestPrefix)
                    .arg(QHostAddress(usernet::kGuestGateway).toString())
             << QStringLiteral("-device") << QStringLiteral("virtio-net-%1,netdev=net0").arg(bus);
    } else {
        // Network none and allowlist: no NIC at all.
        args << QStringLiteral("-nic") << QStringLiteral("none");
    }
    args << QStringLiteral("-kernel") << spec.kernel << QStringLiteral("-initrd") << spec.initramfs
         << QStringLiteral("-append") << spec.kernelCommandLine;
    args << QStringLiteral("-serial") << QStringLiteral("file:") + spec.consoleLog;
    if (!spec.monitorSocket.isEmpty())
        args << QStringLiteral("-qmp")
             << QStringLiteral("unix:%1,server=on,wait=off").arg(escapeOption(spec.monitorSocket));
    if (spec.incoming)
        args << QStringLiteral("-S") << QStringLiteral("-incoming") << QStringLiteral("defer");
    args << QStringLiteral("-chardev")
         << QStringLiteral("socket,id=agent,path=%1,server=on,wait=on").arg(escapeOption(spec.agentSocket));
    args << QStringLiteral("-device") << QStringLiteral("virtio-serial-%1").arg(bus) << QStringLiteral("-device")
         << QStringLiteral("virtserialport,chardev=agent,name=sandbox.agent");
    if (!spec.proxySocket.isEmpty()) {
        // Network allowlist: still no NIC; the forwarder's port, connected (as a client, at
        // start) to the engine's end, which reaches only the filtering proxy.
        args << QStringLiteral("-chardev")
             << QStringLiteral("socket,id=proxy,path=%1").arg(escapeOption(spec.proxySocket))
             << QStringLiteral("-device") << QStringLiteral("virtserialport,chardev=proxy,name=sandbox.proxy");
    }
    if (spec.sharesAttachedLater) {
        if (const Availability attach = shareAttachSupport(spec, acceleration); !attach.available)
            return Error{ QStringLiteral("builtin:vm.driver"), attach.reason, {} };
    }
    // Baseline-compatible VMs under TCG: the share slots' devices are there from boot (the
    // guest probes them once, before the baseline is saved; unmounted 9p devices do not block
    // migration), their backends an empty read-only directory unless a share fills them.
    const qsizetype slotCount = kvm ? 0 : spec.shareSlots;
    // A backend is no migration state: a device is a slot's, a booted share's, or comes once
    // the VM runs (shares beyond the slots of a VM restored with them).
    const qsizetype devices = spec.sharesAttachedLater ? slotCount : qMax(slotCount, spec.shares.size());
    // The directories the engine checked and holds open, which QEMU inherits: it shares
    // what they are, not what their paths may name by the time it starts.
    const QList<int> descriptors = spec.openedShares && spec.openedShares->descriptors().size() == spec.shares.size()
        ? spec.openedShares->descriptors()
        : QList<int>();
    int bridges = 0;
    for (qsizetype i = 0; i < qMax(devices, spec.shares.size()); ++i) {
        if (i < spec.shares.size()) {
            const GuestLayout::Share &share = spec.shares.at(i);
            const QString path = descriptors.isEmpty() ? escapeOption(share.hostPath)
                                                       : QStringLiteral("/proc/self/fd/%1").arg(descriptors.at(i));
            args << QStringLiteral("-fsdev")
                 << QStringLiteral("local,id=fs%1,path=%2,security_model=none%3")
                        .arg(i)
                        .arg(path, share.writable ? QString() : QStringLiteral(",readonly=on"));
        } else {
            args << QStringLiteral("-fsdev")
                 << QStringLiteral("local,id=fs%1,path=%2,security_model=none,readonly=on")
                        .arg(i)
                        .arg(escapeOption(spec.emptyShare));
        }
        if (i >= devices)
            continue;
        QString device = QStringLiteral("virtio-9p-%1,fsdev=fs%2,mount_tag=s%2").arg(bus).arg(i);
        if (!kvm && i >= kRootBusShares) {
            const int onBridge = int(i) - kRootBusShares;
            const int bridge = onBridge / kBridgeSlots;
            if (bridge >= bridges) {
                args << QStringLiteral("-device")
                     << QStringLiteral("pci-bridge,id=bridge%1,chassis_nr=%2").arg(bridge).arg(bridge + 1);
                ++bridges;
            }
            // QEMU reads a PCI slot number as hexadecimal.
            device += QStringLiteral(",bus=bridge%1,addr=0x%2").arg(bridge).arg(onBridge % kBridgeSlots + 1, 0, 16);
        }
        args << QStringLiteral("-device") << device;
    }
    return Command{ m_program, args };
}

Availability QemuDriver::userNetworkSupport() const
{
    const Availability network = UserNetwork::availability();
    return network.available ? availability() : network;
}

Availability QemuDriver::shareAttachSupport(const VmSpec &spec, Acceleration acceleration) const
{
    if (acceleration == Acceleration::Hardware)
        return { false, tr("the microvm machine (KVM) cannot hot-add share devices") };
    const qsizetype most = spec.shareSlots + hotplugCapacity(spec.shareSlots);
    if (spec.shares.size() > most)
        return { false,
                 tr("%1 shares are more than the %2 a restored VM can be given").arg(spec.shares.size()).arg(most) };
    if (spec.monitorSocket.isEmpty())
        return { false, tr("the VM has no monitor to add share devices through") };
    return availability();
}

Status QemuDriver::addShareDevices(QmpClient &monitor, const VmSpec &spec)
{
    for (qsizetype i = spec.shareSlots; i < spec.shares.size(); ++i) {
        const Result<QJsonObject> added
            = monitor.execute(QStringLiteral("device_add"),
                              { { QStringLiteral("driver"), QStringLiteral("virtio-9p-pci") },
                                { QStringLiteral("id"), QStringLiteral("share%1").arg(i) },
                                { QStringLiteral("fsdev"), QStringLiteral("fs%1").arg(i) },
                                { QStringLiteral("mount_tag"), QStringLiteral("s%1").arg(i) } });
        if (!added.ok())
            return Error{ kShareDevicesWhere,
                          tr("QEMU did not add the device of share s%1 (%2): %3")
                              .arg(i)
                              .arg(spec.shares.at(i).hostPath, added.error().message),
                          {} };
    }
    return Status::success();
}

Status QemuDriver::saveBaseline(const VmSpec &spec, int artifactFd) const
{
    QmpClient monitor(spec.monitorSocket);
    if (const Status opened = monitor.open(kMonitorTimeoutMs); !opened)
        return opened;
    Result<QJsonObject> answer = monitor.execute(QStringLiteral("stop"));
    if (!answer.ok())
        return answer.error();
    // The default rate limit (32 MiB/s) is for live migration over a network, not a file.
    answer = monitor.execute(QStringLiteral("migrate-set-parameters"),
                             { { QStringLiteral("max-bandwidth"), double(qint64(1) << 40) } });
    if (answer.ok())
        answer
            = monitor.execute(QStringLiteral("getfd"), { { QStringLiteral("fdname"), kArtifactFdName } }, artifactFd);
    if (answer.ok())
        answer = monitor.execute(QStringLiteral("migrate"),
                                 { { QStringLiteral("uri"), QString(QStringLiteral("fd:") + kArtifactFdName) } });
    QString status;
    QElapsedTimer clock;
    clock.start();
    while (answer.ok()) {
        answer = monitor.execute(QStringLiteral("query-migrate"));
        if (!answer.ok())
            break;
        status = answer.value().value(QStringLiteral("status")).toString();
        if (status == QLatin1String("completed") || status == QLatin1String("failed")
            || status == QLatin1String("cancelled") || clock.elapsed() > kMigrationTimeoutMs)
            break;
        QThread::msleep(5);
    }
    const Error failed = answer.ok() ? Error{} : answer.error();
    const QString reason = answer.ok() ? answer.value().value(QStringLiteral("error-desc")).toString() : QString();
    // The VM goes on in every case: a baseline that could not be written costs only itself.
    const Result<QJsonObject> resumed = monitor.execute(QStringLiteral("cont"));
    if (!answer.ok())
        return failed;
    if (status != QLatin1String("completed"))
        return Error{ QStringLiteral("builtin:vm.driver"),
                      tr("QEMU did not save the VM state (migration %1%2)")
                          .arg(status.isEmpty() ? tr("timed out") : status,
                               reason.isEmpty() ? QString() : QStringLiteral(": ") + reason),
                      {} };
    if (!resumed.ok())
        return resumed.error();
    return Status::success();
}

Status QemuDriver::restoreBaseline(const VmSpec &spec, int artifactFd) const
{
    QmpClient monitor(spec.monitorSocket);
    if (const Status opened = monitor.open(kMonitorTimeoutMs); !opened)
        return opened;
    Result<QJsonObject> answer
        = monitor.execute(QStringLiteral("getfd"), { { QStringLiteral("fdname"), kArtifactFdName } }, artifactFd);
    if (answer.ok())
        answer = monitor.execute(QStringLiteral("migrate-incoming"),
                                 { { QStringLiteral("uri"), QString(QStringLiteral("fd:") + kArtifactFdName) } });
    QElapsedTimer clock;
    clock.start();
    // "inmigrate" while loading; "paused" (-S) once the state is in; QEMU exits when it cannot load it.
    while (answer.ok()) {
        answer = monitor.execute(QStringLiteral("query-status"));
        if (!answer.ok())
            break;
        const QString status = answer.value().value(QStringLiteral("status")).toString();
        if (status == QLatin1String("paused"))
            break;
        if (status != QLatin1String("inmigrate") || clock.elapsed() > kMigrationTimeoutMs)
            return Error{ QStringLiteral("builtin:vm.driver"),
                          tr("QEMU did not load the saved state (status %1)").arg(status),
                          {} };
        QThread::msleep(2);
    }
    if (!answer.ok())
        return answer.error();
    // While the guest is still paused: it sees every device at once when it runs (one ACPI
    // hotplug event, or its own rescan), not one after the other.
    if (spec.sharesAttachedLater) {
        if (const Status added = addShareDevices(monitor, spec); !added)
            return added;
    }
    answer = monitor.execute(QStringLiteral("cont"));
    if (!answer.ok())
        return answer.error();
    return Status::success();
}

} // namespace sandbox
