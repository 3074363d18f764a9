#include "QemuDriver.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>

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
    // Network none: no NIC at all.
    args << QStringLiteral("-nic") << QStringLiteral("none");
    args << QStringLiteral("-kernel") << spec.kernel << QStringLiteral("-initrd") << spec.initramfs
         << QStringLiteral("-append") << spec.kernelCommandLine;
    args << QStringLiteral("-serial") << QStringLiteral("file:") + spec.consoleLog;
    args << QStringLiteral("-chardev")
         << QStringLiteral("socket,id=agent,path=%1,server=on,wait=on").arg(escapeOption(spec.agentSocket));
    args << QStringLiteral("-device") << QStringLiteral("virtio-serial-%1").arg(bus) << QStringLiteral("-device")
         << QStringLiteral("virtserialport,chardev=agent,name=sandbox.agent");
    int bridges = 0;
    for (qsizetype i = 0; i < spec.shares.size(); ++i) {
        const GuestLayout::Share &share = spec.shares.at(i);
        args << QStringLiteral("-fsdev")
             << QStringLiteral("local,id=fs%1,path=%2,security_model=none%3")
                    .arg(i)
                    .arg(escapeOption(share.hostPath), share.writable ? QString() : QStringLiteral(",readonly=on"));
        QString device = QStringLiteral("virtio-9p-%1,fsdev=fs%2,mount_tag=s%2").arg(bus).arg(i);
        if (!kvm && i >= kRootBusShares) {
            const int onBridge = int(i) - kRootBusShares;
            const int bridge = onBridge / kBridgeSlots;
            if (bridge >= bridges) {
                args << QStringLiteral("-device")
                     << QStringLiteral("pci-bridge,id=bridge%1,chassis_nr=%2").arg(bridge).arg(bridge + 1);
                ++bridges;
            }
            device += QStringLiteral(",bus=bridge%1,addr=%2").arg(bridge).arg(onBridge % kBridgeSlots + 1);
        }
        args << QStringLiteral("-device") << device;
    }
    return Command{ m_program, args };
}

} // namespace sandbox
