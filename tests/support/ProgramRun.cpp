#include "ProgramRun.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace sandbox::test {

Outcome runProgram(const QString &program, const QStringList &args, const QString &workingDirectory,
                   const QByteArray &input, int timeoutMs, const std::optional<QProcessEnvironment> &environment)
{
    QProcess process;
    if (environment)
        process.setProcessEnvironment(*environment);
    process.setWorkingDirectory(workingDirectory);
    process.start(program, args);
    if (!process.waitForStarted())
        return {};
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return { -2, process.readAllStandardOutput(), process.readAllStandardError() };
    }
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
             process.readAllStandardError() };
}

void startSandboxd(QProcess &daemon, const QProcessEnvironment &environment, const QString &socket, QByteArray &log,
                   bool logOutput)
{
    daemon.setProcessEnvironment(environment);
    QObject::connect(&daemon, &QProcess::readyReadStandardError, &daemon,
                     [&daemon, &log] { log += daemon.readAllStandardError(); });
    if (logOutput)
        QObject::connect(&daemon, &QProcess::readyReadStandardOutput, &daemon,
                         [&daemon, &log] { log += daemon.readAllStandardOutput(); });
    // The log may hold an earlier daemon's lines (a test that restarts it): only this one's count.
    const qsizetype before = log.size();
    daemon.start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--socket"), socket });
    QVERIFY(daemon.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(log.indexOf("serving on", before) >= 0, 30000);
}

void stopGracefully(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(30000))
        process.kill();
    process.waitForFinished(5000);
}

namespace {

// Waits (a minute at most) until `process` has printed `text`, collecting its output in `out`.
bool waitForOutput(QProcess &process, QByteArray &out, const QByteArray &text)
{
    QDeadlineTimer deadline(60000);
    for (;;) {
        out += process.readAllStandardOutput();
        if (out.contains(text))
            return true;
        if (process.state() == QProcess::NotRunning || deadline.hasExpired())
            return false;
        process.waitForReadyRead(int(deadline.remainingTime()));
    }
}

Outcome ended(QProcess &process, QByteArray out)
{
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return { -2, out + process.readAllStandardOutput(), process.readAllStandardError() };
    }
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
             out + process.readAllStandardOutput(), process.readAllStandardError() };
}

} // namespace

InterruptedRuns interruptRuns(const QString &program, const QStringList &args, const QString &workingDirectory,
                              const QProcessEnvironment &environment)
{
    InterruptedRuns runs;
    const QStringList commands[] = {
        { QStringLiteral("sh"), QStringLiteral("-c"),
          QStringLiteral("trap 'echo got-int' INT; echo ready; while :; do sleep 1; done") },
        { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo ready; exec sleep 300") },
    };
    for (int i = 0; i < 2; ++i) {
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(workingDirectory);
        process.start(program, args + QStringList{ QStringLiteral("--") } + commands[i]);
        process.closeWriteChannel();
        QByteArray out;
        Outcome &outcome = i == 0 ? runs.handled : runs.plain;
        if (!process.waitForStarted() || !waitForOutput(process, out, "ready")) {
            outcome = ended(process, out);
            continue;
        }
        ::kill(pid_t(process.processId()), SIGINT);
        if (i == 0) {
            if (waitForOutput(process, out, "got-int"))
                ::kill(pid_t(process.processId()), SIGINT);
        }
        outcome = ended(process, out);
    }
    return runs;
}

QString claimOf(const QByteArray &describedJson, const QString &dimension)
{
    return QJsonDocument::fromJson(describedJson)
        .object()
        .value(QStringLiteral("descriptor"))
        .toObject()
        .value(QStringLiteral("enforcement"))
        .toObject()
        .value(dimension)
        .toString();
}

qint64 serverPid(const Outcome &status)
{
    return QJsonDocument::fromJson(status.out)
        .object()
        .value(QStringLiteral("server"))
        .toObject()
        .value(QStringLiteral("pid"))
        .toInteger();
}

bool lockIsFree(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    ::close(fd);
    return free;
}

} // namespace sandbox::test
