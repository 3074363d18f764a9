// sandbox-init.exe, cross-compiled with mingw-w64, run under Wine: a bad plan never runs the
// command and says what is wrong where; stdio reaches the command and back; its exit status
// is sandbox-init.exe's; a timeout, the command's end and sandbox-init.exe being killed each
// end every process the command started (the job object); no process leaves the job.
//
// The path step is tested on its own, through sandbox-acl-probe.exe: which paths a plan's
// rules reach ("*" expanded, missing paths left out), and that adding and removing the ACEs
// raise no error. Wine answers those calls but keeps no ACL here (reading one back gives the
// list it makes up from the file's mode, before, during and after), so what the rules
// contain and what they deny are not tested.
//
// What Wine does not do is not tested here: it creates no AppContainer (so every run of
// sandbox-init.exe here is --job-only: no identity, path or firewall step), ignores the
// token a process is created with, and does not enforce a job's process limit.
#include "TestFiles.h"
#include "launchers/auto/windows/WindowsPlan.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;
using windows::Plan;

namespace {

struct Run
{
    bool finished = false;
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Plan goodPlan()
{
    Plan plan;
    plan.identityName = "SandboxStudio.Test";
    plan.integrity = "medium";
    plan.activeProcessLimit = 16;
    plan.network = Plan::Network::Off;
    plan.blocked = { { "any", "any", 0, 0 } };
    return plan;
}

// What a Windows program printed in text mode, with Unix line ends.
QString printed(const QByteArray &output)
{
    return QString::fromUtf8(QByteArray(output).replace("\r\n", "\n"));
}

// The line of `text` that starts with `key` and a space: its value (the PID of "child N").
QString valueOf(const QByteArray &text, const QByteArray &key)
{
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith(QByteArray(key + ' ')))
            return QString::fromUtf8(line.mid(key.size() + 1).trimmed());
    }
    return {};
}

} // namespace

class TestSandboxInitWindows final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void goodPlanIsAccepted();
    void badPlansNeverRunTheCommand_data();
    void badPlansNeverRunTheCommand();
    void argumentsReachTheCommandUnchanged();
    void stdioIsRelayed();
    void exitStatusIsTheCommands_data();
    void exitStatusIsTheCommands();
    void missingCommandIsReported();
    void timeoutEndsEveryProcess();
    void commandsEndEndsWhatItLeftRunning();
    void killingSandboxInitEndsTheCommandAndItsChildren();
    void noProcessLeavesTheJob();
    void pathRulesReachWhatExistsWithWildcardsExpanded();

private:
    // Z:\... (Wine's drive for /) of a path on this machine.
    static QString windowsPath(const QString &path)
    {
        return QStringLiteral("Z:") + QString(path).replace(QLatin1Char('/'), QLatin1Char('\\'));
    }
    QProcess *start(const QStringList &arguments);
    Run finish(QProcess *process, const QByteArray &input = {});
    Run runInit(const QStringList &options, const QStringList &command, const QByteArray &input = {});
    Run runChild(const QStringList &arguments);
    QString writePlan(const QString &name, const QByteArray &text);

    QTemporaryDir m_prefix{ QStringLiteral("/var/tmp/sandbox-wine-XXXXXX") };
    QTemporaryDir m_files{ QStringLiteral("/var/tmp/sandbox-init-windows-XXXXXX") };
    QString m_wine;
    QString m_wineserver;
    QString m_init;
    QString m_child;
    QString m_aclProbe;
    QString m_plan;
    QProcessEnvironment m_env;
    bool m_booted = false;
};

void TestSandboxInitWindows::initTestCase()
{
    const bool required = qEnvironmentVariableIntValue("SANDBOX_REQUIRE_WINE") != 0;
    const QString bin = qEnvironmentVariable("SANDBOX_WINDOWS_BIN_DIR");
    m_init = bin + QStringLiteral("/sandbox-init.exe");
    m_child = bin + QStringLiteral("/sandbox-test-child.exe");
    m_aclProbe = bin + QStringLiteral("/sandbox-acl-probe.exe");
    const QStringList wineDirs = { QStringLiteral("/usr/lib/wine"), QStringLiteral("/usr/lib64/wine") };
    m_wine = QStandardPaths::findExecutable(QStringLiteral("wine64"));
    if (m_wine.isEmpty())
        m_wine = QStandardPaths::findExecutable(QStringLiteral("wine64"), wineDirs);
    m_wineserver = QStandardPaths::findExecutable(QStringLiteral("wineserver"));
    if (m_wineserver.isEmpty())
        m_wineserver = QStandardPaths::findExecutable(QStringLiteral("wineserver"), wineDirs);
    QString missing;
    if (bin.isEmpty() || !QFileInfo::exists(m_init) || !QFileInfo::exists(m_child) || !QFileInfo::exists(m_aclProbe))
        missing = QStringLiteral("sandbox-init.exe was not built: no mingw-w64 cross compiler was found at configure "
                                 "time (install g++-mingw-w64-x86-64-posix; installer/install-deps.sh test does)");
    else if (m_wine.isEmpty() || m_wineserver.isEmpty())
        missing = QStringLiteral("Wine (wine64 and wineserver) was not found (install wine64; "
                                 "installer/install-deps.sh test does)");
    if (!missing.isEmpty()) {
        if (required)
            QFAIL(qPrintable(missing + QStringLiteral(" and SANDBOX_REQUIRE_WINE is set")));
        QSKIP(qPrintable(missing));
    }
    QVERIFY(m_prefix.isValid());
    QVERIFY(m_files.isValid());
    m_env = QProcessEnvironment::systemEnvironment();
    m_env.insert(QStringLiteral("WINEPREFIX"), m_prefix.path());
    m_env.insert(QStringLiteral("WINEDEBUG"), QStringLiteral("-all"));
    // No Mono or Gecko installer at boot, and no display: nothing here has a window.
    m_env.insert(QStringLiteral("WINEDLLOVERRIDES"), QStringLiteral("mscoree,mshtml="));
    m_env.remove(QStringLiteral("DISPLAY"));
    m_env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    // One prefix for every test function: booting one takes seconds.
    QProcess boot;
    boot.setProcessEnvironment(m_env);
    boot.start(m_wine, { QStringLiteral("wineboot"), QStringLiteral("--init") });
    QVERIFY2(boot.waitForFinished(120000), "wineboot did not finish within 120 s");
    QVERIFY2(boot.exitStatus() == QProcess::NormalExit && boot.exitCode() == 0,
             qPrintable(QStringLiteral("wineboot failed: ") + QString::fromLocal8Bit(boot.readAllStandardError())));
    m_booted = true;
    Plan plan = goodPlan();
    m_plan = writePlan(QStringLiteral("good.plan"), QByteArray::fromStdString(plan.serialize()));
}

void TestSandboxInitWindows::cleanupTestCase()
{
    if (!m_booted)
        return;
    QProcess kill;
    kill.setProcessEnvironment(m_env);
    kill.start(m_wineserver, { QStringLiteral("-k") });
    kill.waitForFinished(30000);
    // -k returns once the server is told; -w waits until it has gone (the prefix is removed next).
    QProcess wait;
    wait.setProcessEnvironment(m_env);
    wait.start(m_wineserver, { QStringLiteral("-w") });
    wait.waitForFinished(30000);
}

QString TestSandboxInitWindows::writePlan(const QString &name, const QByteArray &text)
{
    const QString path = m_files.filePath(name);
    if (!writeFile(path, text))
        return {};
    return windowsPath(path);
}

QProcess *TestSandboxInitWindows::start(const QStringList &arguments)
{
    auto *process = new QProcess(this);
    process->setProcessEnvironment(m_env);
    process->setWorkingDirectory(m_files.path());
    process->start(m_wine, arguments);
    return process;
}

Run TestSandboxInitWindows::finish(QProcess *process, const QByteArray &input)
{
    Run run;
    if (!process->waitForStarted(30000))
        return run;
    if (!input.isEmpty())
        process->write(input);
    process->closeWriteChannel();
    run.finished = process->waitForFinished(60000) && process->exitStatus() == QProcess::NormalExit;
    run.code = process->exitCode();
    run.out = process->readAllStandardOutput();
    run.err = process->readAllStandardError();
    process->deleteLater();
    return run;
}

Run TestSandboxInitWindows::runInit(const QStringList &options, const QStringList &command, const QByteArray &input)
{
    QStringList arguments = { m_init };
    arguments << options << QStringLiteral("--") << command;
    return finish(start(arguments), input);
}

Run TestSandboxInitWindows::runChild(const QStringList &arguments)
{
    return finish(start(QStringList{ m_child } + arguments));
}

void TestSandboxInitWindows::goodPlanIsAccepted()
{
    const Run run = finish(start({ m_init, QStringLiteral("--check-plan"), m_plan }));
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    QCOMPARE(run.out.trimmed(),
             QByteArray("the plan is valid: appcontainer 'SandboxStudio.Test', 0 path rule(s), "
                        "network off"));
}

void TestSandboxInitWindows::badPlansNeverRunTheCommand_data()
{
    QTest::addColumn<QByteArray>("plan");
    QTest::addColumn<QString>("message");
    const QByteArray good = QByteArray::fromStdString(goodPlan().serialize());
    auto replaced = [&good](const char *from, const char *to) { return QByteArray(good).replace(from, to); };
    QTest::newRow("empty") << QByteArray() << QStringLiteral("line 1: sandbox-windows-plan: the plan is empty");
    QTest::newRow("not a plan") << QByteArray("#!/bin/sh\n")
                                << QStringLiteral("line 1: sandbox-windows-plan: not a sandbox plan for Windows");
    QTest::newRow("newer version") << replaced("plan\t1\n", "plan\t2\n")
                                   << QStringLiteral("line 1: sandbox-windows-plan: version '2' is not supported");
    QTest::newRow("cut off") << good.left(good.size() - 4) << QStringLiteral("the plan is cut off (no line \"end\")");
    QTest::newRow("unknown setting") << replaced("job\tbreakaway", "job\tescape")
                                     << QStringLiteral("line 6: job escape: unknown setting");
    QTest::newRow("relative path") << replaced("network\toff", "path\twrite\tproject\\src\nnetwork\toff")
                                   << QStringLiteral("line 10: path write: 'project\\src' is not an absolute path");
    QTest::newRow("kill-on-close off") << replaced("kill-on-close\tyes", "kill-on-close\tno")
                                       << QStringLiteral("job kill-on-close: no (commands run only in a job that "
                                                         "ends with sandbox-init.exe)");
    QTest::newRow("breakaway allowed") << replaced("breakaway\tno", "breakaway\tyes")
                                       << QStringLiteral("job breakaway: yes (no process may leave the job)");
    QTest::newRow("unrestricted token") << replaced("restricted\tyes", "restricted\tno")
                                        << QStringLiteral("token restricted: no (commands run only under a "
                                                          "restricted token)");
}

void TestSandboxInitWindows::badPlansNeverRunTheCommand()
{
    QFETCH(QByteArray, plan);
    QFETCH(QString, message);
    const QString planPath = writePlan(QStringLiteral("bad.plan"), plan);
    const QString statusPath = m_files.filePath(QStringLiteral("bad.status"));
    const Run run = runInit({ QStringLiteral("--plan"), planPath, QStringLiteral("--status"), windowsPath(statusPath),
                              QStringLiteral("--job-only") },
                            { windowsPath(m_child), QStringLiteral("args"), QStringLiteral("the command ran") });
    QVERIFY(run.finished);
    QCOMPARE(run.code, 125);
    QVERIFY2(run.out.isEmpty(), run.out.constData());
    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(err.startsWith(QStringLiteral("sandbox-init: the plan ") + planPath + QStringLiteral(" is refused: ")),
             qPrintable(err));
    QVERIFY2(err.contains(message), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("(the command was not run)")), qPrintable(err));
    const QByteArray status = readFile(statusPath);
    QVERIFY2(status.startsWith("error the plan ") && !status.contains("started"), status.constData());
}

void TestSandboxInitWindows::argumentsReachTheCommandUnchanged()
{
    const QStringList arguments = { QStringLiteral("two words"),
                                    QStringLiteral("a \"quoted\" word"),
                                    QStringLiteral("trailing backslash\\"),
                                    QStringLiteral("C:\\dir with space\\"),
                                    QStringLiteral("\\\\\"x"),
                                    QString(),
                                    QStringLiteral("grüße ✓") };
    const Run run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only") },
                            QStringList{ windowsPath(m_child), QStringLiteral("args") } + arguments);
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    QByteArray expected;
    for (const QString &argument : arguments)
        expected += '[' + argument.toUtf8() + "]\n";
    QCOMPARE(printed(run.out), QString::fromUtf8(expected));
}

void TestSandboxInitWindows::stdioIsRelayed()
{
    QByteArray input;
    for (int i = 0; i < 2000; ++i)
        input += "line " + QByteArray::number(i) + " of what the user typed\n";
    Run run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only") },
                      { windowsPath(m_child), QStringLiteral("cat") }, input);
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    QCOMPARE(run.out.size(), input.size());
    QVERIFY(run.out == input);

    run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only") },
                  { windowsPath(m_child), QStringLiteral("stderr"), QStringLiteral("a warning from the command") });
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    QVERIFY(run.out.isEmpty());
    QCOMPARE(run.err, QByteArray("a warning from the command"));
}

void TestSandboxInitWindows::exitStatusIsTheCommands_data()
{
    QTest::addColumn<int>("code");
    for (int code : { 0, 1, 3, 42, 255 })
        QTest::newRow(qPrintable(QString::number(code))) << code;
}

void TestSandboxInitWindows::exitStatusIsTheCommands()
{
    QFETCH(int, code);
    const QString statusPath = m_files.filePath(QStringLiteral("exit.status"));
    const Run run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only"),
                              QStringLiteral("--status"), windowsPath(statusPath) },
                            { windowsPath(m_child), QStringLiteral("exit"), QString::number(code) });
    QVERIFY(run.finished);
    QCOMPARE(run.code, code);
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QByteArray status = readFile(statusPath);
    QVERIFY2(QRegularExpression(QStringLiteral("^started \\d+\nexit %1\n$").arg(code))
                 .match(QString::fromUtf8(status))
                 .hasMatch(),
             status.constData());
}

void TestSandboxInitWindows::missingCommandIsReported()
{
    const Run run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only") },
                            { windowsPath(m_files.filePath(QStringLiteral("no-such-program.exe"))) });
    QVERIFY(run.finished);
    QCOMPARE(run.code, 127);
    QVERIFY2(run.err.contains("no-such-program.exe' was not found"), run.err.constData());
}

void TestSandboxInitWindows::timeoutEndsEveryProcess()
{
    const QString statusPath = m_files.filePath(QStringLiteral("timeout.status"));
    const Run run
        = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only"), QStringLiteral("--timeout-ms"),
                    QStringLiteral("1000"), QStringLiteral("--status"), windowsPath(statusPath) },
                  { windowsPath(m_child), QStringLiteral("tree") });
    QVERIFY(run.finished);
    QCOMPARE(run.code, 124);
    QVERIFY2(run.err.contains("the command ran longer than 1000 ms; every process of it was ended"),
             run.err.constData());
    QVERIFY2(readFile(statusPath).endsWith("\ntimeout 1000\n"), readFile(statusPath).constData());
    const QString child = valueOf(run.out, "child");
    const QString grandchild = valueOf(run.out, "grandchild");
    QVERIFY2(!child.isEmpty() && !grandchild.isEmpty(), run.out.constData());
    const Run ended = runChild({ QStringLiteral("wait-ended"), child, grandchild });
    QCOMPARE(printed(ended.out), QStringLiteral("ended %1\nended %2\n").arg(child, grandchild));
}

void TestSandboxInitWindows::commandsEndEndsWhatItLeftRunning()
{
    const Run run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only") },
                            { windowsPath(m_child), QStringLiteral("leave") });
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    const QString grandchild = valueOf(run.out, "grandchild");
    QVERIFY2(!grandchild.isEmpty(), run.out.constData());
    const Run ended = runChild({ QStringLiteral("wait-ended"), grandchild });
    QCOMPARE(QString::fromUtf8(ended.out.trimmed()), QStringLiteral("ended %1").arg(grandchild));
}

void TestSandboxInitWindows::killingSandboxInitEndsTheCommandAndItsChildren()
{
    QProcess *init = start({ m_init, QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only"),
                             QStringLiteral("--"), windowsPath(m_child), QStringLiteral("tree") });
    QVERIFY(init->waitForStarted(30000));
    QByteArray out;
    while (!out.contains("grandchild ") || !out.endsWith('\n')) {
        QVERIFY2(init->waitForReadyRead(30000), "the command never said it had started its child");
        out += init->readAllStandardOutput();
    }
    const QString child = valueOf(out, "child");
    const QString grandchild = valueOf(out, "grandchild");
    QVERIFY(!child.isEmpty() && !grandchild.isEmpty());
    // As an engine ends a command it gives up on: sandbox-init.exe is killed, nothing else.
    init->kill();
    QVERIFY(init->waitForFinished(30000));
    QCOMPARE(init->exitStatus(), QProcess::CrashExit);
    init->deleteLater();
    const Run ended = runChild({ QStringLiteral("wait-ended"), child, grandchild });
    QCOMPARE(printed(ended.out), QStringLiteral("ended %1\nended %2\n").arg(child, grandchild));
}

void TestSandboxInitWindows::noProcessLeavesTheJob()
{
    const Run run = runInit({ QStringLiteral("--plan"), m_plan, QStringLiteral("--job-only") },
                            { windowsPath(m_child), QStringLiteral("breakaway") });
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    // ERROR_ACCESS_DENIED: the job allows no breakaway.
    QCOMPARE(run.out.trimmed(), QByteArray("refused 5"));
}

void TestSandboxInitWindows::pathRulesReachWhatExistsWithWildcardsExpanded()
{
    // On the prefix's C: drive (Wine makes no ACL calls for Z:, the Linux file system).
    const QString root = m_prefix.filePath(QStringLiteral("drive_c/sandbox-acl"));
    for (const char *file :
         { "ws/file.txt", "ws/.git/hooks/pre-commit", "ws/secret/key", "ws/cache/a/x", "ws/cache/b/y" })
        QVERIFY(writeFile(root + QLatin1Char('/') + QLatin1String(file), "content\n"));
    Plan plan = goodPlan();
    plan.paths = { { Plan::Access::Write, "C:\\sandbox-acl\\ws" },
                   { Plan::Access::KeepEntry, "C:\\sandbox-acl\\ws\\.git" },
                   { Plan::Access::ReadOnly, "C:\\sandbox-acl\\ws\\.git\\hooks" },
                   { Plan::Access::Deny, "C:\\sandbox-acl\\ws\\secret" },
                   { Plan::Access::Deny, "C:\\sandbox-acl\\ws\\cache\\*" },
                   { Plan::Access::Read, "C:\\sandbox-acl\\missing" } };
    const QString planPath = writePlan(QStringLiteral("acl.plan"), QByteArray::fromStdString(plan.serialize()));
    const Run run = finish(start({ m_aclProbe, planPath, QStringLiteral("S-1-15-2-1-2-3-4-5-6-7") }));
    QVERIFY(run.finished);
    QCOMPARE(run.code, 0);
    const QString out = printed(run.out);
    QVERIFY2(!out.contains(QStringLiteral("failed")), qPrintable(out));
    QStringList reached;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QStringLiteral("before ")))
            reached.append(line.section(QLatin1Char(' '), 1, 1));
    }
    const QString ws = QStringLiteral("C:\\sandbox-acl\\ws");
    QCOMPARE(reached,
             QStringList({ ws, ws + QStringLiteral("\\.git"), ws + QStringLiteral("\\.git\\hooks"),
                           ws + QStringLiteral("\\secret"), ws + QStringLiteral("\\cache\\a"),
                           ws + QStringLiteral("\\cache\\b") }));
}

QTEST_GUILESS_MAIN(TestSandboxInitWindows)
#include "tst_sandboxinit_windows.moc"
