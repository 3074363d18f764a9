#pragma once

#include "protocol/Error.h"
#include "protocol/Refusal.h"
#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QObject>

#include <memory>

namespace sandbox {

// A process started by a launcher. Lives in the thread that called Launcher::spawn()
// (which has an event loop). Starting may be slow for some launchers: spawn() returns at
// once and the object emits started() or failedToStart(). finished() is emitted exactly
// once, after all output has been delivered, when the whole sandbox (the command and
// everything it started) has ended.
class SandboxProcess : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    ~SandboxProcess() override;

    virtual qint64 pid() const = 0; // host pid of the sandbox's outermost process, 0 if none
    virtual bool isRunning() const = 0;
    virtual ExitStatus exitStatus() const = 0;

    virtual void writeStdin(const QByteArray &data) = 0;
    virtual void closeStdin() = 0;
    virtual void terminate() = 0; // SIGTERM to the sandbox, then SIGKILL after a grace period
    virtual void kill() = 0; // SIGKILL to everything in the sandbox
    // Passes `signal` to the command (Ctrl-C at a client's terminal), which may handle it and
    // go on. A launcher that cannot deliver signals ends the sandbox as terminate() does.
    virtual void deliverSignal(ProcessSignal signal);
    // The command's terminal (SpawnRequest::terminal) is now `size`: its foreground process
    // group gets SIGWINCH. Nothing for a process without a terminal.
    virtual void resizeTerminal(const TerminalSize &size);

    // Drops a reference once the signal being delivered in this thread has returned. A
    // process's signals are emitted from inside a QProcess's or a network reply's own
    // signal, so destroying the process there would destroy the very object still
    // emitting; whoever may hold the last reference in a handler releases it this way.
    static void releaseLater(std::shared_ptr<SandboxProcess> process);

signals:
    void started();
    void failedToStart(const sandbox::Error &error);
    void stdoutReady(const QByteArray &data);
    void stderrReady(const QByteArray &data);
    void finished(const sandbox::ExitStatus &status);
    // The sandbox refused something this command did (a system call its observer saw, a
    // connection its own proxy channel refused). The launcher fills kind, what and rule;
    // the engine adds the command, the backend and the time, and publishes it.
    void refused(const sandbox::Refusal &refusal);
    // A sentence about how this command's sandbox started that the user should see (a VM
    // restored from a cached baseline, or why it booted instead); the engine adds it to the
    // process's notes and publishes the process again.
    void noted(const QString &note);
};

} // namespace sandbox
