#pragma once

#include "core/launcher/SandboxProcess.h"

#include <QProcess>

namespace sandbox::test {

// A SandboxProcess that runs the command directly on the host with QProcess; it starts at
// construction, or `startDelayMs` later (as a container or VM takes a while to come up).
// Only the test launchers use it (the core tests' fault-injecting launcher and the GUI
// test pack's): it is how they run real processes without confinement, which no launcher
// of the product ever does.
class UnconfinedProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    explicit UnconfinedProcess(const SpawnRequest &request, const QMap<QString, QString> &extraEnv = {},
                               int startDelayMs = 0);
    ~UnconfinedProcess() override;

    qint64 pid() const override;
    bool isRunning() const override;
    ExitStatus exitStatus() const override;
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

private:
    void endBeforeStart(int signal);

    QProcess m_process;
    ExitStatus m_exit;
    bool m_finished = false;
    int m_lastSignal = 9;
    bool m_startPending = false;
};

} // namespace sandbox::test
