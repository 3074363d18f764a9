#include "ProgramRun.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace sandbox::test {

QString binary(const QString &name)
{
    return QCoreApplication::applicationDirPath() + QLatin1Char('/') + name;
}

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
