#include "ContainerSpec.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace sandbox::power {

namespace {

QString expand(const QString &path, const QString &workspace)
{
    QString expanded = path;
    if (expanded == QLatin1String("~"))
        expanded = QDir::homePath();
    else if (expanded.startsWith(QLatin1String("~/")))
        expanded = QDir::homePath() + expanded.mid(1);
    expanded.replace(QStringLiteral("${workspace}"), workspace);
    return QDir::cleanPath(expanded);
}

// The existing paths a denied entry names: a "*" component matches any one name.
QStringList expandComponents(const QString &path)
{
    if (!path.contains(QLatin1Char('*')))
        return { path };
    QStringList matches{ QStringLiteral("/") };
    for (const QString &component : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        QStringList next;
        for (const QString &base : std::as_const(matches)) {
            if (component != QLatin1String("*")) {
                next.append(QDir(base).filePath(component));
                continue;
            }
            const QStringList names
                = QDir(base).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
            for (const QString &name : names)
                next.append(QDir(base).filePath(name));
        }
        matches = next;
    }
    return matches;
}

bool isWithin(const QString &path, const QString &folder)
{
    return path == folder || folder == QLatin1String("/") || path.startsWith(folder + QLatin1Char('/'));
}

// Docker's bind syntax separates with ':'; such a path cannot be mounted faithfully.
bool mountable(const QString &path)
{
    return !path.contains(QLatin1Char(':')) && !path.contains(QLatin1Char(','));
}

} // namespace

Result<ContainerSpec> ContainerSpec::build(const DockerSettings &settings, const Policy &policy,
                                           const QString &workspace, uint uid, uint gid, const QString &emptyFolder)
{
    if (policy.network == Policy::NetworkMode::Allowlist)
        return Error{ QStringLiteral("policy.network"),
                      tr("The Docker backend does not enforce an allowed-domains list, so it runs nothing under the "
                         "allowlist network mode. Choose network none or full, or use the built-in auto backend."),
                      {} };
    ContainerSpec spec;
    spec.m_image = settings.image;
    spec.m_workspace = QDir::cleanPath(workspace);
    spec.m_user = QStringLiteral("%1:%2").arg(uid).arg(gid);
    spec.m_network = policy.network == Policy::NetworkMode::Full;
    spec.m_memoryBytes = settings.memoryMb > 0 ? settings.memoryMb * 1024 * 1024 : 0;
    spec.m_nanoCpus = settings.cpus > 0 ? qint64(settings.cpus * 1e9) : 0;
    spec.m_pidsLimit = settings.pidsLimit;

    QStringList denied;
    for (const QString &path : policy.denied)
        denied += expandComponents(expand(path, spec.m_workspace));

    QStringList masked;
    QStringList writable;
    for (const QString &path : policy.writable) {
        const QString expanded = expand(path, spec.m_workspace);
        if (expanded == QLatin1String("/tmp"))
            continue; // the container's own private /tmp
        if (expanded == spec.m_workspace || QFileInfo(expanded).isDir())
            writable.append(expanded);
    }
    if (!writable.contains(spec.m_workspace))
        writable.prepend(spec.m_workspace);

    for (const QString &mount : std::as_const(writable)) {
        if (!mountable(mount))
            return Error{ mount,
                          tr("The path %1 contains ':' or ',' and cannot be mounted into a container.").arg(mount),
                          {} };
        for (const QString &deny : std::as_const(denied)) {
            if (isWithin(mount, deny))
                return Error{
                    mount,
                    tr("%1 lies inside the denied path %2, so it is never mounted into a container.").arg(mount, deny),
                    {}
                };
            if (!isWithin(deny, mount) || !QFileInfo::exists(deny))
                continue;
            if (!QFileInfo(deny).isDir() || !mountable(deny))
                return Error{ deny,
                              tr("The denied path %1 is inside %2, which would be mounted; the Docker backend can "
                                 "hide denied folders there but not files. Run the command from another folder.")
                                  .arg(deny, mount),
                              {} };
            masked.append(deny);
        }
        spec.m_binds.append(mount + QLatin1Char(':') + mount + QStringLiteral(":rw"));
    }
    for (const QString &path : policy.readOnly) {
        const QString expanded = expand(path, spec.m_workspace);
        if (!QFileInfo::exists(expanded) || !mountable(expanded))
            continue;
        bool inside = false;
        for (const QString &mount : std::as_const(writable))
            inside = inside || isWithin(expanded, mount);
        if (inside)
            spec.m_binds.append(expanded + QLatin1Char(':') + expanded + QStringLiteral(":ro"));
    }
    if (!masked.isEmpty() && (!QDir(emptyFolder).isEmpty() || !mountable(emptyFolder)))
        return Error{ emptyFolder, tr("The folder %1 that covers denied folders is not empty.").arg(emptyFolder), {} };
    masked.removeDuplicates();
    for (const QString &folder : std::as_const(masked))
        spec.m_binds.append(emptyFolder + QLatin1Char(':') + folder + QStringLiteral(":ro"));
    return spec;
}

QString ContainerSpec::key() const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QJsonDocument(createBody({})).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(hash.result().toHex().left(24));
}

QJsonObject ContainerSpec::createBody(const QJsonObject &labels) const
{
    const QJsonObject tmpfs{ { QStringLiteral("/tmp"), QStringLiteral("rw,nosuid,nodev,mode=1777") } };
    QJsonObject host{ { QStringLiteral("Binds"), QJsonArray::fromStringList(m_binds) },
                      { QStringLiteral("Tmpfs"), tmpfs },
                      { QStringLiteral("ReadonlyRootfs"), true },
                      { QStringLiteral("CapDrop"), QJsonArray{ QStringLiteral("ALL") } },
                      { QStringLiteral("SecurityOpt"), QJsonArray{ QStringLiteral("no-new-privileges") } },
                      { QStringLiteral("NetworkMode"), m_network ? QStringLiteral("bridge") : QStringLiteral("none") },
                      { QStringLiteral("IpcMode"), QStringLiteral("private") } };
    if (m_pidsLimit > 0)
        host.insert(QStringLiteral("PidsLimit"), m_pidsLimit);
    if (m_memoryBytes > 0)
        host.insert(QStringLiteral("Memory"), m_memoryBytes);
    if (m_nanoCpus > 0)
        host.insert(QStringLiteral("NanoCpus"), m_nanoCpus);
    QJsonObject body{ { QStringLiteral("Image"), m_image },
                      { QStringLiteral("Entrypoint"), QJsonArray{ QStringLiteral("sleep") } },
                      { QStringLiteral("Cmd"), QJsonArray{ QStringLiteral("2147483647") } },
                      { QStringLiteral("User"), m_user },
                      { QStringLiteral("WorkingDir"), m_workspace },
                      { QStringLiteral("NetworkDisabled"), !m_network },
                      { QStringLiteral("HostConfig"), host } };
    if (!labels.isEmpty())
        body.insert(QStringLiteral("Labels"), labels);
    return body;
}

} // namespace sandbox::power
