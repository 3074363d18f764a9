#pragma once

#include "ContainerPool.h"
#include "DockerSettings.h"
#include "EngineRuntime.h"
#include "core/launcher/Launcher.h"

#include <QCoreApplication>
#include <QMutex>

#include <memory>
#include <optional>

namespace sandbox::power {

class EngineTunnel;

// atom-pack:power-pack:docker — commands run in a container of a Docker-compatible
// runtime (Docker Engine, or Podman's Docker-compatible service) reached over the Docker
// Engine API on its unix socket. prepare() checks the runtime, the image and the OCI runtime
// (the runtime setting, else the engine's default), running sandbox-init's write gate under
// it once; every command is an exec into a warm container of this activation; disposeIdle()
// removes them. An engine on another host, reached over SSH (ssh://) or TLS (tcp://), is
// reached through one EngineTunnel (SshTunnel, TlsTunnel) kept from prepare() to
// disposeIdle(), and each command there is a RemoteDockerProcess: a container of its own, the
// workspace synced in and back.
class DockerLauncher final : public Launcher
{
    Q_DECLARE_TR_FUNCTIONS(DockerLauncher)

public:
    // The lowest Docker Engine API version the launcher relies on.
    static constexpr double minimumApiVersion = 1.40;

    DockerLauncher();
    ~DockerLauncher() override;

    QString kind() const override { return QStringLiteral("docker"); }
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

    // The socket the settings lead to: the endpoint setting, else DOCKER_HOST, else
    // /var/run/docker.sock, else the user's Podman socket. Empty with `why` when none.
    static QString discoverSocket(const QString &endpoint, QString *why);
    // Empty when the runtime at `socket` serves the API and holds `image`; otherwise why not,
    // naming the runtime `shownAs` (empty: the socket).
    static QString check(const QString &socket, const QString &image, const QString &shownAs = {});

private:
    DockerSettings settings() const;
    // Which kernel enforces the confinement: the chosen OCI runtime's, once prepare() found it.
    QString runtimeClaim() const;
    // The claims that differ on a remote endpoint (ContainerSpec::buildRemote()'s shape).
    void claimRemote(QMap<QString, QString> &claims) const;
    // The way to a remote endpoint's engine, its socket in `folder`: ssh:// through ssh,
    // tcp:// over TLS (plain TCP to loopback hosts only).
    static Result<std::unique_ptr<EngineTunnel>> openTunnel(const DockerSettings &current, const QString &folder);
    // A remote endpoint: reached through a tunnel whose socket lies in `folder`, and checked as
    // a local one is; what fails says what (DNS, host key, authentication, TLS verification,
    // the client certificate, the remote socket, the image, the runtime). On success the
    // tunnel goes to `kept` (else it closes) and the OCI runtime chosen to `chosen`.
    Status checkRemote(const DockerSettings &current, const QString &folder,
                       std::shared_ptr<EngineTunnel> *kept = nullptr, std::optional<EngineRuntime> *chosen = nullptr);
    // Removes the containers that earlier commands of this computer left on the engine
    // (ContainerLeftovers), saying so in an activation note.
    void sweepLeftovers(const DockerApi &api, const QString &shownAs);
    Result<std::shared_ptr<SandboxProcess>> spawnRemote(const SpawnRequest &request, const Policy &policy,
                                                        const DockerSettings &current);

    mutable QMutex m_mutex;
    DockerSettings m_settings;
    std::shared_ptr<ContainerPool> m_pool;
    std::optional<EngineRuntime> m_runtime; // what prepare() found
    // A remote endpoint's way to its engine, from prepare() until disposeIdle() (deactivation,
    // switching away) or the next prepare().
    std::shared_ptr<EngineTunnel> m_tunnel;
    QString m_instanceLabel;
};

} // namespace sandbox::power
