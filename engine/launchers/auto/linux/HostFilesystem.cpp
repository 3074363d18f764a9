#include "HostFilesystem.h"

#include "FilesystemReads.h"
#include "protocol/Policy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

namespace sandbox {

namespace {

void appendUnique(QStringList &list, const QString &value)
{
    if (!value.isEmpty() && !list.contains(value))
        list.append(value);
}

// /proc/self/mountinfo escapes blanks and backslashes as \ooo.
QString unescapeMountField(const QByteArray &field)
{
    QByteArray out;
    for (qsizetype i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            bool ok = false;
            const int value = field.mid(i + 1, 3).toInt(&ok, 8);
            if (ok) {
                out += char(value);
                i += 3;
                continue;
            }
        }
        out += field[i];
    }
    return QString::fromLocal8Bit(out);
}

// Plain readdir with d_type: this runs on every tier 1 spawn, so no QFileInfo per entry.
void scanSockets(const QByteArray &directory, int levels, QStringList &out, FilesystemReads *reads)
{
    if (levels < 0)
        return;
    noteListed(reads, QFile::decodeName(directory));
    DIR *dir = opendir(directory.constData());
    if (!dir)
        return;
    while (const dirent *entry = readdir(dir)) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        const QByteArray path = directory + '/' + name;
        unsigned char type = entry->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st = {};
            if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            type = S_ISSOCK(st.st_mode) ? DT_SOCK : S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
        }
        if (type == DT_SOCK)
            appendUnique(out, QFile::decodeName(path));
        else if (type == DT_DIR)
            scanSockets(path, levels - 1, out, reads);
    }
    closedir(dir);
}

} // namespace

QList<HostFilesystem::MountInfo> HostFilesystem::mounts()
{
    QList<MountInfo> mounts;
    QFile file(QStringLiteral("/proc/self/mountinfo"));
    if (!file.open(QIODevice::ReadOnly))
        return mounts;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() < 5)
            continue;
        mounts.append({ QString::fromLatin1(fields[2]), unescapeMountField(fields[3]), unescapeMountField(fields[4]) });
    }
    return mounts;
}

QStringList HostFilesystem::aliasesOf(const QString &path, const QList<MountInfo> &mounts)
{
    QStringList aliases{ path };
    const MountInfo *owner = nullptr;
    for (const MountInfo &mount : mounts) {
        if (Policy::isInside(path, mount.mountPoint) && (!owner || mount.mountPoint.size() >= owner->mountPoint.size()))
            owner = &mount;
    }
    if (!owner)
        return aliases;
    const QString relative = path.mid(owner->mountPoint == QLatin1String("/") ? 0 : owner->mountPoint.size());
    const QString inFilesystem = QDir::cleanPath(owner->root + QLatin1Char('/') + relative);
    for (const MountInfo &mount : mounts) {
        if (mount.device != owner->device || !Policy::isInside(inFilesystem, mount.root))
            continue;
        const QString rest = inFilesystem.mid(mount.root == QLatin1String("/") ? 0 : mount.root.size());
        appendUnique(aliases, QDir::cleanPath(mount.mountPoint + QLatin1Char('/') + rest));
    }
    return aliases;
}

QStringList HostFilesystem::expandComponents(const QString &path, FilesystemReads *reads)
{
    if (!path.contains(QLatin1Char('*')))
        return { path };
    QStringList done{ QStringLiteral("/") };
    const QStringList components = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &component : components) {
        QStringList next;
        for (const QString &base : done) {
            const QString prefix = base == QLatin1String("/") ? QString() : base;
            if (component != QLatin1String("*")) {
                next.append(prefix + QLatin1Char('/') + component);
                continue;
            }
            noteListed(reads, base);
            const QStringList names
                = QDir(base).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
            for (const QString &name : names)
                next.append(prefix + QLatin1Char('/') + name);
        }
        done = next;
    }
    return done;
}

QString HostFilesystem::resolveEvenIfMissing(const QString &path, FilesystemReads *reads)
{
    noteResolved(reads, QDir::cleanPath(path));
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (!canonical.isEmpty())
        return canonical;
    QString ancestor = QDir::cleanPath(path);
    QString rest;
    while (ancestor != QLatin1String("/") && !QFileInfo::exists(ancestor)) {
        rest = QLatin1Char('/') + QFileInfo(ancestor).fileName() + rest;
        ancestor = QFileInfo(ancestor).path();
    }
    const QString base = QFileInfo(ancestor).canonicalFilePath();
    if (base.isEmpty())
        return QDir::cleanPath(path);
    return QDir::cleanPath((base == QLatin1String("/") ? QString() : base) + rest);
}

QStringList HostFilesystem::hostExecutionChannels(const QProcessEnvironment &environment, bool includeTmp,
                                                  FilesystemReads *reads)
{
    auto canonical = [reads](const QString &path) {
        noteResolved(reads, path);
        return QFileInfo(path).canonicalFilePath();
    };
    QStringList channels;
    const QString runtime = environment.value(QStringLiteral("XDG_RUNTIME_DIR"));
    if (!runtime.isEmpty())
        appendUnique(channels, canonical(runtime));
    appendUnique(channels, canonical(QStringLiteral("/run/user")));
    const QString bus = environment.value(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    for (const QString &address : bus.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        if (!address.startsWith(QLatin1String("unix:")))
            continue;
        for (const QString &pair : address.mid(5).split(QLatin1Char(','))) {
            if (pair.startsWith(QLatin1String("path=")))
                appendUnique(channels, canonical(pair.mid(5)));
        }
    }
    for (const char *variable : { "SSH_AUTH_SOCK", "GPG_AGENT_INFO" }) {
        const QString value = environment.value(QString::fromLatin1(variable)).section(QLatin1Char(':'), 0, 0);
        if (!value.isEmpty())
            appendUnique(channels, canonical(value));
    }
    // Service managers, message buses, container engines and agents all listen on unix
    // sockets below /run (and /var/run, usually the same directory).
    QStringList scanned;
    for (const char *root : { "/run", "/var/run" }) {
        const QString directory = canonical(QString::fromLatin1(root));
        if (directory.isEmpty() || scanned.contains(directory))
            continue;
        scanned.append(directory);
        scanSockets(QFile::encodeName(directory), 4, channels, reads);
    }
    if (includeTmp)
        scanSockets(QByteArrayLiteral("/tmp"), 2, channels, reads);
    channels.removeAll(QString());
    return channels;
}

QStringList HostFilesystem::runtimeDirectories(const QProcessEnvironment &environment, FilesystemReads *reads)
{
    QStringList directories;
    const QString runtime = environment.value(QStringLiteral("XDG_RUNTIME_DIR"));
    if (!runtime.isEmpty()) {
        noteResolved(reads, runtime);
        appendUnique(directories, QFileInfo(runtime).canonicalFilePath());
    }
    noteResolved(reads, QStringLiteral("/run/user"));
    appendUnique(directories, QFileInfo(QStringLiteral("/run/user")).canonicalFilePath());
    directories.removeAll(QString());
    return directories;
}

} // namespace sandbox
