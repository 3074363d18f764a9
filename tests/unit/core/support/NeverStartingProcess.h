#pragma once

#include "core/launcher/SandboxProcess.h"

namespace sandbox::test {

// A sandbox whose start never completes: no started(), no output, until kill() ends it.
class NeverStartingProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    using SandboxProcess::SandboxProcess;

    qint64 pid() const override { return 0; }
    bool isRunning() const override { return m_running; }
    ExitStatus exitStatus() const override { return m_status; }
    void writeStdin(const QByteArray &) override { }
    void closeStdin() override { }
    void terminate() override { kill(); }
    void kill() override;

private:
    bool m_running = true;
    ExitStatus m_status;
};

} // namespace sandbox::test
