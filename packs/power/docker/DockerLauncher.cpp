#include "DockerLauncher.h"

#include "DockerProcess.h"
#include "RemoteDockerProcess.h"
#include "SshReverseForward.h"
#include "SshTunnel.h"
#include "TlsTunnel.h"
#include "protocol/RuntimeDirectory.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QUrl>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <unistd.h>

namespace sandbox::power {

namespace {

constexpr int probeTimeoutMs = 10000;
// Creating, starting and ending a container: a runtime such as gVisor boots a kernel first.
constexpr int gateProbeTimeoutMs = 60000;

double versionNumber(const QString &text)
{
    return text.toDouble();
}

} // namespace

DockerLauncher::DockerLauncher() = default;

DockerLauncher::~DockerLauncher() = default;

QString DockerLauncher::runtimeClaim() const
{
    std::optional<EngineRuntime> runtime;
    {
        QMutexLocker locker(&m_mutex);
        runtime = m_runtime;
    }
    // Which kernel enforces it is the OCI runtime's: known once prepare() has found it.
    return runtime ? runtime->kernelClaim()
                   : tr("Which kernel enforces this is the OCI runtime's: the host's Linux "
                        "kernel under runc and crun, gVisor's user-space kernel (the Sentry) "
                        "under runsc.");
}

BackendDescriptor DockerLauncher::descriptor() const
{
    const QString runtimeClaim = this->runtimeClaim();
    BackendDescriptor d;
    d.name = tr("Docker");
    d.description = tr("Runs each command in a container of a Docker-compatible runtime (Docker Engine, or "
                       "Podman's Docker-compatible service), one warm container per workspace.");
    d.fields = {
        FieldSpec::make(QStringLiteral("endpoint"), FieldSpec::Type::String, tr("Endpoint"),
                        tr("The runtime's unix socket (unix:///path or /path), or an engine on another host "
                           "reached over SSH (ssh://user@host[:port][/socket/path]; without a path "
                           "/var/run/docker.sock), with your SSH keys, agent and known_hosts, or over TLS "
                           "(tcp://host:port, with the TLS settings below; plain TCP only to a loopback address): "
                           "there each command gets a container of its own, the workspace copied in before it and "
                           "brought back after it; over SSH the filtering proxy is forwarded there, over TLS the "
                           "network mode allowlist is refused. Empty: DOCKER_HOST, then /var/run/docker.sock, then "
                           "your Podman socket."),
                        QString()),
        FieldSpec::make(QStringLiteral("sshIdentityFile"), FieldSpec::Type::String, tr("SSH identity file"),
                        tr("For ssh:// endpoints: the private key to log in with, and only it. Empty: your SSH "
                           "agent and keys, as ssh chooses them."),
                        QString()),
        FieldSpec::make(QStringLiteral("sshKnownHostsFile"), FieldSpec::Type::String, tr("SSH known hosts file"),
                        tr("For ssh:// endpoints: the known_hosts file the host's key is checked against. Empty: "
                           "your ~/.ssh/known_hosts. Host keys are always checked."),
                        QString()),
        FieldSpec::make(QStringLiteral("tlsCaCert"), FieldSpec::Type::String, tr("TLS CA certificate"),
                        tr("For tcp:// endpoints: the file of the CA certificate the engine's certificate is checked "
                           "against (only it, not the system's authorities); the certificate must also name the "
                           "endpoint's host. Empty: plain TCP, accepted only to a loopback address."),
                        QString()),
        FieldSpec::make(QStringLiteral("tlsCert"), FieldSpec::Type::String, tr("TLS client certificate"),
                        tr("For tcp:// endpoints: the file of the client certificate presented to the engine, its "
                           "key kept as the secret below. Empty: none."),
                        QString()),
        FieldSpec::make(QStringLiteral("tlsKey"), FieldSpec::Type::Secret, tr("TLS client key"),
                        tr("For tcp:// endpoints: the client certificate's private key (its PEM text, without a "
                           "passphrase). It is kept in the keychain and used only to connect to the engine.")),
        FieldSpec::make(QStringLiteral("image"), FieldSpec::Type::String, tr("Image"),
                        tr("The image commands run in. It must be present in the runtime, and needs only the "
                           "programs the commands use."))
            .asRequired(),
        FieldSpec::make(QStringLiteral("runtime"), FieldSpec::Type::String, tr("OCI runtime"),
                        tr("The OCI runtime containers run under, one of those the Docker-compatible runtime offers "
                           "(docker info: Runtimes), such as runc, crun or runsc (gVisor). Empty: its default. "
                           "Activation checks it, lists the ones offered, and refuses a runtime under which "
                           "commands cannot run confined."),
                        QString()),
        FieldSpec::make(QStringLiteral("memoryMb"), FieldSpec::Type::Number, tr("Memory limit (MB)"),
                        tr("0 means no limit."), 0)
            .withRange(0, 1048576),
        FieldSpec::make(QStringLiteral("cpus"), FieldSpec::Type::Number, tr("CPUs"), tr("0 means no limit."), 0)
            .withRange(0, 1024),
        FieldSpec::make(QStringLiteral("pidsLimit"), FieldSpec::Type::Number, tr("Process limit"),
                        tr("The most processes a container may hold at once."), 512)
            .withRange(16, 1000000),
    };
    d.platforms = { QStringLiteral("linux") };
    d.enforcement = {
        { QStringLiteral("filesystem"),
          tr("The image's root filesystem, read-only, with a private /tmp. Of the host's files only the workspace "
             "and the policy's other writable folders are mounted, read-write at the same path, with the policy's "
             "read-only paths inside them mounted read-only (those that do not exist yet, and a link's own name, "
             "kept by the write gate); besides them the engine's helper program (sandbox-init) "
             "and a folder of the container's own for its commands' status channels (and SSH agents), both "
             "read-only, under the "
             "allowlist network mode also its filtering proxy socket's folder, read-only, and the small files the "
             "runtime generates (such as /etc/hosts). No denied path is ever mounted: a denied folder inside the "
             "workspace is covered by an empty read-only folder, and a denied file there refuses the command. Every "
             "command runs under sandbox-init's write gate, as in the auto backend: its calls that create, write, "
             "truncate, link, rename or remove a file are handed to sandbox-init, which judges them by the rules "
             "every backend shares and makes them itself. So in the mounted folders no command creates or changes a "
             "file that makes the host's git run code, in any repository, existing or new, at any depth: no entry "
             "named .git is created, moved or removed (no git init, no .git file or link pointing elsewhere), no "
             "control file of a git directory (config, hooks, info, commondir, gitdir, config.worktree and the object "
             "alternates of a .git, a bare repository, or the git directories under its modules and worktrees) is "
             "created or changed, no HEAD is made outside a git directory (no new bare repository), nothing is moved "
             "into or out of a git directory, no read-only path is changed and no file with other hard links is "
             "written, while git add, commit, branch and stash work. Each such write fails with \"permission "
             "denied\" when it is made and is reported. A chmod that sets an execute bit is made by sandbox-init "
             "too and refused on those files, so a hook left non-executable stays so. Not judged: a unix socket "
             "bound to such a name (bind), which holds no code but, taking a hook's name, makes the host's git fail "
             "to run that hook. The existing control files of the repository at the root of each mounted folder "
             "are mounted read-only as well, a second wall.") },
        { QStringLiteral("confinement"),
          tr("Commands run in the container's own namespaces as your uid and gid, with every capability dropped, "
             "no-new-privileges and the container's process limit. Commands of one workspace share its container "
             "and can see each other's processes. Besides the runtime's default seccomp profile each command gets "
             "sandbox-init's seccomp deny list, as in the auto backend: no command uses ptrace or "
             "process_vm_readv, creates a namespace, mounts, or uses io_uring, bpf or the kernel keyring, and none "
             "can trace, read or limit sandbox-init. ")
              + runtimeClaim },
        { QStringLiteral("network"),
          tr("Network none: the container has no network interface but loopback. Allowlist: no network interface "
             "but loopback either; the container's first process is the engine's proxy bridge (sandbox-init, "
             "mounted read-only from the host), which relays 127.0.0.1:3128 inside the container to a filtering "
             "proxy socket of that container's own, in a host folder holding nothing else that is mounted "
             "read-only. Full: the runtime's default network.") },
        { QStringLiteral("allowedDomains"),
          tr("Under the allowlist network mode the engine's filtering proxy is the container's only way out: "
             "commands get HTTP_PROXY, HTTPS_PROXY and ALL_PROXY pointing at the bridge (HTTP, HTTPS through "
             "CONNECT, SOCKS5), and the proxy connects only to the policy's allowed domains and addresses, a denied "
             "entry winning. Nothing else leaves the container, name lookups included (the proxy resolves names). "
             "Each set of domain rules gets a container of its own.") },
        { QStringLiteral("hostExecution"),
          tr("Never granted, whatever the policy allows: no runtime socket, session bus or other channel to the "
             "host's programs is mounted into the container (the filtering proxy's socket, mounted under the "
             "allowlist network mode, only relays connections to the allowed domains).") },
        { QStringLiteral("credentials"),
          tr("Needs allowed domains. Commands see a placeholder (in the credential's variable), never the value. The "
             "engine's filtering proxy, the container's only way out, terminates TLS only toward a credential's "
             "hosts (a certificate of the engine's own authority per host; the real host verified against the "
             "system's authorities and the policy's extra ones), replaces the placeholder with the value only in the "
             "allowed headers (inside \"Authorization: Basic\" too) of requests whose Host header and TLS server "
             "name are the tunnel's host (compared byte for byte; anything else is refused as domain fronting), "
             "refuses TRACE and protocol upgrades, withholds an answer that carries a value back (an echo) and "
             "ends the connection, and reports every "
             "placeholder it sees going elsewhere, for this backend. The engine's certificate bundle (the system's "
             "authorities, the engine's, the policy's extra ones) is mounted read-only at "
             "/run/sandbox-studio/ca-bundle.pem and over /etc/ssl/certs/ca-certificates.crt, and named by "
             "SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT and "
             "AWS_CA_BUNDLE; images that keep their bundle elsewhere trust the authority only through those "
             "variables. The authority's private key never enters the container. Each set of credentials gets a "
             "container of its own.") },
        { QStringLiteral("upstreamProxy"),
          tr("Needs allowed domains. The container's only way out is its proxy bridge to the engine's filtering "
             "proxy, which checks every target against the allowed and denied domains first, then reaches it only "
             "through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, verified "
             "against the system's authorities and the policy's extra ones; plain HTTP requests too), never "
             "directly; the engine, not the container, connects to the upstream proxy, and the upstream proxy "
             "resolves the names (IP literals are still checked against internal addresses by the engine's proxy). "
             "Its credential is read from the secret storage when a connection needs it and sent to the upstream "
             "proxy alone (Proxy-Authorization: Basic), never into the container. Its refusals (407, 403) are "
             "reported as network refusals for this backend; its other failures, and an unreachable proxy, answer "
             "the command's connection with the reason. Toward a credential's hosts the real host's certificate is "
             "still verified through the tunnel. Each upstream proxy (its URL and credential name) gets a container "
             "of its own.") },
        { QStringLiteral("sshAgent"),
          tr("Each command gets a filtering agent of the engine's own, named by SSH_AUTH_SOCK inside the container "
             "(the user's agent socket stays out of reach: it is not mounted unless a writable path holds it, and "
             "the command cannot connect to it even then): it lists and signs with the policy's keys only, asks "
             "the user before a signature as the policy's confirm says, passes no extension but "
             "session-bind@openssh.com, refuses adding, removing, locking and unlocking keys, and reports every "
             "refusal. Its socket is in the container's status folder (mounted read-only), beside the agents of the "
             "container's other commands, so every command of a container whose policy has an agent runs with its "
             "connect() calls handed to sandbox-init, which makes them itself (the agent's through a descriptor "
             "opened before the command ran) and refuses every other unix socket, another command's agent "
             "included; datagram unix sockets are refused. A command that ends its own sandbox-init (commands "
             "share the container's processes) gets every such call refused from then on, cannot take them over "
             "with a seccomp listener of its own, and its container is removed when it ends. Policies with and "
             "without an agent never share a container. The agent ends with the command. SSH connections to the "
             "policy's hosts (port 22 unless one is given; they need the network mode allowlist) go only through "
             "the filtering proxy, which allows those hosts beside the allowed domains: git uses an SSH "
             "configuration of the engine's, in the same folder (GIT_SSH_COMMAND; others: ssh -F "
             "\"$SANDBOX_SSH_CONFIG\"), whose ProxyCommand is sandbox-init's tunnel through the container's proxy "
             "bridge, whose host keys are the user's known-hosts entries for those hosts, copied read-only and "
             "checked strictly, and which reads none of the user's SSH options. Under the allowlist and none "
             "modes an ssh that ignores that configuration reaches nothing, as the container has no other way "
             "out; under full the container has the runtime's network, and SSH goes wherever it is pointed. The "
             "image must hold the SSH client.") },
    };
    d.refusals = tr("Reported as they happen: every write sandbox-init's write gate refuses, tied to the command "
                    "(at most 64 a command); every connection the filtering proxy refuses under the allowlist "
                    "network mode, the upstream proxy's refusals included, for this backend (a container's proxy "
                    "socket serves every command in it, so a refusal is not tied to one command); and the engine's "
                    "own refusals. Not observed: what the container's runtime, the seccomp filters or the read-only "
                    "root filesystem refuse inside it.");
    // Configured for an engine on another host: the remote shape's claims.
    if (settings().isRemote()) {
        claimRemote(d.enforcement);
        d.refusals = tr("On an engine on another host: every write sandbox-init's write gate refuses, tied to the "
                        "command (at most 64 a command), reported when the command has ended (read from its status "
                        "file); every connection the filtering proxy refuses under the allowlist network mode over "
                        "SSH, the upstream proxy's refusals included, reported as it happens, for this backend; and "
                        "the engine's own refusals. Not observed: what the container's runtime, the seccomp filters "
                        "or the read-only root filesystem refuse inside it.");
    }
    return d;
}

void DockerLauncher::claimRemote(QMap<QString, QString> &claims) const
{
    claims[QStringLiteral("filesystem")]
        = tr("On an engine reached over SSH or TLS (ssh://, tcp://) nothing of this computer is mounted: each command "
             "runs in a container of its own on that host, whose root filesystem is the image's, read-only, with a "
             "private /tmp. The workspace is a volume at the same path, filled before the command with the workspace's "
             "files (the policy's denied paths are never sent) and read back after it: what comes back is written "
             "to this computer only where the policy lets it be written, never into a read-only or denied path, "
             "never a repository's control file (its hooks, its config and the like), and a file changed on both "
             "sides is kept as this computer has it, the other copy beside it, with a note. No other folder of the "
             "host is there, so nothing else the command writes comes back. Under the allowlist network mode the "
             "folder on the remote host holding the filtering proxy's forwarded socket, and nothing else, is "
             "mounted read-only. The engine's helper (sandbox-init) and "
             "the command's status file are copied into a volume of the container's own, read-only to the command. "
             "Every command runs under sandbox-init's write gate as on a local engine: no entry named .git is "
             "created, moved or removed, no control file of a git directory is created or changed, no read-only or "
             "denied path is written, each such write failing with \"permission denied\" and reported when the "
             "command has ended.");
    claims[QStringLiteral("confinement")]
        = tr("On an engine reached over SSH or TLS each command runs in a container of its own on that host, removed "
             "when the command has ended, in the container's own namespaces as your uid and gid, with every capability "
             "dropped, no-new-privileges and the container's process limit. Besides the runtime's default seccomp "
             "profile each command gets sandbox-init's seccomp deny list, as in the auto backend: no command uses "
             "ptrace or process_vm_readv, creates a namespace, mounts, or uses io_uring, bpf or the kernel keyring, "
             "and none can trace, read or limit sandbox-init. The host named below is the remote one. ")
        + runtimeClaim();
    if (SshEndpoint::isSsh(settings().endpoint)) {
        claims[QStringLiteral("network")] = tr(
            "Network none: the container has no network interface but loopback. Full: the remote engine's default "
            "network. Allowlist: no network interface but loopback either; the container's first process is the "
            "engine's proxy bridge (sandbox-init), which relays 127.0.0.1:3128 inside the container to a filtering "
            "proxy socket of the command's own, forwarded from this computer over the SSH connection (OpenSSH's "
            "remote stream-local forwarding) into a folder made for it on the remote host, owner-only, holding "
            "nothing else, mounted read-only. Only the remote user can connect to it (besides that host's root, "
            "and whoever may use its engine, which can mount any of its paths), and the bridge runs as that "
            "user's uid and gid. The forward and the folder are removed when the command has ended, and "
            "by the remote host when the SSH connection ends. When the forward ends under a command, its "
            "connections through the proxy fail from then on and a note says so.");
        claims[QStringLiteral("allowedDomains")] = tr(
            "Under the allowlist network mode the engine's filtering proxy, on this computer, is the remote "
            "container's only way out: commands get HTTP_PROXY, HTTPS_PROXY and ALL_PROXY pointing at the bridge "
            "(HTTP, HTTPS through CONNECT, SOCKS5), and the proxy connects from this computer only to the policy's "
            "allowed domains and addresses, a denied entry winning. Nothing else leaves the container, name lookups "
            "included (the proxy resolves names). Its refusals are reported as they happen, for this backend.");
        claims[QStringLiteral("upstreamProxy")] = tr(
            "Needs allowed domains. On an engine reached over SSH as locally: the engine's filtering proxy, on this "
            "computer, checks every target against the allowed and denied domains first, then reaches it only "
            "through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, verified "
            "against the system's authorities and the policy's extra ones; plain HTTP requests too), never "
            "directly; the engine, not the container, connects to the upstream proxy, and the upstream proxy "
            "resolves the names. Its credential is read from the secret storage when a connection needs it and "
            "sent to the upstream proxy alone, never to the remote host. Its refusals (407, 403) are reported as "
            "network refusals for this backend; its other failures, and an unreachable proxy, answer the command's "
            "connection with the reason.");
        // These need more of this computer inside the container than the proxy's socket.
        const QString refused = tr("Refused on an engine reached over SSH (the endpoint setting): only the filtering "
                                   "proxy's socket is forwarded there, not the engine's certificate authority's bundle "
                                   "or its SSH agent, so nothing runs under such a policy.");
        for (const char *dimension : { "credentials", "sshAgent" })
            claims[QString::fromLatin1(dimension)] = refused;
    } else {
        claims[QStringLiteral("network")] = tr(
            "Network none: the container has no network interface but loopback. Full: the remote engine's default "
            "network. Allowlist: refused on an engine reached over TLS (nothing runs), since the engine's filtering "
            "proxy is forwarded over SSH only, and no container gets more network than the policy allows.");
        // These need a channel to this computer (the filtering proxy, the SSH agent): refused over TLS.
        const QString refused
            = tr("Refused on an engine reached over TLS (the endpoint setting): the engine's filtering proxy and SSH "
                 "agent are not forwarded there, so nothing runs under such a policy.");
        for (const char *dimension : { "allowedDomains", "credentials", "upstreamProxy", "sshAgent" })
            claims[QString::fromLatin1(dimension)] = refused;
    }
    claims[QStringLiteral("hostExecution")]
        = tr("Never granted, whatever the policy allows: the container on the remote host gets no runtime socket, "
             "session bus or other channel to that host's programs, nor to this computer's (the filtering proxy's "
             "forwarded socket, mounted under the allowlist network mode, only relays connections to the allowed "
             "domains).");
}

void DockerLauncher::sweepLeftovers(const DockerApi &api, const QString &shownAs)
{
    const ContainerLeftovers::Swept swept = ContainerLeftovers::sweep(api, probeTimeoutMs);
    if (!host())
        return;
    if (swept.removed > 0)
        host()->reportActivationNote(tr("Removed %n container(s) from the engine at %1 that commands of this "
                                        "computer had left there (their engine process ended, or its connection "
                                        "to the engine died under them).",
                                        nullptr, swept.removed)
                                         .arg(shownAs));
    if (!swept.problem.isEmpty())
        host()->reportActivationNote(
            tr("Containers left on the engine at %1 by earlier commands could not all be removed: %2")
                .arg(shownAs, swept.problem));
}

DockerSettings DockerLauncher::settings() const
{
    QMutexLocker locker(&m_mutex);
    return m_settings;
}

QFuture<Status> DockerLauncher::configure(const ResolvedSettings &settings)
{
    // The descriptor's defaults for what is not given (the engine gives them all; a direct
    // caller may not): they are written there only.
    DockerSettings read = DockerSettings::fromValues(settings.values.withDefaults(descriptor()));
    read.tlsKey = settings.secrets.value(QStringLiteral("tlsKey"));
    read.tlsKeyUnread = settings.unreadSecrets.value(QStringLiteral("tlsKey"));
    QMutexLocker locker(&m_mutex);
    m_settings = read;
    return QtFuture::makeReadyFuture(Status());
}

QString DockerLauncher::discoverSocket(const QString &endpoint, QString *why)
{
    auto socketOf = [](const QString &text) -> QString {
        if (text.startsWith(QLatin1String("unix://")))
            return QUrl(text).path();
        if (text.startsWith(QLatin1Char('/')))
            return text;
        return {};
    };
    if (SshEndpoint::isSsh(endpoint) || TcpEndpoint::isTcp(endpoint))
        return {};
    if (!endpoint.isEmpty()) {
        const QString socket = socketOf(endpoint);
        if (socket.isEmpty() && why)
            *why = tr("The endpoint \"%1\" is neither a unix socket (unix:///path or /path), an SSH endpoint "
                      "(ssh://user@host[:port][/socket/path]) nor a TCP endpoint (tcp://host:port).")
                       .arg(endpoint);
        return socket;
    }
    const QString dockerHost = qEnvironmentVariable("DOCKER_HOST");
    if (!dockerHost.isEmpty()) {
        const QString socket = socketOf(dockerHost);
        if (socket.isEmpty() && why)
            *why = tr("DOCKER_HOST is \"%1\", which is not a unix socket; set the endpoint to the runtime's socket.")
                       .arg(dockerHost);
        return socket;
    }
    QStringList candidates{ QStringLiteral("/var/run/docker.sock") };
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtimeDir.isEmpty())
        candidates.append(runtimeDir + QStringLiteral("/podman/podman.sock"));
    candidates.append(QStringLiteral("/run/user/%1/podman/podman.sock").arg(::getuid()));
    if (::getuid() == 0)
        candidates.append(QStringLiteral("/run/podman/podman.sock"));
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo::exists(candidate))
            return candidate;
    }
    if (why)
        *why = tr("No Docker-compatible runtime at %1. Start Docker, or Podman's service (podman system service), "
                  "or set the endpoint.")
                   .arg(candidates.join(QStringLiteral(", ")));
    return {};
}

QString DockerLauncher::check(const QString &socketPath, const QString &image, const QString &shownAs)
{
    const DockerApi api(socketPath);
    const QString socket = shownAs.isEmpty() ? socketPath : shownAs;
    Result<DockerApi::Response> version = api.get(QStringLiteral("/version"), probeTimeoutMs);
    if (!version.ok())
        return tr("No Docker-compatible runtime at %1: %2").arg(socket, version.error().message);
    if (version.value().status != 200)
        return tr("The runtime at %1 does not serve the Docker Engine API (%2).")
            .arg(socket, version.value().message());
    const QString apiVersion = version.value().json().value(QStringLiteral("ApiVersion")).toString();
    if (versionNumber(apiVersion) < minimumApiVersion)
        return tr("The runtime at %1 serves Docker Engine API %2; version %3 or later is needed.")
            .arg(socket, apiVersion.isEmpty() ? tr("(unknown)") : apiVersion)
            .arg(minimumApiVersion, 0, 'f', 2);
    if (image.isEmpty())
        return tr("No image is set. Choose the image commands run in.");
    Result<DockerApi::Response> inspected
        = api.get(QStringLiteral("/images/") + QString::fromLatin1(QUrl::toPercentEncoding(image, "/:"))
                      + QStringLiteral("/json"),
                  probeTimeoutMs);
    if (!inspected.ok())
        return tr("The runtime at %1 did not answer: %2").arg(socket, inspected.error().message);
    if (inspected.value().status == 404)
        return tr("The image %1 is not present in the runtime at %2. Get it with \"docker pull %1\" or "
                  "\"podman pull %1\" (or build or import it there), then activate again.")
            .arg(image, socket);
    if (inspected.value().status != 200)
        return tr("The runtime at %1 cannot inspect the image %2: %3").arg(socket, image, inspected.value().message());
    return {};
}

Result<std::unique_ptr<EngineTunnel>> DockerLauncher::openTunnel(const DockerSettings &current, const QString &folder)
{
    const auto opened = [](auto result) -> Result<std::unique_ptr<EngineTunnel>> {
        if (!result.ok())
            return result.error();
        return std::unique_ptr<EngineTunnel>(std::move(result).value());
    };
    if (folder.isEmpty())
        return Error{ QStringLiteral("docker"), tr("The engine has no folder for the remote engine's socket."), {} };
    if (Status ours = RuntimeDirectory::ensure(folder); !ours)
        return ours.error();
    if (SshEndpoint::isSsh(current.endpoint)) {
        Result<SshEndpoint> endpoint = SshEndpoint::parse(current.endpoint);
        if (!endpoint.ok())
            return endpoint.error();
        return opened(SshTunnel::open(endpoint.value(),
                                      SshTunnel::Options{ current.sshIdentityFile, current.sshKnownHostsFile }, folder,
                                      probeTimeoutMs));
    }
    Result<TcpEndpoint> endpoint = TcpEndpoint::parse(current.endpoint);
    if (!endpoint.ok())
        return endpoint.error();
    const bool plain = current.tlsCaCert.isEmpty() && current.tlsCert.isEmpty();
    if (plain && !endpoint.value().isLoopback())
        return Error{ QStringLiteral("endpoint"),
                      tr("Plain TCP to %1 is refused: anyone on the network between could read and change the "
                         "commands, their output and the workspace, and drive the engine. Set tlsCaCert (and "
                         "tlsCert with the secret tlsKey) to reach it over TLS, or reach it over SSH (ssh://). Plain "
                         "TCP is accepted only to a loopback address (127.0.0.0/8, ::1, localhost).")
                          .arg(endpoint.value().text()),
                      {} };
    if (!plain && current.tlsCaCert.isEmpty())
        return Error{ QStringLiteral("tlsCaCert"),
                      tr("A client certificate is set for %1 but no CA certificate: set tlsCaCert to the file of the "
                         "CA the engine's certificate was made with, so the engine is verified.")
                          .arg(endpoint.value().text()),
                      {} };
    return opened(
        TlsTunnel::open(endpoint.value(),
                        TlsTunnel::Options{ current.tlsCaCert, current.tlsCert, current.tlsKey, current.tlsKeyUnread },
                        folder, probeTimeoutMs));
}

Status DockerLauncher::checkRemote(const DockerSettings &current, const QString &folder,
                                   std::shared_ptr<EngineTunnel> *kept, std::optional<EngineRuntime> *chosen)
{
    Result<std::unique_ptr<EngineTunnel>> tunnel = openTunnel(current, folder);
    if (!tunnel.ok())
        return tunnel.error();
    // As the user reads it, with the defaults filled in (parsed already: the tunnel is open).
    const QString shownAs = SshEndpoint::isSsh(current.endpoint) ? SshEndpoint::parse(current.endpoint).value().text()
                                                                 : TcpEndpoint::parse(current.endpoint).value().text();
    if (const QString problem = check(tunnel.value()->localSocket(), current.image, shownAs); !problem.isEmpty())
        return Error{ tunnel.value()->failedField(), tunnel.value()->explain(problem), {} };
    Result<EngineRuntime::Offer> offer = EngineRuntime::read(DockerApi(tunnel.value()->localSocket()), probeTimeoutMs);
    if (!offer.ok())
        return Error{ tunnel.value()->failedField(), tunnel.value()->explain(offer.error().message), {} };
    Result<EngineRuntime> chosenRuntime = EngineRuntime::choose(offer.value(), current.runtime, shownAs);
    if (!chosenRuntime.ok())
        return chosenRuntime.error();
    EngineRuntime runtime = chosenRuntime.value();
    // Activation measures the write gate there as on a local engine, the helper copied in:
    // what runs no command confined is refused now rather than at the first command.
    const QString helper = kept && host() ? host()->proxyBridgeProgram() : QString();
    if (!helper.isEmpty()) {
        if (Status probed = runtime.probe(DockerApi(tunnel.value()->localSocket()), current.image, helper,
                                          QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid()),
                                          offer.value().names.join(QStringLiteral(", ")), gateProbeTimeoutMs,
                                          EngineRuntime::Helper::Copied);
            !probed.ok())
            return Error{ probed.error().where, tunnel.value()->explain(probed.error().message), {} };
    }
    // Activation (which keeps the connection) says so; an availability probe does not.
    if (kept && host())
        host()->reportActivationNote(
            tr("The engine at %1 answers %2 and holds the image %3 (OCI runtimes: %4). Commands run there "
               "under %5, each in a container of its own, with the workspace copied in before and brought back "
               "after it.")
                .arg(shownAs, tunnel.value()->reachedHow(), current.image,
                     offer.value().names.join(QStringLiteral(", ")),
                     runtime.name().isEmpty() ? tr("the default OCI runtime") : runtime.name()));
    if (chosen)
        *chosen = runtime;
    if (kept)
        *kept = std::shared_ptr<EngineTunnel>(std::move(tunnel).value());
    return {};
}

QFuture<Status> DockerLauncher::prepare()
{
    const DockerSettings current = settings();
    return QtConcurrent::run([this, current]() -> Status {
        if (current.isRemote()) {
            std::shared_ptr<EngineTunnel> tunnel;
            std::optional<EngineRuntime> runtime;
            if (Status remote
                = checkRemote(current, host() ? host()->runtimeDirectory() : QString(), &tunnel, &runtime);
                !remote.ok())
                return remote;
            sweepLeftovers(DockerApi(tunnel->localSocket()), current.endpoint);
            std::shared_ptr<ContainerPool> previousPool;
            std::shared_ptr<EngineTunnel> previousTunnel;
            QMutexLocker locker(&m_mutex);
            // The previous activation's connection and containers go (outside the lock).
            previousPool = std::exchange(m_pool, {});
            previousTunnel = std::exchange(m_tunnel, tunnel);
            m_runtime = runtime;
            m_instanceLabel = QUuid::createUuid().toString(QUuid::Id128);
            locker.unlock();
            return {};
        }
        QString why;
        const QString socket = discoverSocket(current.endpoint, &why);
        if (socket.isEmpty())
            return Error{ QStringLiteral("endpoint"), why, {} };
        if (const QString problem = check(socket, current.image); !problem.isEmpty())
            return Error{ QStringLiteral("image"), problem, {} };
        LauncherHost *launcherHost = host();
        const DockerApi api(socket);
        Result<EngineRuntime::Offer> offer = EngineRuntime::read(api, probeTimeoutMs);
        if (!offer.ok())
            return offer.error();
        Result<EngineRuntime> chosen = EngineRuntime::choose(offer.value(), current.runtime, socket);
        if (!chosen.ok())
            return chosen.error();
        EngineRuntime runtime = chosen.value();
        const QString offered = offer.value().names.join(QStringLiteral(", "));
        // Every command runs under sandbox-init's write gate: measured under this runtime
        // before anything is claimed for it, as a runtime's kernel may lack what the gate needs.
        const QString helper = launcherHost ? launcherHost->proxyBridgeProgram() : QString();
        if (!helper.isEmpty()) {
            if (Status probed
                = runtime.probe(api, current.image, helper, QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid()),
                                offered, gateProbeTimeoutMs);
                !probed.ok())
                return probed;
        }
        if (launcherHost)
            launcherHost->reportActivationNote(
                tr("OCI runtimes offered by the runtime at %1: %2 (default: %3). Commands run under %4.")
                    .arg(socket, offered,
                         offer.value().defaultRuntime.isEmpty() ? tr("not said") : offer.value().defaultRuntime,
                         runtime.name().isEmpty() ? tr("the default") : runtime.name()));
        sweepLeftovers(api, socket);
        ContainerPool::ChannelOpener opener;
        if (launcherHost)
            opener = [launcherHost](const QStringList &allowed, const QStringList &denied,
                                    const QList<PolicyCredential> &credentials, const QStringList &extraCaCertificates,
                                    const std::optional<PolicyUpstreamProxy> &upstreamProxy) {
                return launcherHost->openProxyChannel(allowed, denied, credentials, extraCaCertificates, upstreamProxy);
            };
        // The commands' status FIFOs live in the engine's runtime directory (owner-only).
        QString statusRoot = launcherHost ? launcherHost->runtimeDirectory() : QString();
        if (!statusRoot.isEmpty()) {
            if (Status ours = RuntimeDirectory::ensure(statusRoot); !ours)
                return ours;
        } else if (launcherHost) {
            statusRoot = launcherHost->stateDirectory();
        }
        if (statusRoot.isEmpty())
            return Error{ kind(), tr("The engine has no folder for the commands' status channels."), {} };
        auto pool = std::make_shared<ContainerPool>(DockerApi(socket), QUuid::createUuid().toString(QUuid::Id128),
                                                    QDir(statusRoot).filePath(QStringLiteral("docker-status")),
                                                    std::move(opener), runtime.name());
        std::shared_ptr<EngineTunnel> previousTunnel;
        QMutexLocker locker(&m_mutex);
        m_pool = std::move(pool);
        m_runtime = runtime;
        previousTunnel = std::exchange(m_tunnel, {});
        locker.unlock();
        return {};
    });
}

QFuture<Availability> DockerLauncher::isAvailable()
{
    const DockerSettings current = settings();
    const QString folder = host() ? host()->runtimeDirectory() : QString();
    std::shared_ptr<EngineTunnel> tunnel;
    {
        QMutexLocker locker(&m_mutex);
        tunnel = m_tunnel;
    }
    return QtConcurrent::run([this, current, folder, tunnel]() -> Availability {
        if (current.isRemote()) {
            // The activation's connection when it holds: no second one.
            if (tunnel && tunnel->isRunning()) {
                const QString problem = check(tunnel->localSocket(), current.image, current.endpoint);
                return Availability{ problem.isEmpty(), problem.isEmpty() ? QString() : tunnel->explain(problem) };
            }
            const Status remote = checkRemote(current, folder);
            return Availability{ remote.ok(), remote.ok() ? QString() : remote.error().message };
        }
        QString why;
        const QString socket = discoverSocket(current.endpoint, &why);
        if (socket.isEmpty())
            return Availability{ false, why };
        if (const QString problem = check(socket, current.image); !problem.isEmpty())
            return Availability{ false, problem };
        Result<EngineRuntime::Offer> offer = EngineRuntime::read(DockerApi(socket), probeTimeoutMs);
        if (!offer.ok())
            return Availability{ false, offer.error().message };
        if (Result<EngineRuntime> runtime = EngineRuntime::choose(offer.value(), current.runtime, socket);
            !runtime.ok())
            return Availability{ false, runtime.error().message };
        return Availability{ true, {} };
    });
}

Result<std::shared_ptr<SandboxProcess>> DockerLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    std::shared_ptr<ContainerPool> pool;
    DockerSettings current;
    {
        QMutexLocker locker(&m_mutex);
        pool = m_pool;
        current = m_settings;
    }
    if (current.isRemote())
        return spawnRemote(request, policy, current);
    if (!pool)
        return Error{ kind(), tr("The Docker backend is not prepared; activate it first."), {} };
    const QString empty = QDir(host() ? host()->stateDirectory() : QDir::tempPath()).filePath(QStringLiteral("empty"));
    if (!QDir().mkpath(empty))
        return Error{ kind(), tr("Cannot create the folder %1.").arg(empty), {} };
    const QString helper = host() ? host()->proxyBridgeProgram() : QString();
    Result<ContainerSpec> spec
        = ContainerSpec::build(current, policy, request.effectiveWorkspace(), ::getuid(), ::getgid(), empty, helper);
    if (!spec.ok())
        return spec.error();
    ContainerSpec built = spec.value();
    if (!policy.credentials.isEmpty()) {
        if (!host())
            return Error{ QStringLiteral("policy.credentials"),
                          tr("This engine offers no credential injection; nothing was run."),
                          {} };
        Result<LauncherHost::CredentialSandbox> view
            = host()->credentialSandbox(policy, QString::fromLatin1(ContainerSpec::bundleTarget));
        if (!view.ok())
            return view.error();
        if (Status set = built.setCredentials(policy.credentials, policy.extraCaCertificates, view.value().bundlePath,
                                              view.value().environment);
            !set.ok())
            return set.error();
    }
    DockerProcess::AgentOpener openAgent;
    if (policy.sshAgent) {
        if (!host())
            return Error{ QStringLiteral("policy.sshAgent"),
                          tr("This engine offers no SSH agent; nothing was run."),
                          {} };
        LauncherHost *launcherHost = host();
        openAgent = [launcherHost, agent = *policy.sshAgent, command = request.argv.join(QLatin1Char(' '))](
                        const QString &directory, const QString &sandboxDirectory,
                        std::function<void(const Refusal &)> refused) {
            return launcherHost->openSshAgent(agent, command, directory, sandboxDirectory,
                                              QString::fromLatin1(ContainerSpec::helperTarget), std::move(refused));
        };
    }
    auto process = std::make_shared<DockerProcess>(pool, built, request, std::move(openAgent));
    process->start();
    return std::shared_ptr<SandboxProcess>(process);
}

Result<std::shared_ptr<SandboxProcess>> DockerLauncher::spawnRemote(const SpawnRequest &request, const Policy &policy,
                                                                    const DockerSettings &current)
{
    std::shared_ptr<EngineTunnel> tunnel;
    QString label;
    {
        QMutexLocker locker(&m_mutex);
        tunnel = m_tunnel;
        label = m_instanceLabel;
    }
    if (!tunnel)
        return Error{ kind(), tr("The Docker backend is not prepared; activate it first."), {} };
    if (!tunnel->isRunning())
        return Error{ QStringLiteral("endpoint"),
                      tunnel->explain(tr("The connection to the engine has ended.")) + QLatin1Char(' ')
                          + tr("Activate the backend again."),
                      {} };
    const QString helper = host() ? host()->proxyBridgeProgram() : QString();
    Result<ContainerSpec> spec = ContainerSpec::buildRemote(current, policy, request.effectiveWorkspace(), ::getuid(),
                                                            ::getgid(), helper, current.endpoint);
    if (!spec.ok())
        return spec.error();
    const QJsonObject labels = ContainerLeftovers::labels(label);
    const std::weak_ptr<EngineTunnel> weak = tunnel;
    auto linkLost = [weak](bool failed) -> QString {
        const std::shared_ptr<EngineTunnel> held = weak.lock();
        if (!held)
            return tr("the connection to the engine was closed when the backend was deactivated");
        constexpr int graceMs = 2000;
        // A way that holds may still have failed this connection (over TLS each is its own).
        if (failed ? held->isRunning(graceMs) : held->isRunning())
            return failed ? held->lastFailure() : QString();
        return held->explain(tr("the connection to the engine ended"));
    };
    // Under the allowlist network mode: a filtering proxy channel of the command's own,
    // forwarded to the remote host through the activation's connection.
    RemoteDockerProcess::ProxyOpener openProxy;
    if (LauncherHost *launcherHost = host(); launcherHost && spec.value().proxied())
        openProxy = [launcherHost, weak](const ContainerSpec &proxied) -> Result<RemoteDockerProcess::RemoteProxy> {
            Result<std::shared_ptr<ProxyChannel>> channel
                = launcherHost->openProxyChannel(proxied.allowedDomains(), proxied.deniedDomains(), {},
                                                 proxied.extraCaCertificates(), proxied.upstreamProxy());
            if (!channel.ok())
                return channel.error();
            const std::shared_ptr<EngineTunnel> way = weak.lock();
            if (!way)
                return Error{ QStringLiteral("endpoint"),
                              tr("the connection to the engine was closed when the backend was deactivated"),
                              {} };
            // Only an SSH connection has a way back to this computer (buildRemote() refuses the
            // allowlist on any other).
            const std::shared_ptr<SshTunnel> held = std::dynamic_pointer_cast<SshTunnel>(way);
            if (!held)
                return Error{ QStringLiteral("policy.network"),
                              tr("the filtering proxy is forwarded to engines reached over SSH only"),
                              {} };
            // The forward goes before the channel it leads to.
            struct Lease
            {
                std::shared_ptr<ProxyChannel> channel;
                std::unique_ptr<SshReverseForward> forward;
            };
            auto lease = std::make_shared<Lease>();
            lease->channel = channel.value();
            Result<std::unique_ptr<SshReverseForward>> forward = SshReverseForward::open(
                held, QDir(lease->channel->directory()).filePath(lease->channel->socketName()), probeTimeoutMs);
            if (!forward.ok())
                return forward.error();
            lease->forward = std::move(forward).value();
            return RemoteDockerProcess::RemoteProxy{ lease, lease->forward->remoteFolder(),
                                                     QString::fromLatin1(SshReverseForward::socketName),
                                                     lease->forward->remoteUser(),
                                                     [lease] { return lease->forward->isHolding(); } };
        };
    auto process = std::make_shared<RemoteDockerProcess>(DockerApi(tunnel->localSocket()), spec.value(), request,
                                                         policy, labels, tr("the engine at %1").arg(current.endpoint),
                                                         std::move(linkLost), std::move(openProxy),
                                                         [weak] { return std::shared_ptr<void>(weak.lock()); });
    process->start();
    return std::shared_ptr<SandboxProcess>(process);
}

QFuture<Status> DockerLauncher::disposeIdle()
{
    std::shared_ptr<ContainerPool> pool;
    std::shared_ptr<EngineTunnel> tunnel;
    {
        QMutexLocker locker(&m_mutex);
        pool = m_pool;
        // Deactivated, or switched away from: the way to a remote engine closes.
        tunnel = std::exchange(m_tunnel, {});
    }
    if (!pool)
        return QtFuture::makeReadyFuture(Status());
    return QtConcurrent::run([pool]() -> Status { return pool->removeAll(); });
}

} // namespace sandbox::power
