#pragma once

#include "ContainerLeftovers.h"
#include "ContainerSpec.h"
#include "DockerApi.h"
#include "DockerArchiveTransfer.h"
#include "ExecStreamProcess.h"
#include "core/workspace/WorkspaceSync.h"

#include <QJsonObject>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox::power {

// One command on an engine on another host (ContainerSpec::buildRemote()), in a container of
// its own that nothing of this computer is mounted into:
//   1. the container is created; the helper (sandbox-init) and the command's empty status
//      file are put into its helper volume (PUT archive), before it starts;
//   2. the workspace goes in through WorkspaceSync and DockerArchiveTransfer (its denied
//      paths never; a large upload reports progress);
//   3. the container starts and the command runs as an exec under sandbox-init's write gate,
//      which writes its status lines to the status file; its stream carries stdin, stdout and
//      stderr. Under the allowlist network mode a filtering proxy channel of the command's own
//      is forwarded to the remote host before the container is made (ProxyOpener), its remote
//      folder mounted read-only and relayed by the container's proxy bridge, which listens
//      before the command starts;
//   4. the status file is fetched (the refusals it reports are reported then), the workspace
//      comes back through WorkspaceSync (its conflict rule and notes), and the container is
//      removed with its volumes.
// kill() and terminate() remove the container, which ends everything in it; the proxy's forward
// and its remote folder go after the container. When the way to the engine (the SSH
// connection, say) ends, the command ends with status 255 and a note naming
// what failed; nothing waits on it. The exec stream is served by a worker thread; everything
// else runs in this object's thread, which needs an event loop.
class RemoteDockerProcess final : public ExecStreamProcess, private WorkspaceTransfer
{
    Q_OBJECT

public:
    // Empty while the way to the engine holds; otherwise what ended it, for the user.
    // `failed`: a request has just failed, so the way may be ending: worth a moment's wait.
    using LinkCheck = std::function<QString(bool failed)>;
    // The filtering proxy as the remote host sees it: a folder there holding `socketName`
    // alone, which `bridgeUser` (uid:gid) alone can connect to; it lasts while `lease` does.
    // `holding` says whether the forward still holds.
    struct RemoteProxy
    {
        std::shared_ptr<void> lease;
        QString folder;
        QString socketName;
        QString bridgeUser;
        std::function<bool()> holding;
    };
    // Opens the proxy for a proxied spec (on a worker thread): the policy's domain rules.
    using ProxyOpener = std::function<Result<RemoteProxy>(const ContainerSpec &spec)>;
    // The way to the engine while it still holds (empty when it does not), kept by the removal
    // of the container and the proxy after the command: a backend switched away from closes
    // it once its commands have ended, which must not cut those requests short.
    using ConnectionHold = std::function<std::shared_ptr<void>()>;

    // `remote` names the engine in notes ("the engine at ssh://…"); `labels` mark the container.
    RemoteDockerProcess(DockerApi api, ContainerSpec spec, SpawnRequest request, const Policy &policy,
                        QJsonObject labels, QString remote, LinkCheck linkLost, ProxyOpener openProxy = {},
                        ConnectionHold holdConnection = {});
    ~RemoteDockerProcess() override;

    void start();

    qint64 pid() const override { return 0; }
    void terminate() override;
    void kill() override;

    // The tar archive (ustar) put into the helper volume: `helper` as sandbox-init (root's,
    // 0555), the status folder (root's, 0755) and in it the empty file `statusName`, the
    // command's uid:gid's alone (0600), which sandbox-init opens for writing.
    static Result<QByteArray> helperArchive(const QString &helper, const QString &statusName, uint uid, uint gid);
    // Puts helperArchive() into the helper volume of the created container `containerId`; empty
    // on success, else what failed.
    static QString putHelper(const DockerApi &api, const QString &containerId, const QString &helper,
                             const QString &statusName, uint uid, uint gid, int timeoutMs);

private:
    struct Created
    {
        QString containerId;
        QString error;
        std::optional<RemoteProxy> proxy;
    };

    void send(const QString &archive, Progress progress, Done done) override;
    void fetch(Sink sink, Done done) override;
    // Creates the container and puts the helper in (a worker thread's part).
    static Created create(const DockerApi &api, ContainerSpec spec, const QJsonObject &labels, const QString &name,
                          const QString &statusName, const LinkCheck &linkLost, const ProxyOpener &openProxy);
    void created(const Created &result);
    void run();
    void stream(int fd, QByteArray pending);
    void readStatus(const QByteArray &lines);
    void commandEnded(const ExitStatus &status, const QString &lost);
    // How the command ended when kill() or terminate() came: removed with its container.
    std::optional<ExitStatus> endedBySignal() const;
    // What failed, with the way to the engine's own explanation when that has ended.
    QString explain(const QString &what) const;
    void fail(const QString &why);
    void finish(const ExitStatus &status);
    void removeContainer();

    DockerApi m_api;
    ContainerSpec m_spec;
    SpawnRequest m_request;
    QJsonObject m_labels;
    QString m_remote;
    LinkCheck m_linkLost;
    ProxyOpener m_openProxy;
    ConnectionHold m_holdConnection;
    std::optional<RemoteProxy> m_proxy; // object thread only
    QString m_statusName;
    WorkspaceSync m_sync;
    std::unique_ptr<DockerArchiveTransfer> m_transfer;
    QString m_containerId; // set before the worker starts
    // Held from start() until the container's removal has been asked for: then a container the
    // engine could not remove (the connection died) is a leftover to sweep.
    std::shared_ptr<const ContainerLeftovers::Hold> m_hold;
    bool m_ended = false; // object thread only
    bool m_commandRan = false; // object thread only
};

} // namespace sandbox::power
