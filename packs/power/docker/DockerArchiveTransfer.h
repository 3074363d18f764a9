#pragma once

#include "DockerApi.h"
#include "core/workspace/WorkspaceTransfer.h"

#include <QObject>

namespace sandbox::power {

// The workspace's way into a container of a remote engine and back, for WorkspaceSync: the
// archive goes with PUT /containers/<id>/archive into the container's copy of the workspace
// (a volume: the container's root filesystem stays read-only) and comes back with GET of
// its contents. The blocking requests run on worker threads; their results and the archive's
// chunks reach the callbacks in this object's thread. It must outlive the calls it serves.
class DockerArchiveTransfer final : public QObject, public WorkspaceTransfer
{
    Q_OBJECT

public:
    // Requests for one archive may take this long (a large workspace over a slow link).
    static constexpr int transferTimeoutMs = 10 * 60 * 1000;

    DockerArchiveTransfer(DockerApi api, QString containerId, QString remoteRoot, QObject *parent = nullptr);

    void send(const QString &archive, Progress progress, Done done) override;
    void fetch(Sink sink, Done done) override;

private:
    QString archivePath(const QString &path) const;

    DockerApi m_api;
    QString m_containerId;
    QString m_remoteRoot;
};

} // namespace sandbox::power
