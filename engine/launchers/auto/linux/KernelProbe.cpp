#include "KernelProbe.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>

#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace sandbox {

namespace {

const QByteArray kCacheFormat = QByteArrayLiteral("sandbox-init probe 1");
const QByteArray kOutputMarker = QByteArrayLiteral("--");

QByteArray readSmallFile(const char *path)
{
    QFile file(QString::fromLatin1(path));
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("-");
    return file.read(256).trimmed();
}

bool readAppArmorRestriction()
{
    return readSmallFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1";
}

// A cache only this user could have written: a regular file of theirs that nobody else may
// write. Anyone else's answer (say, "no namespaces" to get the weaker tier chosen) is not
// believed; the kernel is probed instead.
bool isOwnersAlone(const QFile &file)
{
    struct stat st = {};
    return ::fstat(file.handle(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid()
        && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

} // namespace

KernelProbe KernelProbe::parse(const QByteArray &output, bool restrictsUserns)
{
    KernelProbe probe;
    probe.ran = true;
    probe.appArmorRestrictsUserns = restrictsUserns;
    const QStringList lines = QString::fromLocal8Bit(output).split(QLatin1Char('\n'));
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

KernelProbe KernelProbe::run(const QString &initPath)
{
    return cachedOrRun(initPath, QString());
}

QByteArray KernelProbe::conditions(const QString &initPath)
{
    struct stat st = {};
    if (initPath.isEmpty() || ::stat(QFile::encodeName(initPath).constData(), &st) != 0)
        return {};
    struct utsname names = {};
    if (::uname(&names) != 0)
        return {};
    QByteArray lines = kCacheFormat + '\n';
    lines += "helper " + QFile::encodeName(initPath) + ' ' + QByteArray::number(quint64(st.st_dev)) + ' '
        + QByteArray::number(quint64(st.st_ino)) + ' ' + QByteArray::number(qint64(st.st_size)) + ' '
        + QByteArray::number(qint64(st.st_mtim.tv_sec)) + '.' + QByteArray::number(qint64(st.st_mtim.tv_nsec)) + ' '
        + QByteArray::number(qint64(st.st_ctim.tv_sec)) + '.' + QByteArray::number(qint64(st.st_ctim.tv_nsec)) + '\n';
    lines += "kernel " + QByteArray(names.release) + ' ' + QByteArray(names.version) + '\n';
    lines += "boot " + readSmallFile("/proc/sys/kernel/random/boot_id") + '\n';
    // Whether (and for whom) user namespaces may be created can change without a reboot.
    for (const char *sysctl : { "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
                                "/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/user/max_user_namespaces",
                                "/proc/sys/user/max_mnt_namespaces", "/proc/sys/user/max_pid_namespaces",
                                "/proc/sys/user/max_net_namespaces", "/proc/sys/user/max_ipc_namespaces",
                                "/proc/sys/user/max_uts_namespaces", "/proc/sys/user/max_cgroup_namespaces" })
        lines += "sysctl " + QByteArray(sysctl) + ' ' + readSmallFile(sysctl) + '\n';
    // Under that AppArmor restriction, loading or removing the helper's profile decides.
    if (readAppArmorRestriction()) {
        QFile profiles(QStringLiteral("/sys/kernel/security/apparmor/profiles"));
        const QByteArray loaded = profiles.open(QIODevice::ReadOnly) ? profiles.readAll() : QByteArrayLiteral("-");
        lines += "apparmor " + QCryptographicHash::hash(loaded, QCryptographicHash::Sha256).toHex() + '\n';
    }
    lines += "user " + QByteArray::number(quint64(::geteuid())) + '\n';
    return lines;
}

std::optional<KernelProbe> KernelProbe::cached(const QString &initPath, const QString &cacheFile)
{
    const QByteArray expected = cacheFile.isEmpty() ? QByteArray() : conditions(initPath);
    QFile file(cacheFile);
    if (expected.isEmpty() || !file.open(QIODevice::ReadOnly) || !isOwnersAlone(file))
        return std::nullopt;
    const QByteArray content = file.read(64 * 1024);
    const QByteArray head = expected + kOutputMarker + '\n';
    if (!content.startsWith(head))
        return std::nullopt;
    KernelProbe probe = parse(content.mid(head.size()), readAppArmorRestriction());
    probe.fromCache = true;
    return probe;
}

KernelProbe KernelProbe::cachedOrRun(const QString &initPath, const QString &cacheFile)
{
    if (std::optional<KernelProbe> answer = cached(initPath, cacheFile))
        return *answer;
    const QByteArray expected = cacheFile.isEmpty() ? QByteArray() : conditions(initPath);
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
        return probe; // a failed probe is not remembered: the next start tries again
    }
    const QByteArray output = process.readAllStandardOutput();
    // Only what was measured under conditions still the same after the probe is kept.
    if (!expected.isEmpty() && conditions(initPath) == expected) {
        QDir().mkpath(QFileInfo(cacheFile).absolutePath());
        QSaveFile save(cacheFile);
        if (save.open(QIODevice::WriteOnly)) {
            save.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            save.write(expected + kOutputMarker + '\n' + output);
            save.commit();
        }
    }
    return parse(output, readAppArmorRestriction());
}

} // namespace sandbox
