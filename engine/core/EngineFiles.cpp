#include "EngineFiles.h"

#include <QCoreApplication>
#include <QDir>
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

// A directory's names: as given (cleaned) and, where it differs, as the file system resolves it.
QStringList namesOf(const QString &directory)
{
    QStringList names{ QDir::cleanPath(directory) };
    const QString canonical = QFileInfo(directory).canonicalFilePath();
    if (!canonical.isEmpty() && !names.contains(canonical))
        names.append(canonical);
    return names;
}

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::EngineFiles", text);
}

} // namespace

void EngineFiles::keepReadOnly(Policy &policy, const QString &workspace, const QStringList &directories)
{
    for (const QString &directory : directories) {
        if (directory.isEmpty())
            continue;
        for (const QString &name : namesOf(directory)) {
            const bool reached
                = std::any_of(policy.writable.cbegin(), policy.writable.cend(), [&](const QString &path) {
                      return overlaps(QDir::cleanPath(expanded(path, workspace)), name);
                  });
            if (reached && !policy.readOnly.contains(name))
                policy.readOnly.append(name);
        }
    }
}

QStringList EngineFiles::gitUserConfiguration()
{
    const QString home = QDir::homePath();
    QStringList files{ QDir(home).filePath(QStringLiteral(".gitconfig")) };
    // Git ignores a relative XDG_CONFIG_HOME, as the XDG specification says.
    const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
    files.append(QDir(QDir::isAbsolutePath(xdg) ? xdg : QDir(home).filePath(QStringLiteral(".config")))
                     .filePath(QStringLiteral("git")));
    const QString global = qEnvironmentVariable("GIT_CONFIG_GLOBAL");
    if (QDir::isAbsolutePath(global))
        files.append(QDir::cleanPath(global));
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
