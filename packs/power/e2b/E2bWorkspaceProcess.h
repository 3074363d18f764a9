#pragma once

#include "E2bProcess.h"
#include "E2bWorkspace.h"

#include <QProcess>

#include <memory>

namespace sandbox::power {

// A command with the workspace round trip: the host workspace (without its denied paths)
// is archived and unpacked into the sandbox's copy of it, the command runs there, and the
// copy comes back as an archive whose regular files E2bWorkspace writes to the host. Each
// step is a process in the sandbox; stdin, kill and terminate reach the command itself.
class E2bWorkspaceProcess final : public SandboxProcess
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
    void archived();
    void upload(const QByteArray &archive);
    void runCommand(const QString &remoteDir);
    void download();
    void bringBack(const ExitStatus &download);
    void notBroughtBack(const QString &why);
    std::shared_ptr<E2bProcess> step(const QStringList &argv, const QString &cwd);
    void fail(const QString &why);
    void finish(const ExitStatus &status);
    void keepAlive();

    std::shared_ptr<E2bSandboxPool> m_pool;
    bool m_internet = false;
    SpawnRequest m_request;
    E2bWorkspace m_workspace;
    QProcess m_tar;
    std::shared_ptr<E2bProcess> m_step;
    std::shared_ptr<E2bProcess> m_command;
    QString m_remoteDir;
    QString m_sandboxId;
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
