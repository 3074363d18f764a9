#pragma once

#include "core/launcher/SandboxProcess.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include <functional>

namespace sandbox {

// A command confined by a program that confines what it runs (sandbox-exec on macOS,
// sandbox-init.exe on Windows), run with QProcess: stdin, stdout and stderr are the
// command's. `ended` runs once the program has ended (or failed to start), before finished
// or failedToStart, and may turn the exit into an error (a helper's "the command was not
// run"); `ended` also releases what the run needed (a proxy bridge, a plan file).
class ProgramProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    // Returns an error when the program ended without running the command.
    using Ended = std::function<std::optional<Error>(const ExitStatus &status)>;

    ProgramProcess(QString program, QStringList arguments, QProcessEnvironment environment, QString workingDirectory,
                   QString where, Ended ended, QObject *parent = nullptr);
    ~ProgramProcess() override;

    // Starts from the event loop, so that callers can connect first.
    void start();

    qint64 pid() const override;
    bool isRunning() const override;
    ExitStatus exitStatus() const override { return m_exit; }
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

    static constexpr int kTerminateGraceMs = 3000;

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void end(const ExitStatus &status, std::optional<Error> error);

    QProcess m_process;
    QString m_program;
    QStringList m_arguments;
    QString m_where;
    Ended m_ended;
    ExitStatus m_exit;
    bool m_started = false;
    bool m_done = false;
    int m_signalSent = 0;
    QTimer m_killTimer;
};

} // namespace sandbox
