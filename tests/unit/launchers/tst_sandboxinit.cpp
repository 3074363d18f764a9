// sandbox-init on its own: a bad or unenforceable configuration never runs the command,
// says why, and is told apart from the command's own failures; nothing leaks in.
#include "LauncherRun.h"
#include "launchers/auto/linux/LinuxSandboxProcess.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sandbox;
using namespace sandbox::test;

namespace {

QByteArray record(std::initializer_list<QByteArray> fields)
{
    QByteArray out;
    for (const QByteArray &field : fields)
        out += field + '\0';
    return out;
}

struct InitRun
{
    bool started = false;
    bool failed = false;
    QString error;
    QByteArray err;
    ExitStatus status;
};

InitRun runConfig(const QByteArray &config)
{
    InitRun run;
    LinuxSandboxProcess process(AutoLauncher::locateInit(), QStringLiteral("test"),
                                [config](bool) -> Result<QByteArray> { return config; }, 0, {});
    QEventLoop loop;
    QObject::connect(&process, &SandboxProcess::started, &loop, [&] { run.started = true; });
    QObject::connect(&process, &SandboxProcess::stderrReady, &loop, [&](const QByteArray &data) { run.err += data; });
    QObject::connect(&process, &SandboxProcess::failedToStart, &loop, [&](const Error &error) {
        run.failed = true;
        run.error = error.message;
        loop.quit();
    });
    QObject::connect(&process, &SandboxProcess::finished, &loop, [&](const ExitStatus &status) {
        run.status = status;
        loop.quit();
    });
    process.startWith(false);
    QTimer::singleShot(20000, &loop, &QEventLoop::quit);
    loop.exec();
    return run;
}

} // namespace

class TestSandboxInit final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void probeReportsKernelFeatures();
    void refusesToRunWithoutAConfiguration();
    void badConfigurationsNeverRunTheCommand_data();
    void badConfigurationsNeverRunTheCommand();
    void confinementFailureInsideTheNamespacesNeverRunsTheCommand();
    void onlyStdioReachesTheCommand_data();
    void onlyStdioReachesTheCommand();
    void commandRunsAsUnprivileged_data();
    void commandRunsAsUnprivileged();

private:
    QTemporaryDir m_dir{ QStringLiteral("/var/tmp/init-test-XXXXXX") };
    QString m_marker;
};

void TestSandboxInit::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(!AutoLauncher::locateInit().isEmpty(), "sandbox-init must be built next to the tests");
    m_marker = m_dir.filePath(QStringLiteral("ran"));
}

void TestSandboxInit::probeReportsKernelFeatures()
{
    QProcess probe;
    probe.start(AutoLauncher::locateInit(), { QStringLiteral("--probe") });
    QVERIFY(probe.waitForFinished());
    const QByteArray out = probe.readAllStandardOutput();
    QVERIFY2(out.contains("landlock 7\n") || out.contains("landlock "), out.constData());
    QVERIFY(out.contains("userns ok\n"));
    QVERIFY(out.contains("seccomp ok\n"));
}

void TestSandboxInit::refusesToRunWithoutAConfiguration()
{
    QProcess init;
    init.start(AutoLauncher::locateInit(), QStringList());
    init.closeWriteChannel();
    QVERIFY(init.waitForFinished());
    QCOMPARE(init.exitCode(), 125);
    QVERIFY(init.readAllStandardError().contains("configuration"));
}

void TestSandboxInit::badConfigurationsNeverRunTheCommand_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("reason");
    const QByteArray marker = QFile::encodeName(m_dir.filePath(QStringLiteral("ran")));
    const QByteArray command = record({ "arg", "touch" }) + record({ "arg", marker }) + record({ "cwd", "/" });
    QTest::newRow("no version") << record({ "tier", "2" }) + command << QStringLiteral("no version");
    QTest::newRow("future version") << record({ "version", "9" }) + record({ "tier", "2" }) + command
                                    << QStringLiteral("version 9");
    QTest::newRow("unknown record") << record({ "version", "1" }) + record({ "tier", "2" }) + command
            + record({ "bogus", "x" })
                                    << QStringLiteral("unknown record 'bogus'");
    QTest::newRow("truncated record") << record({ "version", "1" }) + record({ "tier", "2" }) + command
            + record({ "mount", "ro" })
                                      << QStringLiteral("truncated");
    QTest::newRow("unterminated") << record({ "version", "1" }) + record({ "tier", "2" }) + command + QByteArray("cwd")
                                  << QStringLiteral("unterminated");
    QTest::newRow("bad tier") << record({ "version", "1" }) + record({ "tier", "0" }) + command
                              << QStringLiteral("bad tier");
    QTest::newRow("relative cwd") << record({ "version", "1" }) + record({ "tier", "2" }) + record({ "arg", "touch" })
            + record({ "arg", marker }) + record({ "cwd", "relative" })
                                  << QStringLiteral("not absolute");
    QTest::newRow("allowlist without proxy") << record({ "version", "1" }) + record({ "tier", "2" }) + command
            + record({ "net", "allowlist" }) << QStringLiteral("proxy");
    QTest::newRow("bad network") << record({ "version", "1" }) + record({ "tier", "2" }) + command
            + record({ "net", "some" })
                                 << QStringLiteral("network mode");
    QTest::newRow("unknown rlimit") << record({ "version", "1" }) + record({ "tier", "2" }) + command
            + record({ "rlimit", "everything", "1" })
                                    << QStringLiteral("resource limit");
    QTest::newRow("landlock path unreadable") << record({ "version", "1" }) + record({ "tier", "2" }) + command
            + record({ "llro", "/proc/1/root/nonexistent-\x01" })
                                              << QStringLiteral("Landlock");
}

void TestSandboxInit::badConfigurationsNeverRunTheCommand()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, reason);
    QFile::remove(m_marker);
    const InitRun run = runConfig(config);
    QVERIFY(!run.started);
    QVERIFY(run.failed);
    QVERIFY2(run.error.contains(reason), qPrintable(run.error));
    QVERIFY(run.error.contains(QStringLiteral("not run")));
    QVERIFY(run.err.contains("the command was not run"));
    QVERIFY(!QFile::exists(m_marker));
}

void TestSandboxInit::confinementFailureInsideTheNamespacesNeverRunsTheCommand()
{
    // A mask over a symbolic link is refused by pid 1 after the namespaces exist: the
    // root is half built, and the command must still not run.
    QVERIFY(QFile::link(m_dir.path(), m_dir.filePath(QStringLiteral("link"))));
    QFile::remove(m_marker);
    const QByteArray dir = QFile::encodeName(m_dir.path());
    const QByteArray config = record({ "version", "1" }) + record({ "tier", "1" }) + record({ "arg", "/usr/bin/touch" })
        + record({ "arg", QFile::encodeName(m_marker) }) + record({ "cwd", dir }) + record({ "mount", "ro", "/", "/" })
        + record({ "mount", "rw", dir, dir }) + record({ "mount", "mask", "", dir + "/link" });
    const InitRun run = runConfig(config);
    QVERIFY(!run.started);
    QVERIFY2(run.failed, qPrintable(run.error));
    QVERIFY2(run.error.contains(QStringLiteral("symbolic link")), qPrintable(run.error));
    QVERIFY(!QFile::exists(m_marker));
}

void TestSandboxInit::onlyStdioReachesTheCommand_data()
{
    QTest::addColumn<QString>("tier");
    QTest::newRow("namespaces") << QStringLiteral("strongest");
    QTest::newRow("landlock-seccomp") << QStringLiteral("landlock-seccomp");
}

void TestSandboxInit::onlyStdioReachesTheCommand()
{
    QFETCH(QString, tier);
    // A descriptor the engine has open without CLOEXEC must not reach the sandbox.
    QFile leaky(m_dir.filePath(QStringLiteral("leaky")));
    QVERIFY(leaky.open(QIODevice::WriteOnly));
    auto launcher = preparedLauncher(tier);
    QVERIFY(launcher);
    const RunResult run
        = runIn(*launcher, { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("ls /proc/self/fd") },
                Policy::defaults(), m_dir.path());
    QCOMPARE(run.out, QByteArray("0\n1\n2\n3\n")); // 3: ls's own directory handle
}

void TestSandboxInit::commandRunsAsUnprivileged_data()
{
    onlyStdioReachesTheCommand_data();
}

void TestSandboxInit::commandRunsAsUnprivileged()
{
    QFETCH(QString, tier);
    auto launcher = preparedLauncher(tier);
    QVERIFY(launcher);
    const RunResult run
        = runIn(*launcher,
                { QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("grep -E '^(CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status") },
                Policy::defaults(), m_dir.path());
    QVERIFY2(run.out.contains("CapPrm:\t0000000000000000"), run.out.constData());
    QVERIFY(run.out.contains("CapEff:\t0000000000000000"));
    QVERIFY(run.out.contains("CapBnd:\t0000000000000000"));
    QVERIFY(run.out.contains("CapAmb:\t0000000000000000"));
    QVERIFY(run.out.contains("NoNewPrivs:\t1"));
    QVERIFY(run.out.contains("Seccomp:\t2"));
}

QTEST_GUILESS_MAIN(TestSandboxInit)
#include "tst_sandboxinit.moc"
