#include "EngineFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace sandbox {

namespace {

QString expanded(const QString &path, const QString &workspace)
{
    if (path.startsWith(QLatin1String("${workspace}")))
        return workspace + path.mid(int(qstrlen("${workspace}")));
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

bool overlaps(const QString &a, const QString &b)
{
    return Policy::isInside(a, b) || Policy::isInside(b, a);
}

// Where the kernel takes `path`: symbolic links followed, dangling ones too, a missing tail
// kept as written below the deepest directory that exists.
QString resolvedName(const QString &path)
{
    QString current = QDir::cleanPath(path);
    for (int links = 0; links < 40; ++links) {
        const QFileInfo info(current);
        if (info.exists())
            return info.canonicalFilePath();
        // The first link or missing name on the way, from the top.
        QString ancestor = current;
        QString rest;
        while (ancestor != QLatin1String("/") && !QFileInfo::exists(ancestor) && !QFileInfo(ancestor).isSymLink()) {
            rest.prepend(QLatin1Char('/') + QFileInfo(ancestor).fileName());
            ancestor = QFileInfo(ancestor).path();
        }
        if (!QFileInfo(ancestor).isSymLink() || QFileInfo::exists(ancestor)) {
            const QString base = QFileInfo(ancestor).canonicalFilePath();
            return base.isEmpty() ? current : QDir::cleanPath(base + rest);
        }
        // A dangling link: where it points, and the rest below that.
        const QString target = QFileInfo(ancestor).symLinkTarget();
        if (target.isEmpty())
            break;
        current = QDir::cleanPath(target + rest);
    }
    return current;
}

// A path's names: as given (cleaned) and, where it differs, where the file system takes it.
QStringList namesOf(const QString &path)
{
    QStringList names{ QDir::cleanPath(path) };
    const QString resolved = resolvedName(path);
    if (!resolved.isEmpty() && !names.contains(resolved))
        names.append(resolved);
    return names;
}

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::EngineFiles", text);
}

} // namespace

void EngineFiles::keepReadOnly(Policy &policy, const QString &workspace, const QStringList &directories)
{
    // Every writable path by either of its names (one named through a link), resolved once.
    QStringList writableNames;
    for (const QString &path : std::as_const(policy.writable))
        writableNames += namesOf(expanded(path, workspace));
    for (const QString &directory : directories) {
        if (directory.isEmpty())
            continue;
        for (const QString &name : namesOf(directory)) {
            const bool reached = std::any_of(writableNames.cbegin(), writableNames.cend(),
                                             [&](const QString &writable) { return overlaps(writable, name); });
            if (reached && !policy.readOnly.contains(name))
                policy.readOnly.append(name);
        }
    }
}

QStringList EngineFiles::gitUserConfiguration()
{
    const QString home = QDir::homePath();
    // ~/.config/git whatever XDG_CONFIG_HOME says here: git run elsewhere (an editor, another
    // shell) may read it. A relative XDG_CONFIG_HOME or GIT_CONFIG_GLOBAL names a place under
    // each working directory git runs in; what the engine cannot name, it cannot keep.
    QStringList files{ QDir(home).filePath(QStringLiteral(".gitconfig")),
                       QDir(home).filePath(QStringLiteral(".config/git")) };
    for (const char *variable : { "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL" }) {
        const QString value = qEnvironmentVariable(variable);
        if (!QDir::isAbsolutePath(value))
            continue;
        const QString file = variable[0] == 'X' ? QDir(value).filePath(QStringLiteral("git")) : value;
        if (!files.contains(QDir::cleanPath(file)))
            files.append(QDir::cleanPath(file));
    }
    // The files they include ([include] and [includeIf] path = ...), as git finds them, a few
    // levels deep: ~/.gitconfig.local is as much the user's configuration.
    for (qsizetype i = 0; i < files.size() && files.size() < 64; ++i) {
        QString file = files.at(i);
        if (QFileInfo(file).isDir())
            file = QDir(file).filePath(QStringLiteral("config"));
        QFile config(file);
        if (config.size() > 1024 * 1024 || !config.open(QIODevice::ReadOnly))
            continue;
        bool inInclude = false;
        for (const QByteArray &raw : config.readAll().split('\n')) {
            const QByteArray line = raw.trimmed();
            if (line.startsWith('[')) {
                const QByteArray section = line.mid(1).toLower();
                inInclude = section.startsWith("include]") || section.startsWith("includeif ")
                    || section.startsWith("includeif\"");
                continue;
            }
            const qsizetype equals = line.indexOf('=');
            if (!inInclude || equals < 0 || line.left(equals).trimmed().toLower() != "path")
                continue;
            QString included = QString::fromUtf8(line.mid(equals + 1).trimmed());
            if (included.size() >= 2 && included.startsWith(QLatin1Char('"')) && included.endsWith(QLatin1Char('"')))
                included = included.mid(1, included.size() - 2);
            if (included.startsWith(QLatin1String("~/")))
                included = home + included.mid(1);
            else if (!QDir::isAbsolutePath(included))
                included = QFileInfo(file).dir().filePath(included);
            if (!included.isEmpty() && !files.contains(QDir::cleanPath(included)))
                files.append(QDir::cleanPath(included));
        }
    }
    return files;
}

QString EngineFiles::certificateAuthorityDirectory(const QString &stateDirectory)
{
    return QDir(stateDirectory).filePath(QStringLiteral("credential-ca"));
}

void EngineFiles::keepUnreadable(Policy &policy, const QString &stateDirectory, const QString &configDirectory)
{
    // The plain secrets file (the user's opt-in instead of the keychain) holds the backends'
    // secrets and the credentials' values: denied whether or not it exists yet.
    if (!configDirectory.isEmpty()) {
        for (const QString &name : namesOf(QDir(configDirectory).filePath(QStringLiteral("secrets.json")))) {
            if (!policy.denied.contains(name))
                policy.denied.append(name);
        }
    }
    if (stateDirectory.isEmpty())
        return;
    const QString directory = certificateAuthorityDirectory(stateDirectory);
    if (!QFileInfo::exists(directory))
        return;
    for (const QString &name : namesOf(directory)) {
        if (!policy.denied.contains(name))
            policy.denied.append(name);
    }
}

std::optional<EngineFiles::Reach> EngineFiles::writableReach(const Policy &policy, const QString &workspace,
                                                             const QStringList &directories)
{
    for (const QString &path : policy.writable) {
        const QString writable = QDir::cleanPath(expanded(path, workspace));
        QStringList writableNames{ writable };
        const QString canonical = QFileInfo(writable).canonicalFilePath();
        if (!canonical.isEmpty() && canonical != writable)
            writableNames.append(canonical);
        for (const QString &directory : directories) {
            if (directory.isEmpty())
                continue;
            for (const QString &name : namesOf(directory)) {
                for (const QString &writableName : std::as_const(writableNames)) {
                    if (overlaps(writableName, name))
                        return Reach{ writable, QDir::cleanPath(directory) };
                }
            }
        }
    }
    return std::nullopt;
}

Status EngineFiles::refuseReach(const Policy &policy, const QString &workspace, const QStringList &directories)
{
    const std::optional<Reach> reach = writableReach(policy, workspace, directories);
    if (!reach)
        return Status::success();
    return Error{ QStringLiteral("policy.filesystem.writable"),
                  tr("The writable path %1 reaches the engine's directory %2, and this sandbox tier (Landlock + "
                     "seccomp, no namespaces) cannot keep that directory read-only inside a writable path: the "
                     "command could rewrite the engine's policy, settings or rendezvous points and loosen every "
                     "command after it, so nothing was run. Run the command from a project folder that does not "
                     "contain the engine's directories (not from the home directory), keep the engine's directories "
                     "out of the policy's writable paths, or use a system where the namespace tier is available.")
                      .arg(reach->writable, reach->directory),
                  {} };
}

} // namespace sandbox
