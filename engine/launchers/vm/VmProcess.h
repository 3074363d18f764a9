#pragma once

#include "core/launcher/SandboxProcess.h"

#include <QTimer>

#include <memory>

namespace sandbox {

class VmMachine;

// A command running inside a VM, through the guest exec agent. Lives in the thread that
// spawned it; talks to its VmMachine (in the VM backend's I/O thread) with queued calls.
class VmProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    VmProcess(std::shared_ptr<VmMachine> machine, quint32 id);
    ~VmProcess() override;

    // The command's filtering SSH agent, before begin(): its socket on the host (the guest's
    // agent connections go there), what keeps it serving, and the host folder it and the SSH
    // configuration are in. All three go when the command ends.
    void setAgent(const QString &agentSocket, std::shared_ptr<const void> lease, const QString &folder);
    // Hands the spawn to the machine (called once, right after construction).
    void begin(const QByteArray &spawnPayload, const std::shared_ptr<VmProcess> &self);

    qint64 pid() const override { return m_hostPid; }
    bool isRunning() const override { return m_running; }
    ExitStatus exitStatus() const override { return m_exit; }
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

    // A frame from the agent for this command (in this object's thread).
    void deliver(quint8 type, const QByteArray &payload);

private:
    void signal(int number);
    void end(const ExitStatus &status);
    void releaseAgent();

    std::shared_ptr<VmMachine> m_machine;
    quint32 m_id;
    qint64 m_hostPid = 0;
    bool m_running = true;
    bool m_started = false;
    bool m_killRequested = false;
    ExitStatus m_exit;
    QTimer m_graceTimer;
    QString m_agentSocket;
    std::shared_ptr<const void> m_agentLease;
    QString m_agentFolder;
};

} // namespace sandbox
