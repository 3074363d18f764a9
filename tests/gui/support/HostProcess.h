#pragma once

#include "core/SandboxProcess.h"

#include <QProcess>

namespace sandbox::test {

// A plain host process behind the SandboxProcess interface: the GUI test pack's launchers
// run real commands (unconfined: they exist to drive Studio, and their descriptors say so).
class HostProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    explicit HostProcess(const SpawnRequest &request, QObject *parent = nullptr);
    ~HostProcess() override;

    void start();
    qint64 pid() const override;
    bool isRunning() const override;
    ExitStatus exitStatus() const override;
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

private:
    SpawnRequest m_request;
    QProcess m_process;
    ExitStatus m_exit;
    bool m_finished = false;
};

} // namespace sandbox::test
