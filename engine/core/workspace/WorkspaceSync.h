#pragma once

#include "core/workspace/SyncedWorkspace.h"
#include "core/workspace/WorkspaceTransfer.h"
#include "protocol/SpawnRequest.h"

#include <QObject>
#include <QProcess>
#include <QTemporaryFile>

namespace sandbox {

// The workspace round trip of one command on a backend that cannot share the host's files
// (a remote sandbox or engine): before the command the host workspace, without the
// policy's denied paths, is archived into a temporary file and sent with the backend's
// WorkspaceTransfer; after it, the remote copy comes back as an archive into a temporary
// file, from which SyncedWorkspace writes what the policy, the repository rules and the
// conflict rule let back. Archives go file to transfer and transfer to file: memory stays
// bounded by what one chunk needs. Notes for the command's stderr ("sandbox: ...") say
// what was not brought back, which files conflicted, and how a large upload progresses.
class WorkspaceSync final : public QObject
{
    Q_OBJECT

public:
    // Uploads at least this large report their progress.
    static constexpr qint64 progressBytes = 16ll * 1024 * 1024;

    // `remote` names the other side in messages ("the remote sandbox").
    WorkspaceSync(QString root, const Policy &policy, WorkspaceTransfer &transfer, QString remote,
                  QObject *parent = nullptr);
    ~WorkspaceSync() override;

    const SyncedWorkspace &workspace() const { return m_workspace; }

    // Records the host's files, archives the workspace and sends it: uploaded() or uploadFailed().
    void upload();
    // Fetches the remote copy and writes it back; broughtBack() with the status the command's
    // result should have (`command`'s, or 255 when nothing could be brought back).
    void bringBack(const ExitStatus &command);
    // Stops the archiving tar, if it runs: uploadFailed() follows.
    void abort();

signals:
    void uploaded();
    void uploadFailed(const QString &why);
    void note(const QByteArray &line);
    void broughtBack(const sandbox::ExitStatus &status);

private:
    void archived();
    void sendProgress(qint64 sent);
    void fetched(const QString &error);
    void notBroughtBack(const QString &why);

    SyncedWorkspace m_workspace;
    WorkspaceTransfer &m_transfer;
    QString m_remote;
    QProcess m_tar;
    QTemporaryFile m_upload;
    QTemporaryFile m_download;
    qint64 m_uploadSize = 0;
    int m_progressQuarter = 0;
    bool m_tooLarge = false;
    bool m_aborted = false;
    ExitStatus m_command;
};

} // namespace sandbox
