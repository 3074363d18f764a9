#pragma once

#include "E2bProcess.h"
#include "core/workspace/WorkspaceSync.h"

#include <QPointer>

#include <memory>

namespace sandbox::power {

// A command with the workspace round trip of WorkspaceSync: its archive is sent with envd's
// file API and unpacked into the sandbox's copy of the workspace, the command runs there,
// and the copy comes back as an archive fetched with the file API. The sandbox needs
// /bin/sh and tar. Stdin, kill and terminate reach the command itself.
class E2bWorkspaceProcess final : public SandboxProcess, private WorkspaceTransfer
{
    Q_OBJECT

public:
    E2bWorkspaceProcess(std::shared_ptr<E2bSandboxPool> pool, bool internet, SpawnRequest request,
                        const Policy &policy);
    ~E2bWorkspaceProcess() override;

    void start();

    qint64 pid() const override { return 0; }
    bool isRunning() const override;
    ExitStatus exitStatus() const override;
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

    // The sandbox folder of a host workspace, relative to the sandbox user's home.
    static QString remoteFolder(const QString &hostRoot);

private:
    void send(const QString &archive, Progress progress, Done done) override;
    void fetch(Sink sink, Done done) override;
    void leased(const Result<E2bSandboxPool::Lease> &lease);
    void post();
    void sent();
    void upload();
    void fetched();
    void removeRemote(const QString &name);
    void runCommand(const QString &remoteDir);
    void fetchArchive();
    void fetchFailed(const QString &why);
    void abandon();
    std::shared_ptr<E2bProcess> step(const QStringList &argv, const QString &cwd);
    void fail(const QString &why);
    void finish(const ExitStatus &status);
    void keepAlive();

    std::shared_ptr<E2bSandboxPool> m_pool;
    bool m_internet = false;
    SpawnRequest m_request;
    WorkspaceSync m_sync;
    QString m_archive;
    Progress m_progress;
    Done m_done;
    Sink m_sink;
    std::shared_ptr<E2bProcess> m_step;
    std::shared_ptr<E2bProcess> m_command;
    QString m_remoteDir;
    QString m_sandboxId;
    E2bSandbox m_sandbox;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_transfer;
    QString m_uploadName; // relative to the sandbox user's home
    QString m_downloadName;
    bool m_replaced = false;
    bool m_sinkFull = false;
    QByteArray m_collected;
    QByteArray m_errors;
    QByteArray m_stdin;
    bool m_closeStdin = false;
    bool m_killed = false;
    bool m_ended = false;
    ExitStatus m_commandStatus;

    mutable QMutex m_mutex;
    bool m_running = false;
    ExitStatus m_exit;
};

} // namespace sandbox::power
