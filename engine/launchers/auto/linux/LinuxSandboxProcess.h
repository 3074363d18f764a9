#pragma once

#include "core/SandboxProcess.h"
#include "protocol/HostInteraction.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QPointer>
#include <QProcess>
#include <QSocketNotifier>

#include <functional>
#include <memory>

namespace sandbox {

// A command confined by sandbox-init. The configuration reaches sandbox-init through a
// sealed memfd on fd 3 (never a file another process could swap); sandbox-init reports
// "started", "error", "exit" and "signal" lines on fd 4.
class LinuxSandboxProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    // Builds sandbox-init's configuration; the argument says whether host execution
    // channels are exposed (hostExecution allow, or ask answered yes).
    using ConfigBuilder = std::function<Result<QByteArray>(bool exposeHostExecution)>;

    // SpawnRequest::timeoutMs is not handled here: the engine owns the timeout for every
    // launcher and ends the process through kill().
    LinuxSandboxProcess(QString initPath, QString where, ConfigBuilder builder, std::function<void()> onEnded,
                        QObject *parent = nullptr);
    ~LinuxSandboxProcess() override;

    // Starts at once (from the event loop, so callers can connect first).
    void startWith(bool exposeHostExecution);
    // Starts once `answer` resolves: accepted exposes host execution, anything else
    // (refusal, no presenter) denies it.
    void startAfter(QFuture<HostInteractionResponse> answer);

    qint64 pid() const override;
    bool isRunning() const override;
    ExitStatus exitStatus() const override { return m_exit; }
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;
    void deliverSignal(ProcessSignal signal) override;

    static constexpr int kTerminateGraceMs = 3000;
    static constexpr int kKillFallbackMs = 2000;

private:
    enum class State { Pending, Starting, Running, Ended };

    void launch(bool exposeHostExecution);
    // Connects to m_process and m_statusFd.
    void watchProcess();
    // What the caller queued for stdin before the process existed.
    void afterStart();
    bool readStatus(); // true when it read something
    void onProcessFinished();
    // A `refused KIND WHAT` line of sandbox-init's supervisors, as a refusal of this command.
    void reportRefusal(const QString &kind, const QString &what);
    // As many as sandbox-init reports at most (ConnectSupervisor::kMaxReportedRefusals).
    static constexpr int kMaxReportedRefusals = 64;
    void endWithoutStart(const QString &message);
    void endBeforeStart(int signal);

    QString m_initPath;
    QString m_where;
    ConfigBuilder m_builder;
    std::function<void()> m_onEnded;
    State m_state = State::Pending;
    QProcess *m_process = nullptr;
    QSocketNotifier *m_statusNotifier = nullptr;
    int m_statusFd = -1;
    QByteArray m_statusBuffer;
    QString m_setupError;
    bool m_haveExit = false;
    int m_reportedRefusals = 0; // refusals sandbox-init's supervisors reported (bounded)
    ExitStatus m_exit;
    bool m_killRequested = false;
    QByteArray m_pendingStdin;
    bool m_pendingClose = false;
    QFutureWatcher<HostInteractionResponse> *m_answerWatcher = nullptr;
};

} // namespace sandbox
