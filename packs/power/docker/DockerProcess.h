#pragma once

#include "ContainerPool.h"
#include "ExecStreamProcess.h"
#include "core/launcher/Launcher.h"

#include <memory>

namespace sandbox::power {

// One command run as an exec in a warm container, under sandbox-init's write gate (which
// reports what it refuses on a FIFO of the command's own, read here). A worker thread does the blocking
// parts (container on first use, exec create/start, the multiplexed stream); signals are
// delivered in the thread the object lives in. Every process of the command carries a tag
// in its environment, so kill() and the command's end reach all of them, also those
// that left the command's process tree.
class DockerProcess final : public ExecStreamProcess
{
    Q_OBJECT

public:
    // Opens the command's SSH agent in the container's status folder (`directory` on the host,
    // `sandboxDirectory` inside), telling `refused` of what it refuses (LauncherHost::openSshAgent).
    using AgentOpener = std::function<Result<LauncherHost::SshAgentSandbox>(
        const QString &directory, const QString &sandboxDirectory, std::function<void(const Refusal &)> refused)>;

    // `openAgent` is used when the spec has an SSH agent (ContainerSpec::sshAgent()).
    DockerProcess(std::shared_ptr<ContainerPool> pool, ContainerSpec spec, SpawnRequest request,
                  AgentOpener openAgent = {});
    ~DockerProcess() override;

    void start();

    qint64 pid() const override;

private:
    void run();
    void stream(int fd, QByteArray pending);
    // Takes in what sandbox-init has reported on the status FIFO so far; false at its end.
    bool readStatus();
    void endAll(int signal);
    void fail(const Error &error);
    void finish(const ExitStatus &status);

    std::shared_ptr<ContainerPool> m_pool;
    ContainerSpec m_spec;
    SpawnRequest m_request;
    AgentOpener m_openAgent;
    QString m_tag;
    int m_statusFd = -1; // the read end of the command's status FIFO (worker thread only)
    QByteArray m_statusBuffer;
    unsigned m_reportedRefusals = 0;
    bool m_initEnded = false; // sandbox-init reported the command's end (worker thread only)

    // Guarded by m_mutex.
    qint64 m_pid = 0;
    QString m_containerId;
    bool m_ended = false;
};

} // namespace sandbox::power
