#pragma once

#include "TestFiles.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

class QProcess;

namespace sandbox::test {

// What one run of a command-line program left: its exit code (-1 when it did not start or
// did not exit normally, -2 when it outlived its bound and was killed), its output and its
// errors.
struct Outcome
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs `program` with `args` in `workingDirectory`, writes `input` to it and closes its
// standard input, then waits at most `timeoutMs` for it to end; with `environment` set the
// program runs with exactly that environment, otherwise with the test's own.
Outcome runProgram(const QString &program, const QStringList &args, const QString &workingDirectory,
                   const QByteArray &input, int timeoutMs,
                   const std::optional<QProcessEnvironment> &environment = std::nullopt);

// What a backend claims for one policy dimension, read from `sandboxctl describe REF --json`
// output; empty when it is not there.
QString claimOf(const QByteArray &describedJson, const QString &dimension);

// The engine's pid as `sandboxctl status --json` output reports it; 0 when it is not there.
qint64 serverPid(const Outcome &status);

// True when `path` exists and no process holds an flock on it (the process that took it,
// and every process that inherited its descriptor, has ended).
bool lockIsFree(const QString &path);

// Starts sandboxd in `daemon` on `socket` with exactly `environment`, appending what it
// writes on its standard error (and, with `logOutput`, on its standard output) to `log`,
// and waits until it logs "serving on"; reports a failure through QTest otherwise.
void startSandboxd(QProcess &daemon, const QProcessEnvironment &environment, const QString &socket, QByteArray &log,
                   bool logOutput = false);

// Ctrl-C at a terminal, twice, to a `sandboxctl run` started as `program args` whose command
// traps SIGINT (prints "got-int" and goes on) after printing "ready": the first SIGINT is
// sent once it is ready, the second once the command has said it got the first. Then a
// second run, of a command that prints "ready" and sleeps, gets one SIGINT. Returns the two
// exit codes (-1 when a step did not happen within a minute) and what each printed.
struct InterruptedRuns
{
    Outcome handled; // the command that handled the first SIGINT
    Outcome plain; // the command that did not handle its SIGINT
};
InterruptedRuns interruptRuns(const QString &program, const QStringList &args, const QString &workingDirectory,
                              const QProcessEnvironment &environment);

// Asks a running process to end (SIGTERM), gives it 30 s, and kills it if it is still there.
void stopGracefully(QProcess &process);

} // namespace sandbox::test
