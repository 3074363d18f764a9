#include "ContainerSpec.h"

#include "SshEndpoint.h"
#include "core/workspace/RepositoryRules.h"

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

// Docker's bind syntax separates with ':'; such a path cannot be mounted faithfully.
bool mountable(const QString &path)
{
    return !path.contains(QLatin1Char(':')) && !path.contains(QLatin1Char(','));
}

// The existing control files (core/workspace/RepositoryRules.h) of the git directory `gitDirectory`
// and of the git directories below its modules/ and worktrees/, appended to `paths`.
// Links are left out: a bind mount would follow them.
void appendControlFiles(const QString &gitDirectory, QStringList &paths, int depth = 0)
{
    constexpr int maximumDepth = 16;
    if (depth > maximumDepth)
        return;
    for (const std::string &entry : repository::controlEntries()) {
        const QString path = gitDirectory + QLatin1Char('/') + QString::fromStdString(entry);
        const QFileInfo info(path);
        if (info.exists() && !info.isSymLink())
            paths.append(path);
    }
    for (const std::string &folder : repository::nestedGitDirectoryFolders()) {
        QStringList pending{ gitDirectory + QLatin1Char('/') + QString::fromStdString(folder) };
        while (!pending.isEmpty()) {
            const QString directory = pending.takeFirst();
            const QFileInfo info(directory);
            if (!info.isDir() || info.isSymLink())
                continue;
            if (repository::isGitDirectory(directory.toStdString())) {
                appendControlFiles(directory, paths, depth + 1);
                continue;
            }
            const QStringList names = QDir(directory).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
            for (const QString &name : names)
                pending.append(directory + QLatin1Char('/') + name);
        }
    }
}

} // namespace

void ContainerSpec::setBasics(const DockerSettings &settings, const Policy &policy, const QString &workspace, uint uid,
                              uint gid)
{
    m_image = settings.image;
    m_runtime = settings.runtime;
    m_workspace = QDir::cleanPath(workspace);
    m_user = QStringLiteral("%1:%2").arg(uid).arg(gid);
    m_network = policy.network == Policy::NetworkMode::Full;
    m_memoryBytes = settings.memoryMb > 0 ? settings.memoryMb * 1024 * 1024 : 0;
    m_nanoCpus = settings.cpus > 0 ? qint64(settings.cpus * 1e9) : 0;
    m_pidsLimit = settings.pidsLimit;
}

Result<ContainerSpec> ContainerSpec::build(const DockerSettings &settings, const Policy &policy,
                                           const QString &workspace, uint uid, uint gid, const QString &emptyFolder,
                                           const QString &helperProgram)
{
    ContainerSpec spec;
    // Every command runs under the helper's write gate: without it nothing runs.
    if (helperProgram.isEmpty() || !QFileInfo(helperProgram).isExecutable())
        return Error{ QStringLiteral("sandbox-init"),
                      tr("The engine's helper (sandbox-init) was not found, so no command runs under the write gate "
                         "that keeps repositories' control files as they are. Reinstall Sandbox Studio."),
                      {} };
    if (!mountable(helperProgram))
        return Error{ helperProgram,
                      tr("The path %1 contains ':' or ',' and cannot be mounted into a container.").arg(helperProgram),
                      {} };
    spec.m_helperProgram = helperProgram;
    // SSH goes only through the proxy, to the agent's hosts: without allowed domains it would
    // go straight anywhere (full) or nowhere (none).
    if (policy.sshAgent && !policy.sshAgent->hosts.isEmpty() && policy.network != Policy::NetworkMode::Allowlist)
        return Error{ QStringLiteral("policy.sshAgent.hosts"),
                      tr("SSH connections to the agent's hosts go through the filtering proxy, which serves the "
                         "network mode \"allowlist\" only; set that mode (with or without allowed domains). Nothing "
                         "was run."),
                      {} };
    spec.m_sshAgent = policy.sshAgent.has_value();
    if (policy.network == Policy::NetworkMode::Allowlist) {
        spec.m_proxied = true;
        spec.m_allowedDomains
            = policy.allowedDomains + (policy.sshAgent ? policy.sshAgent->proxyRules() : QStringList());
        spec.m_deniedDomains = policy.deniedDomains;
        // The trust toward an https upstream proxy is extraCaCertificates too, credentials or not.
        if (policy.upstreamProxy) {
            spec.m_upstreamProxy = policy.upstreamProxy;
            spec.m_extraCaCertificates = policy.extraCaCertificates;
        }
    }
    spec.setBasics(settings, policy, workspace, uid, gid);

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
            if (Policy::isInside(mount, deny))
                return Error{
                    mount,
                    tr("%1 lies inside the denied path %2, so it is never mounted into a container.").arg(mount, deny),
                    {}
                };
            if (!Policy::isInside(deny, mount) || !QFileInfo::exists(deny))
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
    spec.m_guarded = writable;
    QStringList readOnly;
    QStringList notMounted; // the write gate alone keeps these from being made or replaced
    for (const QString &path : policy.readOnly) {
        const QString expanded = expand(path, spec.m_workspace);
        bool inside = false;
        for (const QString &mount : std::as_const(writable))
            inside = inside || Policy::isInside(expanded, mount);
        if (!inside)
            continue;
        if (QFileInfo::exists(expanded) && !QFileInfo(expanded).isSymLink() && mountable(expanded))
            readOnly.append(expanded);
        else
            notMounted.append(expanded);
    }
    spec.m_readOnly = readOnly + notMounted;
    // The repository at the root of each writable mount keeps its existing control files
    // mounted read-only on top, a second wall behind the write gate.
    for (const QString &mount : std::as_const(writable)) {
        const QString gitDirectory = mount + QStringLiteral("/.git");
        const QFileInfo info(gitDirectory);
        if (info.isDir() && !info.isSymLink() && repository::isGitDirectory(gitDirectory.toStdString()))
            appendControlFiles(gitDirectory, readOnly);
    }
    readOnly.removeDuplicates();
    for (const QString &path : std::as_const(readOnly)) {
        bool hidden = false;
        for (const QString &deny : std::as_const(denied))
            hidden = hidden || Policy::isInside(path, deny);
        if (hidden || !mountable(path))
            continue;
        spec.m_binds.append(path + QLatin1Char(':') + path + QStringLiteral(":ro"));
    }
    if (!masked.isEmpty() && (!QDir(emptyFolder).isEmpty() || !mountable(emptyFolder)))
        return Error{ emptyFolder, tr("The folder %1 that covers denied folders is not empty.").arg(emptyFolder), {} };
    masked.removeDuplicates();
    spec.m_denied = masked;
    for (const QString &folder : std::as_const(masked))
        spec.m_binds.append(emptyFolder + QLatin1Char(':') + folder + QStringLiteral(":ro"));
    return spec;
}

Result<ContainerSpec> ContainerSpec::buildRemote(const DockerSettings &settings, const Policy &policy,
                                                 const QString &workspace, uint uid, uint gid,
                                                 const QString &helperProgram, const QString &endpoint)
{
    if (helperProgram.isEmpty() || !QFileInfo(helperProgram).isExecutable())
        return Error{ QStringLiteral("sandbox-init"),
                      tr("The engine's helper (sandbox-init) was not found, so no command runs under the write gate "
                         "that keeps repositories' control files as they are. Reinstall Sandbox Studio."),
                      {} };
    // The filtering proxy reaches the remote container through a forward of its socket over
    // SSH (SshReverseForward): the allowlist network mode, and the upstream proxy the engine's
    // proxy chains to. A TLS connection has no way back to this computer. What else needs this
    // computer (the certificate authority's bundle inside the container, the SSH agent) is not
    // brought there, and no container may get more than the policy allows, so such policies run
    // nowhere remotely. (An upstream proxy needs the allowlist mode: refused with it.)
    if (!SshEndpoint::isSsh(endpoint)) {
        if (policy.network == Policy::NetworkMode::Allowlist)
            return Error{ QStringLiteral("policy.network"),
                          tr("The policy's network mode is \"allowlist\", which the Docker backend does not enforce "
                             "on an engine reached over TLS (the endpoint setting: %1): the engine's filtering proxy, "
                             "the container's only way out under that mode, is forwarded to engines reached over SSH "
                             "(ssh://) only. Set the network mode to \"none\" (or \"full\"), or use an ssh:// or a "
                             "local endpoint (unix://). Nothing was run.")
                              .arg(endpoint),
                          {} };
    }
    if (!policy.credentials.isEmpty())
        return Error{ QStringLiteral("policy.credentials"),
                      tr("The policy's credentials need the engine's certificate authority inside the container, which "
                         "the Docker backend does not put there on an engine reached over SSH or TLS (the endpoint "
                         "setting: %1). Use a local endpoint (unix://). Nothing was run.")
                          .arg(endpoint),
                      {} };
    if (policy.sshAgent)
        return Error{
            QStringLiteral("policy.sshAgent"),
            tr("The policy's SSH agent is served by the engine on this computer and is not forwarded to an "
               "engine reached over SSH or TLS (the endpoint setting: %1). Use a local endpoint (unix://). Nothing "
               "was run.")
                .arg(endpoint),
            {}
        };
    ContainerSpec spec;
    spec.m_remote = true;
    spec.m_helperProgram = helperProgram;
    spec.setBasics(settings, policy, workspace, uid, gid);
    if (policy.network == Policy::NetworkMode::Allowlist) {
        spec.m_proxied = true;
        spec.m_allowedDomains = policy.allowedDomains;
        spec.m_deniedDomains = policy.deniedDomains;
        // The engine, not the container, connects to the upstream proxy: nothing of it is
        // needed on the remote host. The trust toward an https one is extraCaCertificates.
        if (policy.upstreamProxy) {
            spec.m_upstreamProxy = policy.upstreamProxy;
            spec.m_extraCaCertificates = policy.extraCaCertificates;
        }
    }
    // Only the workspace is there to write (the sync brings nothing else back); its denied
    // paths are never uploaded, and the gate keeps them from being made there.
    spec.m_guarded = { spec.m_workspace };
    for (const QString &path : policy.denied) {
        for (const QString &deny : expandComponents(expand(path, spec.m_workspace))) {
            if (Policy::isInside(spec.m_workspace, deny))
                return Error{ spec.m_workspace,
                              tr("%1 lies inside the denied path %2, so it is never sent to a container.")
                                  .arg(spec.m_workspace, deny),
                              {} };
            if (Policy::isInside(deny, spec.m_workspace))
                spec.m_denied.append(deny);
        }
    }
    for (const QString &path : policy.readOnly) {
        const QString expanded = expand(path, spec.m_workspace);
        if (Policy::isInside(expanded, spec.m_workspace))
            spec.m_readOnly.append(expanded);
    }
    spec.m_denied.removeDuplicates();
    spec.m_readOnly.removeDuplicates();
    return spec;
}

QString ContainerSpec::key() const
{
    QJsonArray credentials;
    for (const PolicyCredential &credential : m_credentials)
        credentials.append(credential.toJson());
    const QJsonObject keyed{
        { QStringLiteral("create"), createBody({}) },
        { QStringLiteral("runtime"), m_runtime },
        { QStringLiteral("allowedDomains"), QJsonArray::fromStringList(m_allowedDomains) },
        { QStringLiteral("deniedDomains"), QJsonArray::fromStringList(m_deniedDomains) },
        { QStringLiteral("credentials"), credentials },
        { QStringLiteral("extraCaCertificates"), QJsonArray::fromStringList(m_extraCaCertificates) },
        { QStringLiteral("sshAgent"), m_sshAgent },
        { QStringLiteral("upstreamProxy"), m_upstreamProxy ? QJsonValue(m_upstreamProxy->toJson()) : QJsonValue() }
    };
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QJsonDocument(keyed).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(hash.result().toHex().left(24));
}

QStringList ContainerSpec::proxyEnvironment() const
{
    if (!m_proxied)
        return {};
    const QString http = QStringLiteral("http://127.0.0.1:%1").arg(proxyPort);
    const QString socks = QStringLiteral("socks5h://127.0.0.1:%1").arg(proxyPort);
    QStringList env;
    for (const char *name : { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "npm_config_proxy",
                              "npm_config_https_proxy", "PIP_PROXY", "SANDBOX_PROXY" })
        env.append(QString::fromLatin1(name) + QLatin1Char('=') + http);
    env.append(QStringLiteral("ALL_PROXY=") + socks);
    env.append(QStringLiteral("all_proxy=") + socks);
    env.append(QStringLiteral("NO_PROXY="));
    env.append(QStringLiteral("no_proxy="));
    return env + m_credentialEnvironment;
}

Status ContainerSpec::setCredentials(const QList<PolicyCredential> &credentials, const QStringList &extraCaCertificates,
                                     const QString &bundlePath, const QMap<QString, QString> &environment)
{
    if (!mountable(bundlePath))
        return Error{ bundlePath,
                      tr("The path %1 contains ':' or ',' and cannot be mounted into a container.").arg(bundlePath),
                      {} };
    m_credentials = credentials;
    m_extraCaCertificates = extraCaCertificates;
    m_bundlePath = bundlePath;
    m_credentialEnvironment.clear();
    for (auto it = environment.begin(); it != environment.end(); ++it)
        m_credentialEnvironment.append(it.key() + QLatin1Char('=') + it.value());
    return {};
}

QStringList ContainerSpec::gateArguments(const QStringList &argv, const QString &statusName,
                                         const QString &statusDirectory, const QString &agentName) const
{
    QStringList arguments{ QString::fromLatin1(helperTarget), QStringLiteral("--gate"), QStringLiteral("--status"),
                           QString::fromLatin1(statusTarget) + QLatin1Char('/') + statusName };
    if (!agentName.isEmpty())
        arguments << QStringLiteral("--agent") << QString::fromLatin1(statusTarget) + QLatin1Char('/') + agentName;
    for (const QString &root : m_guarded)
        arguments << QStringLiteral("--guard") << root;
    for (const QString &path : m_readOnly)
        arguments << QStringLiteral("--read-only") << path;
    for (const QString &path : m_denied)
        arguments << QStringLiteral("--deny") << path;
    // No command opens another's status FIFO for writing, by either path.
    arguments << QStringLiteral("--read-only") << QString::fromLatin1(statusTarget);
    if (m_remote)
        arguments << QStringLiteral("--read-only") << QString::fromLatin1(remoteFolder);
    if (!statusDirectory.isEmpty())
        arguments << QStringLiteral("--read-only") << statusDirectory;
    arguments << QStringLiteral("--");
    return arguments + argv;
}

QJsonObject ContainerSpec::createBody(const QJsonObject &labels, const QString &statusDirectory,
                                      const QString &proxyDirectory, const QString &proxySocket) const
{
    QStringList binds = m_binds;
    const QString helper = QString::fromLatin1(helperTarget);
    if (!m_remote)
        binds.append(m_helperProgram + QLatin1Char(':') + helper + QStringLiteral(":ro"));
    const QJsonArray entrypoint{ helper };
    QJsonArray command{ QStringLiteral("--hold") };
    if (!statusDirectory.isEmpty())
        binds.append(statusDirectory + QLatin1Char(':') + QString::fromLatin1(statusTarget) + QStringLiteral(":ro"));
    if (m_proxied) {
        const QString proxy = QString::fromLatin1(proxyTarget);
        if (!proxyDirectory.isEmpty())
            binds.append(proxyDirectory + QLatin1Char(':') + proxy + QStringLiteral(":ro"));
        command = QJsonArray{ QStringLiteral("--proxy-bridge"), QString::number(proxyPort),
                              QString(proxy + QLatin1Char('/') + proxySocket) };
    }
    if (!m_bundlePath.isEmpty()) {
        binds.append(m_bundlePath + QLatin1Char(':') + QString::fromLatin1(bundleTarget) + QStringLiteral(":ro"));
        binds.append(m_bundlePath + QLatin1Char(':') + QString::fromLatin1(systemBundleTarget) + QStringLiteral(":ro"));
    }
    // A private /tmp, unless /tmp itself is mounted (a workspace at /tmp): the runtime
    // refuses two mounts at one place.
    bool tmpMounted = false;
    for (const QString &bind : std::as_const(binds))
        tmpMounted = tmpMounted || bind.section(QLatin1Char(':'), 1, 1) == QLatin1String("/tmp");
    tmpMounted = tmpMounted || (m_remote && m_workspace == QLatin1String("/tmp"));
    QJsonObject tmpfs;
    if (!tmpMounted)
        tmpfs.insert(QStringLiteral("/tmp"), QStringLiteral("rw,nosuid,nodev,mode=1777"));
    QJsonObject host{ { QStringLiteral("Binds"), QJsonArray::fromStringList(binds) },
                      { QStringLiteral("Tmpfs"), tmpfs },
                      { QStringLiteral("ReadonlyRootfs"), true },
                      { QStringLiteral("CapDrop"), QJsonArray{ QStringLiteral("ALL") } },
                      { QStringLiteral("SecurityOpt"), QJsonArray{ QStringLiteral("no-new-privileges") } },
                      { QStringLiteral("NetworkMode"), m_network ? QStringLiteral("bridge") : QStringLiteral("none") },
                      { QStringLiteral("IpcMode"), QStringLiteral("private") } };
    if (m_remote) {
        // Volumes of the container's own on the remote host (removed with it): the workspace's
        // copy, and the helper with the status files.
        QJsonArray mounts;
        for (const QString &target : { m_workspace, QString::fromLatin1(remoteFolder) })
            mounts.append(QJsonObject{ { QStringLiteral("Type"), QStringLiteral("volume") },
                                       { QStringLiteral("Target"), target } });
        host.insert(QStringLiteral("Mounts"), mounts);
    }
    if (!m_runtime.isEmpty())
        host.insert(QStringLiteral("Runtime"), m_runtime);
    if (m_pidsLimit > 0)
        host.insert(QStringLiteral("PidsLimit"), m_pidsLimit);
    if (m_memoryBytes > 0)
        host.insert(QStringLiteral("Memory"), m_memoryBytes);
    if (m_nanoCpus > 0)
        host.insert(QStringLiteral("NanoCpus"), m_nanoCpus);
    QJsonObject body{ { QStringLiteral("Image"), m_image },
                      { QStringLiteral("Entrypoint"), entrypoint },
                      { QStringLiteral("Cmd"), command },
                      { QStringLiteral("User"), m_bridgeUser.isEmpty() ? m_user : m_bridgeUser },
                      { QStringLiteral("WorkingDir"), m_workspace },
                      { QStringLiteral("NetworkDisabled"), !m_network },
                      { QStringLiteral("HostConfig"), host } };
    if (!labels.isEmpty())
        body.insert(QStringLiteral("Labels"), labels);
    return body;
}

} // namespace sandbox::power
