#pragma once

#include "core/launcher/SandboxProcess.h"

#include <QMutex>

#include <thread>

namespace sandbox::power {

// A command run as an exec whose stream (the engine's multiplexed attach stream) a worker
// thread serves. The worker waits on an eventfd for what this object's thread asks of it:
// stdin to pass on, stdin's end, terminate() or kill(). How those are asked, and how the
// command's state is kept, is shared here; each derived class runs its own loop and decides
// what a signal does to its command.
class ExecStreamProcess : public SandboxProcess
{
    Q_OBJECT

public:
    ~ExecStreamProcess() override;

    bool isRunning() const override;
    ExitStatus exitStatus() const override;
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

protected:
    enum class Signal { None, Term, Kill };

    // What this object's thread has asked of the worker since it last looked.
    struct Requests
    {
        QByteArray input;
        bool closeStdin = false;
        Signal signal = Signal::None;
    };

    ExecStreamProcess();

    // Ends and joins the worker; derived destructors call it first, as the worker uses their members.
    void stopWorker();
    int wakeFd() const { return m_wakeFd; }
    // Empties the wake eventfd once poll() has found it readable.
    void drainWake();
    Requests takeRequests();
    // Emits the complete frames at the front of `pending` as stdout and stderr, and removes them.
    void emitFrames(QByteArray &pending);
    // Sends `requests`' input to the exec's stream `fd`, then its end when asked for.
    static void passInput(int fd, const Requests &requests, bool &stdinOpen);
    // Appends what the exec's stream `fd` has ready to `pending`; false once the stream has ended.
    static bool receive(int fd, QByteArray &pending);

    std::thread m_worker;

    mutable QMutex m_mutex;
    Signal m_signal = Signal::None;
    bool m_running = false;
    ExitStatus m_exit;

private:
    void wake();

    int m_wakeFd = -1;
    QByteArray m_stdin;
    bool m_closeStdin = false;
};

} // namespace sandbox::power
