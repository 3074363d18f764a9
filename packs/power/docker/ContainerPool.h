#pragma once

#include "ContainerLeftovers.h"
#include "ContainerSpec.h"
#include "DockerApi.h"
#include "core/launcher/ProxyChannel.h"

#include <QCoreApplication>
#include <QHash>
#include <QMutex>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox::power {

// The warm containers of one launcher instance, one per distinct ContainerSpec (in
// practice one per workspace, network mode, domain rules, credentials, upstream proxy, and
// whether the policy has an SSH agent): created and started on first use, every later
// command is an exec into it. Labelled so they can be told apart from the
// user's own containers. A proxied container holds a filtering proxy channel of its own,
// closed when the container is removed. Thread-safe; shared by the launcher and its
// processes.
class ContainerPool final
{
    Q_DECLARE_TR_FUNCTIONS(ContainerPool)

public:
    static constexpr int requestTimeoutMs = 30000;

    using ChannelOpener = std::function<Result<std::shared_ptr<ProxyChannel>>(
        const QStringList &allowedDomains, const QStringList &deniedDomains, const QList<PolicyCredential> &credentials,
        const QStringList &extraCaCertificates, const std::optional<PolicyUpstreamProxy> &upstreamProxy)>;

    // A running container: its id, and the host folder (owner-only, mounted read-only at
    // ContainerSpec::statusTarget) where each command's status FIFO is made.
    struct Instance
    {
        QString id;
        QString statusDirectory;
    };

    // `statusRoot`: an owner-only host folder of the engine's that holds the containers'
    // status folders. `runtime`: the OCI runtime activation measured (EngineRuntime), which
    // the claims name: a container the engine makes under another is removed and refused.
    ContainerPool(DockerApi api, QString instanceLabel, QString statusRoot, ChannelOpener openChannel = {},
                  QString runtime = {});
    // What disposeIdle() did not remove (the engine ended first) is removed here.
    ~ContainerPool();

    const DockerApi &api() const { return m_api; }
    // The running container for `spec`, created and started if there is none yet.
    Result<Instance> containerFor(const ContainerSpec &spec);
    // Removes the container `id` (and anything still running in it) and forgets it, so the
    // next command of its spec gets a new one: for a container that may hold what a command
    // left beyond its sandbox-init's reach.
    void discard(const QString &id);
    // Removes every container of this pool (and anything still running in it); those that
    // could not be removed stay listed for the next attempt.
    Status removeAll(int timeoutMs = requestTimeoutMs);
    // Runs `argv` as `user` in the running container `id` to its end, and returns its exit code.
    static Result<int> execute(const DockerApi &api, const QString &id, const QStringList &argv, const QString &user);

private:
    struct Container
    {
        QString id;
        QString statusDirectory;
        std::shared_ptr<ProxyChannel> channel; // proxied containers only
        std::shared_ptr<const ContainerLeftovers::Hold> hold; // no sweep removes it while held
    };

    // Force-removes `container` (what runs in it too) and its status folder; empty on
    // success (or when the runtime no longer has it), else what the runtime said.
    QString remove(const Container &container, int timeoutMs);

    DockerApi m_api;
    QString m_instanceLabel;
    QString m_statusRoot;
    ChannelOpener m_openChannel;
    QString m_runtime;
    mutable QMutex m_mutex;
    QHash<QString, Container> m_containers; // by spec key
};

} // namespace sandbox::power
