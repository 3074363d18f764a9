#include "FilesystemReads.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <climits>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace sandbox {

namespace {

constexpr int kMaxSymlinks = 40; // as the kernel's path walk

QString joined(const QString &directory, const QString &name)
{
    if (directory == QLatin1String("/"))
        return QLatin1Char('/') + name;
    return directory + QLatin1Char('/') + name;
}

QString parentOf(const QString &directory)
{
    const qsizetype slash = directory.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : directory.left(slash);
}

} // namespace

bool FilesystemReads::onLocalFilesystem(const QByteArray &directory)
{
    struct statfs fs = {};
    if (statfs(directory.constData(), &fs) != 0)
        return false;
    switch (static_cast<unsigned long>(fs.f_type)) {
    case EXT4_SUPER_MAGIC: // also ext2 and ext3
    case XFS_SUPER_MAGIC:
    case BTRFS_SUPER_MAGIC:
    case TMPFS_MAGIC:
    case OVERLAYFS_SUPER_MAGIC:
    case F2FS_SUPER_MAGIC:
    case RAMFS_MAGIC:
        return true;
    default:
        return false;
    }
}

void FilesystemReads::resolved(const QString &path)
{
    if (!path.startsWith(QLatin1Char('/'))) {
        m_unrepeatable = true;
        return;
    }
    // The walk the kernel makes: each component is looked up in the directory reached so
    // far; a symlink's target replaces it (from the root when absolute).
    QStringList pending = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString current = QStringLiteral("/");
    int links = 0;
    while (!pending.isEmpty()) {
        const QString name = pending.takeFirst();
        if (name == QLatin1String("."))
            continue;
        if (name == QLatin1String("..")) {
            current = parentOf(current);
            continue;
        }
        m_directories[current].names.insert(name);
        const QString next = joined(current, name);
        struct stat st = {};
        if (lstat(QFile::encodeName(next).constData(), &st) != 0)
            return; // the lookup failed here: an entry appearing in `current` is seen
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            const ssize_t length = readlink(QFile::encodeName(next).constData(), target, sizeof target);
            // Past where this walk can follow, a resolver may read further than was recorded.
            if (++links > kMaxSymlinks || length <= 0 || size_t(length) >= sizeof target) {
                m_unrepeatable = true;
                return;
            }
            const QString text = QFile::decodeName(QByteArray(target, length));
            if (text.startsWith(QLatin1Char('/')))
                current = QStringLiteral("/");
            pending = text.split(QLatin1Char('/'), Qt::SkipEmptyParts) + pending;
            continue;
        }
        if (!S_ISDIR(st.st_mode))
            return; // a file ends the walk, whatever follows it
        current = next;
    }
}

void FilesystemReads::listed(const QString &directory)
{
    resolved(directory);
    if (!directory.startsWith(QLatin1Char('/')))
        return;
    // Listed through its resolved path: that is the directory whose entries were read.
    const QString canonical = QFileInfo(directory).canonicalFilePath();
    if (!canonical.isEmpty())
        m_directories[canonical].listed = true;
}

} // namespace sandbox
