#include "GuestLayout.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::GuestLayout", text);
}

// The guest has its own of each: never the host's.
const QStringList kGuestOwn = { QStringLiteral("/proc"), QStringLiteral("/sys"), QStringLiteral("/dev"),
                                QStringLiteral("/run"), QStringLiteral("/tmp") };

QString expand(const QString &path, const QString &workspace, const QString &home)
{
    QString expanded = path;
    if (expanded == QLatin1String("~"))
        expanded = home;
    else if (expanded.startsWith(QLatin1String("~/")))
        expanded = home + expanded.mid(1);
    else if (expanded.startsWith(QLatin1String("${workspace}")))
        expanded = workspace + expanded.mid(int(qstrlen("${workspace}")));
    expanded = QDir::cleanPath(expanded);
    const QFileInfo info(expanded);
    if (info.exists() || info.isSymLink()) {
        const QString canonical = info.canonicalFilePath();
        if (!canonical.isEmpty())
            return canonical;
    }
    return expanded;
}

QString readLink(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    QByteArray target(4096, '\0');
    const ssize_t n = ::readlink(native.constData(), target.data(), size_t(target.size()));
    if (n <= 0)
        return {};
    target.truncate(int(n));
    return QFile::decodeName(target);
}

class LayoutBuilder
{
public:
    QStringList blockers; // denied paths and the guest's own directories
    QStringList denied;
    QStringList writableRoots;
    QStringList writablePaths; // the policy's writable paths (kept for the read-only pass)
    GuestLayout layout;
    QString problem;

    // Whether `path` stays out: inside a denied path, or inside one of the guest's own
    // directories unless it is writable or inside a writable path (a workspace under /tmp,
    // its subdirectories and the read-only paths on top of them are still shared; nothing
    // else there is).
    bool blocked(const QString &path, bool writable) const
    {
        const bool inWritable = writable
            || std::any_of(writablePaths.cbegin(), writablePaths.cend(),
                           [&](const QString &root) { return Policy::isInside(path, root); });
        return std::any_of(blockers.cbegin(), blockers.cend(), [&](const QString &blocker) {
            const bool guestOwn = kGuestOwn.contains(blocker) && !denied.contains(blocker);
            return Policy::isInside(path, blocker) && !(inWritable && guestOwn);
        });
    }

    void share(const QString &path, bool writable, int depth)
    {
        if (!problem.isEmpty())
            return;
        if (blocked(path, writable))
            return;
        if (!writable) {
            for (const QString &root : std::as_const(writableRoots)) {
                if (Policy::isInside(path, root))
                    return; // shared read-write already
            }
        }
        // The policy's own paths are followed through symlinks; a directory found by
        // splitting one is taken only as what its listing said, never through a symlink
        // swapped in since (symlinks there are recreated in the guest, not shared).
        const std::optional<GuestLayout::Share> looked = GuestLayout::lookAt(
            path, writable, depth == 0 ? GuestLayout::Follow::Symlinks : GuestLayout::Follow::None);
        if (!looked)
            return;
        const bool splits = std::any_of(blockers.cbegin(), blockers.cend(), [&](const QString &blocker) {
            return blocker != path && Policy::isInside(blocker, path);
        });
        if (!splits) {
            add(*looked);
            return;
        }
        if (depth > 32) {
            problem = tr("%1 is nested too deeply to be split around its denied paths").arg(path);
            return;
        }
        const QDir dir(path);
        const QFileInfoList entries
            = dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo &entry : entries) {
            const QString child = (path == QLatin1String("/") ? QString() : path) + QLatin1Char('/') + entry.fileName();
            if (blocked(child, writable))
                continue;
            if (entry.isSymLink()) {
                const QString target = readLink(child);
                if (!target.isEmpty())
                    addLink(child, target);
            } else if (entry.isDir()) {
                share(child, writable, depth + 1);
            }
        }
    }

    void add(const GuestLayout::Share &share)
    {
        for (GuestLayout::Share &existing : layout.shares) {
            if (existing.hostPath == share.hostPath) {
                // Read-only wins: a read-only path shared read-write elsewhere stays read-only.
                existing.writable = existing.writable && share.writable;
                return;
            }
        }
        layout.shares.append(share);
        if (layout.shares.size() > GuestLayout::kMaxShares) {
            problem = tr("the policy needs more than %1 shared directories (its denied paths split the readable "
                         "ones too finely); deny fewer paths inside readable ones, or make fewer paths readable")
                          .arg(GuestLayout::kMaxShares);
        }
    }

    void addLink(const QString &path, const QString &target)
    {
        for (const GuestLayout::Link &existing : std::as_const(layout.links)) {
            if (existing.path == path)
                return;
        }
        layout.links.append(GuestLayout::Link{ path, target });
    }
};

bool isPlainText(const QString &text)
{
    return !text.contains(QLatin1Char('\t')) && !text.contains(QLatin1Char('\n')) && !text.contains(QChar(0));
}

} // namespace

std::optional<GuestLayout::Share> GuestLayout::lookAt(const QString &path, bool writable, Follow follow, int directory)
{
    struct statx info = {};
    const bool relative = directory >= 0;
    const int flags = (relative ? AT_EMPTY_PATH : 0) | (follow == Follow::None ? AT_SYMLINK_NOFOLLOW : 0);
    if (::statx(relative ? directory : AT_FDCWD, relative ? "" : QFile::encodeName(path).constData(), flags,
                STATX_TYPE | STATX_INO | STATX_BTIME, &info)
            != 0
        || !S_ISDIR(info.stx_mode))
        return std::nullopt;
    Share share{ path, writable };
    share.device = quint64(makedev(info.stx_dev_major, info.stx_dev_minor));
    share.inode = info.stx_ino;
    if (info.stx_mask & STATX_BTIME)
        share.birth = quint64(info.stx_btime.tv_sec) * 1000000000u + info.stx_btime.tv_nsec;
    return share;
}

Result<GuestLayout> GuestLayout::fromPolicy(const Policy &policy, const QString &workspaceArgument, const QString &home)
{
    const QString where = QStringLiteral("builtin:vm.policy");
    const QString workspace = expand(workspaceArgument, workspaceArgument, home);
    if (!QDir::isAbsolutePath(workspace) || workspace == QLatin1String("/"))
        return Error{ where,
                      tr("the workspace must be an absolute directory other than / (got \"%1\")").arg(workspace),
                      {} };
    if (!QFileInfo(workspace).isDir())
        return Error{ where, tr("the workspace %1 is not a directory").arg(workspace), {} };

    LayoutBuilder builder;
    for (const QString &denied : policy.denied)
        builder.blockers.append(expand(denied, workspace, home));
    builder.denied = builder.blockers;
    for (const QString &denied : std::as_const(builder.denied)) {
        if (Policy::isInside(workspace, denied))
            return Error{ where, tr("the workspace %1 is inside the denied path %2").arg(workspace, denied), {} };
    }
    builder.blockers += kGuestOwn;
    // /tmp is the guest's own, private to it; a workspace under it is still shared.
    QStringList writable;
    for (const QString &entry : policy.writable) {
        const QString path = expand(entry, workspace, home);
        if (path == QLatin1String("/tmp"))
            continue;
        if (path == QLatin1String("/"))
            return Error{ where, tr("a writable / cannot be shared with a VM; name the writable directories"), {} };
        writable.append(path);
    }
    if (!writable.contains(workspace))
        writable.prepend(workspace);
    builder.writableRoots = writable;
    builder.writablePaths = writable;
    for (const QString &path : std::as_const(writable))
        builder.share(path, true, 0);
    // A readable path that is a symlink (/lib64 -> usr/lib64 on a merged-/usr host) is shared
    // as its target, and the link itself is recreated in the guest where no share holds it,
    // so programs that name the link (an ELF interpreter, say) find what it points to.
    QList<Link> namedLinks;
    // A policy entry as named, its symlinks not followed.
    const auto namedBy = [&](const QString &entry) {
        return QDir::cleanPath(
            entry.startsWith(QLatin1String("${workspace}"))
                ? workspace + entry.mid(int(qstrlen("${workspace}")))
                : (entry == QLatin1String("~") || entry.startsWith(QLatin1String("~/")) ? home + entry.mid(1) : entry));
    };
    for (const QString &entry : policy.readable) {
        const QString path = expand(entry, workspace, home);
        builder.share(path, false, 0);
        const QString named = namedBy(entry);
        if (named != path && QFileInfo(named).isSymLink() && !builder.blocked(named, false)) {
            const QString target = readLink(named);
            if (!target.isEmpty())
                namedLinks.append(Link{ named, target });
        }
    }
    // Read-only paths inside writable shares go on top, read-only.
    builder.writableRoots.clear();
    const auto insideWritable = [&](const QString &path) {
        return std::any_of(writable.cbegin(), writable.cend(),
                           [&](const QString &root) { return Policy::isInside(path, root); });
    };
    for (const QString &entry : policy.readOnly) {
        const QString path = expand(entry, workspace, home);
        const QString named = namedBy(entry);
        // Named through a symbolic link (a dotfile linked elsewhere): the gate gets the name
        // too, and keeps every link on the way from being replaced.
        if (named != path && !builder.layout.gateReadOnly.contains(named))
            builder.layout.gateReadOnly.append(named);
        if (!insideWritable(path))
            continue;
        const QFileInfo info(path);
        if (info.isDir() && !info.isSymLink())
            builder.share(path, false, 0);
        else if (!builder.layout.gateReadOnly.contains(path))
            builder.layout.gateReadOnly.append(path);
    }
    for (const Link &link : std::as_const(namedLinks)) {
        const bool shared
            = std::any_of(builder.layout.shares.cbegin(), builder.layout.shares.cend(),
                          [&](const Share &share) { return Policy::isInside(link.path, share.hostPath); });
        if (!shared)
            builder.addLink(link.path, link.target);
    }
    if (!builder.problem.isEmpty())
        return Error{ where, builder.problem, {} };
    // A read-only directory whose name the layout file cannot carry is left out (never shared);
    // a writable one is needed, so that is an error.
    for (const Share &share : std::as_const(builder.layout.shares)) {
        if (!isPlainText(share.hostPath) && share.writable)
            return Error{ where,
                          tr("the path %1 contains a tab or line break and cannot be shared").arg(share.hostPath),
                          {} };
    }
    builder.layout.shares.erase(std::remove_if(builder.layout.shares.begin(), builder.layout.shares.end(),
                                               [](const Share &share) { return !isPlainText(share.hostPath); }),
                                builder.layout.shares.end());
    builder.layout.links.erase(
        std::remove_if(builder.layout.links.begin(), builder.layout.links.end(),
                       [](const Link &link) { return !isPlainText(link.path) || !isPlainText(link.target); }),
        builder.layout.links.end());
    std::stable_sort(builder.layout.shares.begin(), builder.layout.shares.end(), [](const Share &a, const Share &b) {
        return a.hostPath.count(QLatin1Char('/')) < b.hostPath.count(QLatin1Char('/'));
    });
    return builder.layout;
}

QByteArray GuestLayout::layoutFile() const
{
    QByteArray file;
    for (qsizetype i = 0; i < shares.size(); ++i) {
        file += "mount\ts" + QByteArray::number(i) + '\t' + (shares[i].writable ? "rw" : "ro") + '\t'
            + shares[i].hostPath.toUtf8() + '\n';
    }
    for (const Link &link : links)
        file += "symlink\t" + link.target.toUtf8() + '\t' + link.path.toUtf8() + '\n';
    if (!caBundle.isEmpty()) {
        // Read-only over itself first: the commands (root in the guest) can change neither.
        file += QByteArray("bind\t") + kCaBundle + '\t' + kCaBundle + '\n';
        file += QByteArray("bind\t") + kCaBundle + '\t' + kSystemCaBundle + '\n';
    }
    return file;
}

bool GuestLayout::isServedBy(const GuestLayout &running) const
{
    if (proxied != running.proxied || userNetwork != running.userNetwork || allowedDomains != running.allowedDomains
        || deniedDomains != running.deniedDomains || credentials != running.credentials
        || extraCaCertificates != running.extraCaCertificates || upstreamProxy != running.upstreamProxy
        || caBundle != running.caBundle || sshAgent != running.sshAgent)
        return false;
    for (const Share &needed : shares) {
        if (needed.writable && !running.shares.contains(needed))
            return false;
    }
    for (const Share &given : running.shares) {
        const bool allowed = std::any_of(shares.cbegin(), shares.cend(), [&](const Share &share) {
            return Policy::isInside(given.hostPath, share.hostPath) && (share.writable || !given.writable);
        });
        if (!allowed)
            return false;
        // A read-only path on top of this one must stay read-only in the running VM too.
        for (const Share &share : shares) {
            if (!share.writable && Policy::isInside(share.hostPath, given.hostPath) && given.writable) {
                const bool covered = std::any_of(running.shares.cbegin(), running.shares.cend(), [&](const Share &r) {
                    return !r.writable && Policy::isInside(share.hostPath, r.hostPath);
                });
                if (!covered)
                    return false;
            }
        }
    }
    return true;
}

QString GuestLayout::key() const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(layoutFile());
    if (proxied || userNetwork) {
        // Domain entries hold no tab or line break (Policy::domainProblem).
        hash.addData(proxied ? QByteArrayView("\nnetwork\tproxy\nallowed")
                             : QByteArrayView("\nnetwork\tfull\nallowed"));
        for (const QString &domain : allowedDomains)
            hash.addData(QByteArray('\t' + domain.toUtf8()));
        hash.addData(QByteArrayView("\ndenied"));
        for (const QString &domain : deniedDomains)
            hash.addData(QByteArray('\t' + domain.toUtf8()));
    }
    if (sshAgent) {
        hash.addData(QByteArrayView("\nsshAgent\t"));
        hash.addData(QJsonDocument(sshAgent->toJson()).toJson(QJsonDocument::Compact));
    }
    if (!credentials.isEmpty() || !extraCaCertificates.isEmpty() || upstreamProxy) {
        // The proxy channel's other inputs, as the policy writes them (JSON strings cannot be
        // confused with one another), and the bundle the guest trusts (named by its content).
        QJsonArray listed;
        for (const PolicyCredential &credential : credentials)
            listed.append(credential.toJson());
        const QJsonObject channel{
            { QStringLiteral("credentials"), listed },
            { QStringLiteral("extraCaCertificates"), QJsonArray::fromStringList(extraCaCertificates) },
            { QStringLiteral("upstreamProxy"), upstreamProxy ? QJsonValue(upstreamProxy->toJson()) : QJsonValue() },
            { QStringLiteral("caBundle"), caBundle }
        };
        hash.addData(QByteArrayView("\nchannel\t"));
        hash.addData(QJsonDocument(channel).toJson(QJsonDocument::Compact));
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace sandbox
