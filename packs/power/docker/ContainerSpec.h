#pragma once

#include "DockerSettings.h"
#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QMap>
#include <QStringList>

#include <optional>

namespace sandbox::power {

// The container a policy asks for, for one workspace: what is mounted, how, and with
// which limits. Two commands whose specs have the same key share one warm container.
//   - the image's root filesystem read-only; a private /tmp (tmpfs)
//   - the workspace bind-mounted read-write at the same path, other writable paths that
//     exist likewise; the policy's read-only paths inside them, and the existing control
//     files of the repository at the root of each (core/workspace/RepositoryRules.h), mounted
//     read-only on top
//   - a denied folder inside a mounted path is covered by an empty folder, read-only; a
//     denied file there, or a mounted path inside a denied one, refuses the spawn
//   - nothing else of the host: no runtime socket, no session bus, no host execution channel
//   - the OCI runtime the settings name (HostConfig.Runtime), else the engine's default
//   - the caller's uid:gid, CapDrop ALL, no-new-privileges, the pids/memory/CPU limits
//   - the engine's static helper (sandbox-init) as the container's first process and, read-
//     only, as every command's parent: `--gate` runs the command under its write gate, with
//     the writable mounts as the guarded roots (gateArguments()), reporting on a FIFO in a
//     per-container status folder mounted read-only
//   - network none without a network; allowlist without a network too, but with the
//     engine's proxy bridge (read-only) as the container's pid 1, relaying 127.0.0.1:3128
//     to a filtering proxy channel whose own directory is mounted read-only (chained to the
//     policy's upstream proxy when it names one); full on the runtime's default network
class ContainerSpec final
{
    Q_DECLARE_TR_FUNCTIONS(ContainerSpec)

public:
    // Where an allowlist container holds the bridge program, the proxy channel's
    // directory, and the port its commands reach the proxy on.
    static constexpr const char *helperTarget = "/run/sandbox-studio/sandbox-init";
    static constexpr const char *proxyTarget = "/run/sandbox-studio/proxy";
    static constexpr const char *statusTarget = "/run/sandbox-studio/status";
    // The remote shape's volume holding the helper (helperTarget) and the status files
    // (statusTarget), read-only to every command through the write gate.
    static constexpr const char *remoteFolder = "/run/sandbox-studio";
    // Where a container whose policy has credentials reads the engine's certificate bundle
    // (also mounted over the system's bundle, systemBundleTarget).
    static constexpr const char *bundleTarget = "/run/sandbox-studio/ca-bundle.pem";
    static constexpr const char *systemBundleTarget = "/etc/ssl/certs/ca-certificates.crt";
    static constexpr int proxyPort = 3128;

    // `emptyFolder`: an empty host folder, mounted over denied folders (a tmpfs would not
    // do: Podman copies what it covers into it). `helperProgram`: the engine's static helper
    // (sandbox-init), the container's first process (the proxy bridge under the allowlist
    // network mode, else it only holds the container up) and every command's write gate;
    // without it nothing runs.
    static Result<ContainerSpec> build(const DockerSettings &settings, const Policy &policy, const QString &workspace,
                                       uint uid, uint gid, const QString &emptyFolder, const QString &helperProgram);

    // The shape for an engine on another host, reached over SSH or TLS (`endpoint`, named in
    // refusals): only the workspace is writable (a volume, synced), under the write gate as
    // locally; under the allowlist network mode the proxy bridge relays to the filtering
    // proxy's socket forwarded to that host over SSH (createBody()'s `proxyDirectory` is the
    // remote folder holding it), chained to the policy's upstream proxy when it names one. A
    // policy the shape cannot hold to is refused: credentials, an SSH agent, and over TLS
    // (which has no way back to this computer) the allowlist and an upstream proxy.
    static Result<ContainerSpec> buildRemote(const DockerSettings &settings, const Policy &policy,
                                             const QString &workspace, uint uid, uint gid, const QString &helperProgram,
                                             const QString &endpoint);

    bool remote() const { return m_remote; }
    QString helperProgram() const { return m_helperProgram; }
    QString workspace() const { return m_workspace; }
    QString user() const { return m_user; }
    bool proxied() const { return m_proxied; }
    QStringList allowedDomains() const { return m_allowedDomains; }
    QStringList deniedDomains() const { return m_deniedDomains; }
    QList<PolicyCredential> credentials() const { return m_credentials; }
    QStringList extraCaCertificates() const { return m_extraCaCertificates; }
    // The policy's upstream proxy (proxied() specs only): the container's proxy channel
    // reaches every allowed host through it.
    std::optional<PolicyUpstreamProxy> upstreamProxy() const { return m_upstreamProxy; }
    // The policy's credentials: the bundle `bundlePath` on the host is mounted (bundleTarget,
    // systemBundleTarget), `environment` (placeholders, bundle variables) given to every
    // command last. Refused when the bundle's path cannot be mounted.
    Status setCredentials(const QList<PolicyCredential> &credentials, const QStringList &extraCaCertificates,
                          const QString &bundlePath, const QMap<QString, QString> &environment);
    // Two specs with one key make the same container (the OCI runtime, the domain rules,
    // credentials and upstream proxy included: each has its own proxy channel).
    QString key() const;
    // The body of POST /containers/create; `labels` mark what this launcher created;
    // `statusDirectory` is the host folder of the commands' status FIFOs; `proxyDirectory`
    // is the proxy channel's directory (proxied() specs only), holding `proxySocket`.
    QJsonObject createBody(const QJsonObject &labels, const QString &statusDirectory = {},
                           const QString &proxyDirectory = {}, const QString &proxySocket = {}) const;
    // The exec's command line for `argv`: sandbox-init's write gate guarding the writable
    // mounts and the read-only and denied paths inside them, reporting on the FIFO
    // `statusName` of the container's status folder, `statusDirectory` on the host (read-only
    // to the command under that path too, should a writable mount hold it). With `agentName`
    // (the command's SSH agent socket in that folder) sandbox-init makes every connect() of
    // the command, and that socket is the one unix socket it reaches.
    QStringList gateArguments(const QStringList &argv, const QString &statusName, const QString &statusDirectory,
                              const QString &agentName = {}) const;
    // The policy offers a filtering SSH agent: each command gets its own socket in the
    // container's status folder, and every command of such a container runs with connect()
    // supervised (so no command reaches another's agent).
    bool sshAgent() const { return m_sshAgent; }
    // The uid:gid of the container's first process (the proxy bridge), when it is not the
    // commands' user(): remotely, the owner of the forwarded socket, who alone can connect.
    void setBridgeUser(const QString &user) { m_bridgeUser = user; }
    // The variables a proxied container's commands get last, pointing every tool at the
    // bridge (and nowhere else).
    QStringList proxyEnvironment() const;

private:
    // What local and remote containers take alike from the settings, the policy and the caller.
    void setBasics(const DockerSettings &settings, const Policy &policy, const QString &workspace, uint uid, uint gid);

    QString m_image;
    QString m_runtime; // HostConfig.Runtime; empty: the engine's default
    QString m_workspace;
    QString m_user;
    QString m_bridgeUser;
    QStringList m_binds;
    QStringList m_guarded; // the writable mounts, whose repositories the write gate guards
    QStringList m_readOnly; // the policy's read-only paths inside them, existing or not
    QStringList m_denied; // the denied folders inside them (covered by an empty one)
    bool m_network = false;
    bool m_proxied = false;
    bool m_sshAgent = false;
    bool m_remote = false;
    QString m_helperProgram;
    QStringList m_allowedDomains;
    QStringList m_deniedDomains;
    QList<PolicyCredential> m_credentials;
    QStringList m_extraCaCertificates;
    std::optional<PolicyUpstreamProxy> m_upstreamProxy;
    QString m_bundlePath;
    QStringList m_credentialEnvironment;
    qint64 m_memoryBytes = 0;
    qint64 m_nanoCpus = 0;
    qint64 m_pidsLimit = 0;
};

} // namespace sandbox::power
