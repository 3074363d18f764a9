#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sandbox {

class FilesystemReads;

// What a sandbox plan reads from the host's filesystem to resolve a policy: mounts, unix
// sockets, wildcard names, paths that do not exist yet. Each function tells `reads`, when
// given, every directory it looked into, so that a recorded plan knows when it went stale.
class HostFilesystem final
{
public:
    struct MountInfo
    {
        QString device;
        QString root;
        QString mountPoint;
    };

    // This process's mounts (/proc/self/mountinfo).
    static QList<MountInfo> mounts();

    // Every path under which the host shows the object at `path`: the same filesystem
    // subtree may be mounted at several places (bind mounts), and a denied path must be
    // hidden under each of them.
    static QStringList aliasesOf(const QString &path, const QList<MountInfo> &mounts);

    // `path` with each `*` component replaced by every existing name at that place (hidden
    // names included); a path without `*` is returned as it is.
    static QStringList expandComponents(const QString &path, FilesystemReads *reads);

    // The canonical path of `path`, or for a path that does not exist (yet), the canonical
    // path of its deepest existing ancestor followed by the missing components.
    static QString resolveEvenIfMissing(const QString &path, FilesystemReads *reads);

    // Every unix socket and runtime directory through which a sandboxed command could
    // make the host run something (session/system bus, service managers, container
    // engines, agents), found by scanning rather than by a list of product names.
    // `includeTmp`: also scan /tmp (not needed when the sandbox gets a private /tmp).
    static QStringList hostExecutionChannels(const QProcessEnvironment &environment, bool includeTmp = true,
                                             FilesystemReads *reads = nullptr);

    // The user's runtime directories ($XDG_RUNTIME_DIR, /run/user): tier 2 keeps them
    // unreadable, as tier 1 hides them.
    static QStringList runtimeDirectories(const QProcessEnvironment &environment, FilesystemReads *reads = nullptr);
};

} // namespace sandbox
