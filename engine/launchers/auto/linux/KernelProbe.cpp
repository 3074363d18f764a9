#include "KernelProbe.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>

namespace sandbox {

KernelProbe KernelProbe::run(const QString &initPath)
{
    KernelProbe probe;
    QProcess process;
    process.setProgram(initPath);
    process.setArguments({ QStringLiteral("--probe") });
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start();
    if (!process.waitForFinished(10000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        process.kill();
        probe.failure = QCoreApplication::translate("sandbox::KernelProbe", "%1 --probe failed: %2")
                            .arg(initPath,
                                 process.errorString() + QLatin1Char(' ')
                                     + QString::fromLocal8Bit(process.readAllStandardError()).trimmed());
        return probe;
    }
    probe.ran = true;
    QFile restriction(QStringLiteral("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"));
    if (restriction.open(QIODevice::ReadOnly))
        probe.appArmorRestrictsUserns = restriction.readAll().trimmed() == "1";
    const QStringList lines = QString::fromLocal8Bit(process.readAllStandardOutput()).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QString key = line.section(QLatin1Char(' '), 0, 0);
        const QString value = line.section(QLatin1Char(' '), 1);
        if (key == QLatin1String("landlock")) {
            probe.landlockAbi = value.toInt();
        } else if (key == QLatin1String("userns")) {
            probe.namespaces = value == QLatin1String("ok");
            if (!probe.namespaces)
                probe.namespacesError = value;
        } else if (key == QLatin1String("seccomp")) {
            probe.seccomp = value == QLatin1String("ok");
            if (!probe.seccomp)
                probe.seccompError = value;
        }
    }
    return probe;
}

} // namespace sandbox
