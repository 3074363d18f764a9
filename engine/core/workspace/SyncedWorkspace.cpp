#include "core/workspace/SyncedWorkspace.h"

#include "core/workspace/RepositoryRules.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>

namespace sandbox {

namespace {

QString expanded(const QString &path, const QString &root)
{
    QString result = path;
    if (result.startsWith(QLatin1String("${workspace}")))
        result = root + result.mid(int(qstrlen("${workspace}")));
    else if (result.startsWith(QLatin1String("~/")))
        result = QDir::homePath() + result.mid(1);
    return QDir::cleanPath(result);
}

// `paths` that are the root or inside it, relative to it ("" for the root itself).
QStringList relativeInside(const QStringList &paths, const QString &root)
{
    QStringList inside;
    for (const QString &path : paths) {
        const QString clean = expanded(path, root);
        if (clean == root)
            inside.append(QString());
        else if (clean.startsWith(root + QLatin1Char('/')))
            inside.append(clean.mid(root.size() + 1));
    }
    return inside;
}

bool under(const QString &relative, const QStringList &prefixes)
{
    for (const QString &prefix : prefixes) {
        if (prefix.isEmpty() || relative == prefix || relative.startsWith(prefix + QLatin1Char('/')))
            return true;
    }
    return false;
}

} // namespace

// The directories the archive's files lie in, and the files themselves, to tell which
// directories would become git directories once the archive is written back.
class ArchiveLayout
{
public:
    explicit ArchiveLayout(const TarArchive &archive)
    {
        for (const TarArchive::Member &member : archive.files) {
            m_files.insert(member.path);
            for (qsizetype slash = member.path.indexOf(QLatin1Char('/')); slash >= 0;
                 slash = member.path.indexOf(QLatin1Char('/'), slash + 1))
                m_folders.insert(member.path.left(slash));
        }
    }
    bool hasFile(const QString &relative) const { return m_files.contains(relative); }
    bool hasFolder(const QString &relative) const { return m_folders.contains(relative); }

private:
    QSet<QString> m_files;
    QSet<QString> m_folders;
};

SyncedWorkspace::SyncedWorkspace(QString root, const Policy &policy)
    : m_root(QDir::cleanPath(std::move(root)))
    , m_excluded(relativeInside(policy.denied, m_root))
    , m_readOnly(relativeInside(policy.readOnly, m_root))
    , m_writable(relativeInside(policy.writable, m_root))
{ }

QStringList SyncedWorkspace::tarArguments() const
{
    QStringList arguments{ QStringLiteral("-c"), QStringLiteral("-f"), QStringLiteral("-") };
    for (const QString &path : m_excluded)
        arguments.append(QStringLiteral("--exclude=./") + path);
    arguments += { QStringLiteral("-C"), m_root, QStringLiteral(".") };
    return arguments;
}

bool SyncedWorkspace::isExcluded(const QString &relative) const
{
    return under(relative, m_excluded);
}

bool SyncedWorkspace::isWritable(const QString &relative) const
{
    return under(relative, m_writable) && !under(relative, m_readOnly) && !isExcluded(relative);
}

QString SyncedWorkspace::repositoryRefusal(const QString &relative, const ArchiveLayout &layout) const
{
    const auto hostPath
        = [this](const QString &path) { return path.isEmpty() ? m_root : m_root + QLatin1Char('/') + path; };
    const auto inside = [](const QString &directory, const char *name) {
        return directory.isEmpty() ? QString::fromLatin1(name) : directory + QLatin1Char('/') + QLatin1String(name);
    };
    // A directory of this computer's workspace is a git directory as it is now; one that is
    // not becomes one when the archive brings the HEAD, objects/ or commondir it lacks.
    const auto kind = [&](const std::string &directory) {
        const QString folder = QString::fromStdString(directory);
        if (repository::isGitDirectory(hostPath(folder).toStdString()))
            return repository::DirectoryKind::GitDirectory;
        const QFileInfo head(hostPath(inside(folder, "HEAD")));
        const QFileInfo objects(hostPath(inside(folder, "objects")));
        const QFileInfo commondir(hostPath(inside(folder, "commondir")));
        const bool hasHead = layout.hasFile(inside(folder, "HEAD")) || (head.exists() && !head.isDir());
        const bool hasObjects
            = layout.hasFolder(inside(folder, "objects")) || (objects.isDir() && !objects.isSymLink());
        const bool hasCommondir
            = layout.hasFile(inside(folder, "commondir")) || (commondir.exists() && !commondir.isDir());
        return hasHead && (hasObjects || hasCommondir) ? repository::DirectoryKind::NewGitDirectory
                                                       : repository::DirectoryKind::Ordinary;
    };
    // A command's rebase or sequencer state ends with it: none is brought back.
    const auto noState = [](const std::string &, const std::string &) { return false; };
    return QString::fromStdString(repository::refusal(m_root.toStdString(), relative.toStdString(), kind, noState));
}

SyncedWorkspace::Stamp SyncedWorkspace::stampOf(const QString &relative) const
{
    const QFileInfo info(m_root + QLatin1Char('/') + relative);
    if (!info.exists() && !info.isSymLink())
        return {};
    return Stamp{ info.isSymLink() ? -2 : info.size(), info.lastModified().toMSecsSinceEpoch() };
}

void SyncedWorkspace::snapshot()
{
    m_snapshot.clear();
    QDirIterator it(m_root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString relative = QDir(m_root).relativeFilePath(it.next());
        m_snapshot.insert(relative, stampOf(relative));
    }
}

bool SyncedWorkspace::setExecutable(const QString &relative, bool executable, QString *why) const
{
    const QString target = m_root + QLatin1Char('/') + relative;
    QFile file(target);
    QFileDevice::Permissions permissions = file.permissions();
    const QFileDevice::Permissions execute = QFileDevice::ExeOwner | QFileDevice::ExeUser
        | (permissions & QFileDevice::ReadGroup ? QFileDevice::ExeGroup : QFileDevice::Permissions())
        | (permissions & QFileDevice::ReadOther ? QFileDevice::ExeOther : QFileDevice::Permissions());
    permissions = executable
        ? permissions | execute
        : permissions & ~(QFileDevice::ExeOwner | QFileDevice::ExeUser | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    if (!file.setPermissions(permissions)) {
        *why = tr("cannot change the permissions of %1: %2").arg(target, file.errorString());
        return false;
    }
    return true;
}

bool SyncedWorkspace::write(const QString &relative, const QByteArray &data, QString *why) const
{
    // Every folder on the way must be a real folder of the workspace, never a link out.
    QString folder = m_root;
    const QStringList parts = relative.split(QLatin1Char('/'));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        folder += QLatin1Char('/') + parts.at(i);
        const QFileInfo info(folder);
        if (info.isSymLink() || (info.exists() && !info.isDir())) {
            *why = tr("%1 is not a folder of the workspace").arg(folder);
            return false;
        }
        if (!info.exists() && !QDir().mkdir(folder)) {
            *why = tr("cannot create the folder %1").arg(folder);
            return false;
        }
    }
    const QString target = m_root + QLatin1Char('/') + relative;
    const QFileInfo existing(target);
    if (existing.isSymLink() || existing.isDir()) {
        *why = tr("%1 is a link or a folder on this computer").arg(target);
        return false;
    }
    // A new file replaces the old one by rename: nothing is written through a link.
    QSaveFile file(target);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *why = tr("cannot write %1: %2").arg(target, file.errorString());
        return false;
    }
    return true;
}

SyncedWorkspace::Outcome SyncedWorkspace::apply(const TarArchive &archive) const
{
    Outcome outcome;
    outcome.refused = archive.skipped;
    // A link is never written; one the command made or changed is named, an unchanged one is not.
    for (const TarArchive::Link &link : archive.links) {
        if (isExcluded(link.path))
            continue;
        const QFileInfo host(m_root + QLatin1Char('/') + link.path);
        const QString target = link.target.startsWith(QLatin1Char('/'))
            ? QDir::cleanPath(link.target)
            : QDir::cleanPath(host.absolutePath() + QLatin1Char('/') + link.target);
        if (host.isSymLink() && host.symLinkTarget() == target)
            continue;
        outcome.refused.append(tr("%1 (a link, to %2; links are not brought back)").arg(link.path, link.target));
    }
    const ArchiveLayout layout(archive);
    for (const TarArchive::Member &member : archive.files) {
        if (isExcluded(member.path))
            continue;
        const QString target = m_root + QLatin1Char('/') + member.path;
        QFile current(target);
        const QFileInfo info(target);
        if (info.isFile() && !info.isSymLink() && current.open(QIODevice::ReadOnly)
            && current.size() == member.data.size() && current.readAll() == member.data) {
            // Same content: only a changed execute bit comes back.
            if (bool(info.permissions() & QFileDevice::ExeOwner) == member.executable)
                continue;
            if (repositoryRefusal(member.path, layout).isEmpty() && isWritable(member.path)
                && stampOf(member.path) == m_snapshot.value(member.path)) {
                QString why;
                if (setExecutable(member.path, member.executable, &why))
                    ++outcome.written;
                else
                    outcome.refused.append(why);
            } else {
                outcome.refused.append(
                    tr("%1 (its execute bit changed, and the policy, the repository rules or a change on this "
                       "computer keep it as it is here)")
                        .arg(member.path));
            }
            continue;
        }
        if (const QString why = repositoryRefusal(member.path, layout); !why.isEmpty()) {
            outcome.refused.append(tr("%1 (%2)").arg(member.path, why));
            continue;
        }
        if (!isWritable(member.path)) {
            outcome.refused.append(tr("%1 (the policy does not let commands write it)").arg(member.path));
            continue;
        }
        const Stamp before = m_snapshot.value(member.path);
        QString why;
        if (stampOf(member.path) == before) {
            if (write(member.path, member.data, &why) && setExecutable(member.path, member.executable, &why))
                ++outcome.written;
            else
                outcome.refused.append(why);
            continue;
        }
        const QString beside = member.path + QStringLiteral(".sandbox-conflict");
        if (const QString besideWhy = repositoryRefusal(beside, layout); !besideWhy.isEmpty()) {
            outcome.refused.append(
                tr("%1 (changed on this computer too, and %2: %3)").arg(member.path, beside, besideWhy));
            continue;
        }
        if (write(beside, member.data, &why) && setExecutable(beside, member.executable, &why))
            outcome.conflicts.append(member.path);
        else
            outcome.refused.append(why);
    }
    return outcome;
}

} // namespace sandbox
