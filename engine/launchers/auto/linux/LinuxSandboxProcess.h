#pragma once

#include "core/launcher/SandboxProcess.h"
#include "protocol/HostInteraction.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QPointer>
#include <QProcess>
#include <QSocketNotifier>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

// A command confined by sandbox-init. The configuration reaches sandbox-init through a
// sealed memfd on fd 3 (never a file another process could swap); sandbox-init reports
// "started", "error", "exit" and "signal" lines on fd 4. A command with a terminal gets a
// new one from sandbox-init, which passes its master side back over fd 4 (then a unix
// socket) and keeps no copy: the command's input, output and size go through it here.
class LinuxSandboxProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    // Builds sandbox-init's configuration; the argument says whether host execution
    // channels are exposed (hostExecution allow, or ask answered yes).
    using ConfigBuilder = std::function<Result<QByteArray>(bool exposeHostExecution)>;

    // SpawnRequest::timeoutMs is not handled here: the engine owns the timeout for every
    // launcher and ends the process through kill().
    // `terminal`: the configuration asks sandbox-init for a terminal.
    LinuxSandboxProcess(QString initPath, QString where, ConfigBuilder builder, std::function<void()> onEnded,
                        bool terminal = false, QObject *parent = nullptr);
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
    void resizeTerminal(const TerminalSize &size) override;

    // The command's calls sandbox-init answered (seccomp user notification: the write gate,
    // chmod and utimes, connect) and the time answering them took in sandbox-init, as its
    // `supervised` line reported; known once finished() was emitted, zero when none were.
    struct Supervision
    {
        qint64 calls = 0;
        qint64 microseconds = 0;
    };
    Supervision supervision() const { return m_supervision; }

    static constexpr int kTerminateGraceMs = 3000;

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
    // The terminal's master side, as sandbox-init passed it.
    void adoptTerminal(int masterFd);
    bool readTerminal(); // true when it read something
    void flushTerminalInput();
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
    Supervision m_supervision;
    bool m_killRequested = false;
    QByteArray m_pendingStdin;
    bool m_pendingClose = false;
    QFutureWatcher<HostInteractionResponse> *m_answerWatcher = nullptr;
    bool m_terminal = false;
    int m_masterFd = -1; // non-blocking
    QSocketNotifier *m_masterReadNotifier = nullptr;
    QSocketNotifier *m_masterWriteNotifier = nullptr;
    QByteArray m_terminalInput; // not yet written to the terminal
    std::optional<TerminalSize> m_terminalSize; // asked for before the terminal arrived
};

} // namespace sandbox
