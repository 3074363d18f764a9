// ProgramProcess, which runs the macOS and Windows auto launchers' helpers (sandbox-exec,
// sandbox-init.exe): run here with real programs, it relays stdio and the exit status, is
// ended by kill(), calls its end hook once, and turns a hook's error into what the user sees.
#include "launchers/auto/ProgramProcess.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace sandbox;

namespace {

struct Seen
{
    QByteArray out;
    QByteArray err;
    int ended = 0;
};

std::shared_ptr<ProgramProcess> make(const QStringList &argv, Seen &seen, std::optional<Error> hookError = std::nullopt)
{
    auto process = std::make_shared<ProgramProcess>(argv.front(), argv.mid(1), QProcessEnvironment::systemEnvironment(),
                                                    QDir::tempPath(), QStringLiteral("test"),
                                                    [&seen, hookError](const ExitStatus &) {
                                                        ++seen.ended;
                                                        return hookError;
                                                    });
    QObject::connect(process.get(), &SandboxProcess::stdoutReady,
                     [&seen](const QByteArray &data) { seen.out += data; });
    QObject::connect(process.get(), &SandboxProcess::stderrReady,
                     [&seen](const QByteArray &data) { seen.err += data; });
    return process;
}

} // namespace

class TestProgramProcess final : public QObject
{
    Q_OBJECT

private slots:
    void relaysStdioAndExitStatus();
    void killEndsIt();
    void endHookErrorReachesTheUser();
    void missingProgramFailsToStart();
};

void TestProgramProcess::relaysStdioAndExitStatus()
{
    Seen seen;
    auto process
        = make({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("cat; echo err >&2; exit 3") }, seen);
    QSignalSpy started(process.get(), &SandboxProcess::started);
    QSignalSpy finished(process.get(), &SandboxProcess::finished);
    process->start();
    QVERIFY(started.wait(10000));
    process->writeStdin("hello from stdin\n");
    process->closeStdin();
    QVERIFY(finished.wait(10000));
    QCOMPARE(seen.out, QByteArray("hello from stdin\n"));
    QCOMPARE(seen.err, QByteArray("err\n"));
    QCOMPARE(process->exitStatus().exitCode, 3);
    QVERIFY(!process->exitStatus().signaled);
    QCOMPARE(seen.ended, 1);
    QVERIFY(!process->isRunning());
}

void TestProgramProcess::killEndsIt()
{
    Seen seen;
    auto process
        = make({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("echo ready; exec cat") }, seen);
    QSignalSpy finished(process.get(), &SandboxProcess::finished);
    process->start();
    QTRY_VERIFY_WITH_TIMEOUT(seen.out.contains("ready"), 10000);
    process->kill();
    QVERIFY(finished.wait(10000));
    QVERIFY(process->exitStatus().signaled);
    QCOMPARE(process->exitStatus().signal, SIGKILL);
    QCOMPARE(seen.ended, 1);
}

void TestProgramProcess::endHookErrorReachesTheUser()
{
    Seen seen;
    auto process = make({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exit 125") }, seen,
                        Error{ QStringLiteral("test"), QStringLiteral("the helper refused the plan"), {} });
    QSignalSpy finished(process.get(), &SandboxProcess::finished);
    process->start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(process->exitStatus().exitCode, 125);
    QCOMPARE(seen.err, QByteArray("the helper refused the plan\n"));
    QCOMPARE(seen.ended, 1);
}

void TestProgramProcess::missingProgramFailsToStart()
{
    Seen seen;
    auto process = make({ QStringLiteral("/nonexistent/sandbox-helper") }, seen);
    QSignalSpy failed(process.get(), &SandboxProcess::failedToStart);
    QSignalSpy finished(process.get(), &SandboxProcess::finished);
    process->start();
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().first().value<Error>().message.contains(QLatin1String("/nonexistent/sandbox-helper")),
             qPrintable(failed.first().first().value<Error>().message));
    QCOMPARE(finished.count(), 0);
    QCOMPARE(seen.ended, 1);
}

QTEST_GUILESS_MAIN(TestProgramProcess)
#include "tst_programprocess.moc"
