#pragma once

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>

namespace sandbox {

// What a sandbox plan was built from in the filesystem: each directory in which a name
// was looked up while resolving a path (symlinks followed as the kernel follows them),
// with the names looked up, and each directory that was listed whole. A plan stays true
// while every name looked up leads to the same entry and every listed directory holds
// the same entries, and no mount changes.
class FilesystemReads final
{
public:
    // Records the lookups that resolving `path` (absolute) makes, following symlinks.
    // A relative path cannot be recorded: the reads become unrepeatable.
    void resolved(const QString &path);
    // Records that the entries of `directory` were read (and how it was found).
    void listed(const QString &directory);

    struct Consulted
    {
        QSet<QString> names; // looked up in the directory
        bool listed = false; // every entry was read
    };
    // By directory (resolved, absolute).
    const QHash<QString, Consulted> &directories() const { return m_directories; }
    // Whether `directory` lies on a local filesystem whose every change reaches inotify and
    // stamps a status change time (ext2-4, XFS, Btrfs, tmpfs, overlayfs, F2FS, ramfs): what
    // a network or FUSE filesystem shows may change unseen.
    static bool onLocalFilesystem(const QByteArray &directory);
    // Something was read that no directory watch can follow.
    bool unrepeatable() const { return m_unrepeatable; }

private:
    QHash<QString, Consulted> m_directories;
    bool m_unrepeatable = false;
};

// For what may read unrecorded: `reads` may be null.
inline void noteResolved(FilesystemReads *reads, const QString &path)
{
    if (reads)
        reads->resolved(path);
}

inline void noteListed(FilesystemReads *reads, const QString &directory)
{
    if (reads)
        reads->listed(directory);
}

} // namespace sandbox
