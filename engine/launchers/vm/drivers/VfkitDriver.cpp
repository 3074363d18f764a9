#include "VfkitDriver.h"

#include "GuestProtocol.h"

#include <QCoreApplication>
#include <QStandardPaths>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::VfkitDriver", text);
}

} // namespace

VfkitDriver::VfkitDriver(QString program)
    : m_program(program.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("vfkit")) : std::move(program))
{ }

Availability VfkitDriver::availability() const
{
#ifndef Q_OS_MACOS
    return { false, tr("vfkit drives Apple's Virtualization framework and runs on macOS only") };
#else
    if (m_program.isEmpty())
        return { false, tr("vfkit was not found on PATH (brew install vfkit)") };
    return { true, QString() };
#endif
}

QString VfkitDriver::restSocket(const VmSpec &spec)
{
    return spec.runDirectory + QStringLiteral("/rest");
}

Result<VmDriver::Command> VfkitDriver::bootCommand(const VmSpec &spec, Acceleration) const
{
    if (!spec.proxySocket.isEmpty())
        return Error{ QStringLiteral("builtin:vm.network"),
                      tr("the vfkit driver does not carry the guest's network forwarder yet, so network allowlist is "
                         "not enforced with it; nothing was run"),
                      {} };
    if (spec.kernel.contains(QLatin1Char(',')) || spec.initramfs.contains(QLatin1Char(','))
        || spec.kernelCommandLine.contains(QLatin1Char('"')))
        return Error{ QStringLiteral("builtin:vm.driver"),
                      tr("vfkit cannot be given a kernel or initramfs path with a comma, or a command line with a "
                         "double quote"),
                      {} };
    QStringList args;
    args << QStringLiteral("--cpus") << QString::number(spec.cpus) << QStringLiteral("--memory")
         << QString::number(spec.memoryMb);
    args << QStringLiteral("--bootloader")
         << QStringLiteral("linux,kernel=%1,initrd=%2,cmdline=\"%3\"")
                .arg(spec.kernel, spec.initramfs,
                     spec.kernelCommandLine + QStringLiteral(" sandbox.channel=vsock sandbox.fs=virtiofs"));
    args << QStringLiteral("--device") << QStringLiteral("virtio-serial,logFilePath=%1").arg(spec.consoleLog);
    args << QStringLiteral("--device")
         << QStringLiteral("virtio-vsock,port=%1,socketURL=%2,listen").arg(guest::kVsockPort).arg(spec.agentSocket);
    for (qsizetype i = 0; i < spec.shares.size(); ++i) {
        const GuestLayout::Share &share = spec.shares.at(i);
        if (!share.writable)
            continue; // no read-only virtio-fs in vfkit: never share what the guest could write
        if (share.hostPath.contains(QLatin1Char(',')))
            return Error{ QStringLiteral("builtin:vm.driver"),
                          tr("vfkit cannot share %1: its path contains a comma").arg(share.hostPath),
                          {} };
        args << QStringLiteral("--device")
             << QStringLiteral("virtio-fs,sharedDir=%1,mountTag=s%2").arg(share.hostPath).arg(i);
    }
    args << QStringLiteral("--restful-uri") << QStringLiteral("unix://") + restSocket(spec);
    return Command{ m_program.isEmpty() ? QStringLiteral("vfkit") : m_program, args };
}

Availability VfkitDriver::baselineSupport() const
{
    return { false, tr("vfkit cannot save a running VM or start one from a saved state; every VM cold boots") };
}

Status VfkitDriver::saveBaseline(const VmSpec &, int) const
{
    return Error{ QStringLiteral("builtin:vm.driver"), baselineSupport().reason, {} };
}

Status VfkitDriver::restoreBaseline(const VmSpec &, int) const
{
    return Error{ QStringLiteral("builtin:vm.driver"), baselineSupport().reason, {} };
}

} // namespace sandbox
