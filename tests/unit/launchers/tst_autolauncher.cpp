// The auto launcher driven directly: configure / prepare / isAvailable / spawn, in both
// tiers, asserting what a user of the engine would notice.
#include "LauncherRun.h"

#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace sandbox;
using namespace sandbox::test;

class TestAutoLauncher final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void descriptorIsDataWithATierSetting();
    void claimsNameWhatEnforcesEachDimension_data();
    void claimsNameWhatEnforcesEachDimension();
    void missingHelperMakesItUnavailable();
    void unknownTierIsRejected();
    void unpreparedLauncherRunsNothing();
    void runsCommandAndStreamsOutput_data() { tiers(); }
    void runsCommandAndStreamsOutput();
    void reportsExitCodesAndSignals_data() { tiers(); }
    void reportsExitCodesAndSignals();
    void passesStdin_data() { tiers(); }
    void passesStdin();
    void missingCommandIs127_data() { tiers(); }
    void missingCommandIs127();
    void workspaceIsWritableButNothingElse_data() { tiers(); }
    void workspaceIsWritableButNothingElse();
    void writingCallsAreCountedAsRoundTrips_data() { tiers(); }
    void writingCallsAreCountedAsRoundTrips();
    void deniedPathIsUnreadable_data() { tiers(); }
    void deniedPathIsUnreadable();
    void writeBeneathADeniedPathIsRefusedAndReported_data() { tiers(); }
    void writeBeneathADeniedPathIsRefusedAndReported();
    void narrowReadablePolicyStillRunsTools();
    void environmentStartsMinimal_data() { tiers(); }
    void environmentStartsMinimal();
    void workspaceAnywhereReadableIsUsable_data();
    void workspaceAnywhereReadableIsUsable();
    void workspaceInsideHiddenPathIsRefused_data() { tiers(); }
    void workspaceInsideHiddenPathIsRefused();
    void killEndsEveryProcessInside_data() { tiers(); }
    void killEndsEveryProcessInside();
    void terminateIsForwardedToTheCommand_data() { tiers(); }
    void terminateIsForwardedToTheCommand();
    void datagramsReachNoHostSocket_data() { tiers(); }
    void datagramsReachNoHostSocket();
    void hostExecutionAskIsAskedAndRefusalDenies_data() { tiers(); }
    void hostExecutionAskIsAskedAndRefusalDenies();
    void badRequestsAreRefusedBeforeAnythingRuns();

private:
    void tiers();
    AutoLauncher &launcher();

    std::shared_ptr<AutoLauncher> m_strongest;
    std::shared_ptr<AutoLauncher> m_tier2;
    QTemporaryDir m_workspace{ QDir::tempPath() + QStringLiteral("/ws-XXXXXX") };
};

void TestAutoLauncher::initTestCase()
{
    QVERIFY(m_workspace.isValid());
    QString error;
    m_strongest = preparedLauncher(QStringLiteral("strongest"), &error);
    QVERIFY2(m_strongest, qPrintable(error));
    m_tier2 = preparedLauncher(QStringLiteral("landlock-seccomp"), &error);
    QVERIFY2(m_tier2, qPrintable(error));
    // This machine allows user namespaces: strongest must pick them.
    QCOMPARE(m_strongest->tier(), AutoLauncher::Tier::Namespaces);
    QCOMPARE(m_tier2->tier(), AutoLauncher::Tier::LandlockSeccomp);
    QVERIFY(m_strongest->isAvailable().result().available);
    QVERIFY(m_tier2->isAvailable().result().available);
}

void TestAutoLauncher::tiers()
{
    QTest::addColumn<int>("tier");
    QTest::newRow("namespaces") << 1;
    QTest::newRow("landlock-seccomp") << 2;
}

AutoLauncher &TestAutoLauncher::launcher()
{
    QFETCH(int, tier);
    return tier == 1 ? *m_strongest : *m_tier2;
}

void TestAutoLauncher::descriptorIsDataWithATierSetting()
{
    const BackendDescriptor descriptor = AutoLauncher().descriptor();
    QVERIFY2(descriptor.validate(), "descriptor must validate");
    QCOMPARE(descriptor.fields.size(), 1);
    const FieldSpec &tier = descriptor.fields.first();
    QCOMPARE(tier.id, QStringLiteral("tier"));
    QCOMPARE(tier.type, FieldSpec::Type::Select);
    QCOMPARE(tier.defaultValue.toString(), QStringLiteral("strongest"));
    QCOMPARE(tier.options.size(), 2);
    QCOMPARE(descriptor.platforms, QStringList{ QStringLiteral("linux") });
    // Round-trips through the protocol's strict decoder.
    Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(descriptor.toJson());
    QVERIFY2(decoded, decoded ? "" : qPrintable(decoded.error().toString()));
    QCOMPARE(decoded.value(), descriptor);
}

void TestAutoLauncher::claimsNameWhatEnforcesEachDimension_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<QString>("filesystem");
    QTest::addColumn<QString>("confinement");
    QTest::addColumn<QString>("refusals");
    QTest::newRow("namespaces") << 1 << QStringLiteral("mount namespace") << QStringLiteral("pid")
                                << QStringLiteral("what Landlock, seccomp and the namespaces refuse");
    QTest::newRow("landlock-seccomp") << 2 << QStringLiteral("seccomp user notification")
                                      << QStringLiteral("visible in /proc")
                                      << QStringLiteral("unix socket connection sandbox-init's connect supervisor");
}

void TestAutoLauncher::claimsNameWhatEnforcesEachDimension()
{
    QFETCH(QString, filesystem);
    QFETCH(QString, confinement);
    const BackendDescriptor descriptor = launcher().descriptor();
    for (const QString &dimension : BackendDescriptor::enforcementDimensions())
        QVERIFY2(!descriptor.enforcement.value(dimension).isEmpty(), qPrintable(dimension));
    // SSH connections go through the proxy, by the engine's own configuration.
    QVERIFY(descriptor.enforcement.value(QStringLiteral("sshAgent")).contains(QStringLiteral("ProxyCommand")));
    QVERIFY(descriptor.enforcement.value(QStringLiteral("credentials")).contains(QStringLiteral("placeholder")));
    QVERIFY(
        descriptor.enforcement.value(QStringLiteral("upstreamProxy")).contains(QStringLiteral("CONNECT host:port")));
    QVERIFY2(descriptor.enforcement.value(QStringLiteral("filesystem")).contains(filesystem),
             qPrintable(descriptor.enforcement.value(QStringLiteral("filesystem"))));
    QVERIFY2(descriptor.enforcement.value(QStringLiteral("confinement")).contains(confinement),
             qPrintable(descriptor.enforcement.value(QStringLiteral("confinement"))));
    QVERIFY(descriptor.enforcement.value(QStringLiteral("filesystem")).contains(QStringLiteral("Landlock ABI")));
    // Which refusals the tier reports, and that the proxy's are among them.
    QFETCH(QString, refusals);
    QVERIFY2(descriptor.refusals.contains(refusals), qPrintable(descriptor.refusals));
    QVERIFY(descriptor.refusals.contains(QStringLiteral("filtering proxy")));
}

void TestAutoLauncher::missingHelperMakesItUnavailable()
{
    qputenv("SANDBOX_INIT_PATH", "/nonexistent/sandbox-init");
    AutoLauncher launcher;
    QFuture<Status> prepared = launcher.prepare();
    prepared.waitForFinished();
    qunsetenv("SANDBOX_INIT_PATH");
    QVERIFY(!prepared.result());
    QVERIFY2(prepared.result().error().message.contains(QStringLiteral("/nonexistent/sandbox-init")),
             qPrintable(prepared.result().error().message));
    const Availability availability = launcher.isAvailable().result();
    QVERIFY(!availability.available);
    QVERIFY(!availability.reason.isEmpty());
    const RunResult run = runIn(launcher, { QStringLiteral("true") }, Policy::defaults(), m_workspace.path());
    QVERIFY(!run.spawned);
    QVERIFY(run.error.contains(QStringLiteral("nothing was run")));
    QVERIFY(launcher.descriptor()
                .enforcement.value(QStringLiteral("filesystem"))
                .startsWith(QStringLiteral("not enforced")));
}

void TestAutoLauncher::unknownTierIsRejected()
{
    AutoLauncher launcher;
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("tier"), QStringLiteral("none-at-all"));
    const Status status = launcher.configure(settings).result();
    QVERIFY(!status);
    QVERIFY(status.error().message.contains(QStringLiteral("none-at-all")));
}

void TestAutoLauncher::unpreparedLauncherRunsNothing()
{
    AutoLauncher launcher;
    // Availability is what preparing would find (this host has a tier), not a state of this
    // instance; an instance that was never prepared still runs nothing.
    const Availability availability = launcher.isAvailable().result();
    QVERIFY2(availability.available, qPrintable(availability.reason));
    const RunResult run = runIn(launcher, { QStringLiteral("true") }, Policy::defaults(), m_workspace.path());
    QVERIFY(!run.spawned);
}

void TestAutoLauncher::runsCommandAndStreamsOutput()
{
    const RunResult run = runIn(
        launcher(), { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo hello; echo oops >&2; pwd") },
        Policy::defaults(), m_workspace.path());
    QVERIFY2(run.started, qPrintable(run.error + QString::fromLocal8Bit(run.err)));
    QCOMPARE(run.out, QByteArray("hello\n") + QFileInfo(m_workspace.path()).canonicalFilePath().toLocal8Bit() + '\n');
    QCOMPARE(run.err, QByteArray("oops\n"));
    QCOMPARE(run.status, (ExitStatus{ 0, false, 0, false }));
    QVERIFY(run.pid > 0);
}

void TestAutoLauncher::reportsExitCodesAndSignals()
{
    RunResult run = runIn(launcher(), { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 7") },
                          Policy::defaults(), m_workspace.path());
    QCOMPARE(run.status, (ExitStatus{ 7, false, 0, false }));
    run = runIn(launcher(), { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("kill -TERM $$") },
                Policy::defaults(), m_workspace.path());
    QCOMPARE(run.status, (ExitStatus{ 0, true, SIGTERM, false }));
    QCOMPARE(run.status.shellStatus(), 128 + SIGTERM);
    // A command exiting 125 is not mistaken for a setup failure.
    run = runIn(launcher(), { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 125") },
                Policy::defaults(), m_workspace.path());
    QVERIFY(run.started);
    QVERIFY(!run.failedToStart);
    QCOMPARE(run.status.exitCode, 125);
}

void TestAutoLauncher::passesStdin()
{
    const RunResult run = runIn(launcher(), { QStringLiteral("cat") }, Policy::defaults(), m_workspace.path(),
                                QByteArray("line one\nline two\n"));
    QCOMPARE(run.out, QByteArray("line one\nline two\n"));
    QCOMPARE(run.status.exitCode, 0);
}

void TestAutoLauncher::missingCommandIs127()
{
    const RunResult run
        = runIn(launcher(), { QStringLiteral("no-such-command-anywhere") }, Policy::defaults(), m_workspace.path());
    QCOMPARE(run.status.exitCode, 127);
    QVERIFY(run.err.contains("no-such-command-anywhere"));
}

void TestAutoLauncher::workspaceIsWritableButNothingElse()
{
    QTemporaryDir outside(QStringLiteral("/var/tmp/outside-XXXXXX"));
    QVERIFY(outside.isValid());
    const QString inside = m_workspace.filePath(QStringLiteral("made-inside"));
    const QString escaped = outside.filePath(QStringLiteral("made-outside"));
    const RunResult run = runIn(launcher(),
                                { QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("echo in > '%1'; echo out > '%2'; echo x > /etc/sandbox-test-marker; "
                                                 "echo done")
                                      .arg(inside, escaped) },
                                Policy::defaults(), m_workspace.path());
    QCOMPARE(run.out, QByteArray("done\n"));
    QVERIFY(QFile::exists(inside));
    QVERIFY(!QFile::exists(escaped));
    QVERIFY(!QFile::exists(QStringLiteral("/etc/sandbox-test-marker")));
    QVERIFY(run.err.contains(escaped.toLocal8Bit()));
}

void TestAutoLauncher::writingCallsAreCountedAsRoundTrips()
{
    // Each file the command creates is one call sandbox-init answers (the write gate), and
    // sandbox-init says how many there were: the figure the file-work benchmark divides by.
    const RunResult none = runIn(launcher(), { QStringLiteral("true") }, Policy::defaults(), m_workspace.path());
    QCOMPARE(none.status.exitCode, 0);
    const RunResult run = runIn(launcher(),
                                { QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("for i in 1 2 3 4 5 6 7 8; do : > counted-$i; done") },
                                Policy::defaults(), m_workspace.path());
    QCOMPARE(run.status.exitCode, 0);
    QVERIFY(QFile::exists(m_workspace.filePath(QStringLiteral("counted-8"))));
    QVERIFY2(run.supervisedCalls >= none.supervisedCalls + 8,
             qPrintable(
                 QStringLiteral("%1 calls, %2 without the files").arg(run.supervisedCalls).arg(none.supervisedCalls)));
    QVERIFY(run.supervisedMicroseconds > 0);
}

void TestAutoLauncher::deniedPathIsUnreadable()
{
    QTemporaryDir home(QStringLiteral("/var/tmp/home-XXXXXX"));
    QVERIFY(home.isValid());
    QVERIFY(QDir(home.path()).mkpath(QStringLiteral("vault")));
    QFile secret(home.filePath(QStringLiteral("vault/key")));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("TOP-SECRET-VALUE\n");
    secret.close();
    QFile visible(home.filePath(QStringLiteral("notes")));
    QVERIFY(visible.open(QIODevice::WriteOnly));
    visible.write("public\n");
    visible.close();
    const RunResult run = runIn(launcher(),
                                { QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("cat '%1/vault/key'; cat '%1/notes'").arg(home.path()) },
                                defaultPolicy({ home.filePath(QStringLiteral("vault")) }), m_workspace.path());
    QVERIFY(!run.out.contains("TOP-SECRET"));
    QCOMPARE(run.out, QByteArray("public\n"));
}

void TestAutoLauncher::writeBeneathADeniedPathIsRefusedAndReported()
{
    QTemporaryDir home(QStringLiteral("/var/tmp/home-XXXXXX"));
    QVERIFY(home.isValid());
    QVERIFY(QDir(home.path()).mkpath(QStringLiteral("vault")));
    const QString vault = QFileInfo(home.filePath(QStringLiteral("vault"))).canonicalFilePath();
    const RunResult run = runIn(launcher(),
                                { QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("echo x > '%1/planted'; mkdir '%1/made'; echo done").arg(vault) },
                                defaultPolicy({ vault }), m_workspace.path());
    QCOMPARE(run.out, QByteArray("done\n"));
    QVERIFY(!QFileInfo::exists(vault + QStringLiteral("/planted")));
    QVERIFY(!QFileInfo::exists(vault + QStringLiteral("/made")));
    // Each write is reported as it is refused, naming the denied path that refused it.
    QStringList reported;
    for (const Refusal &refusal : run.refusals) {
        if (refusal.kind != Refusal::Kind::Path)
            continue;
        QVERIFY2(refusal.rule.contains(vault + QStringLiteral(" is denied by the policy")), qPrintable(refusal.rule));
        QVERIFY2(refusal.rule.contains(QLatin1String("write gate")), qPrintable(refusal.rule));
        reported.append(refusal.what);
    }
    QVERIFY2(reported.contains(vault + QStringLiteral("/planted")), qPrintable(reported.join(QLatin1Char(','))));
    QVERIFY2(reported.contains(vault + QStringLiteral("/made")), qPrintable(reported.join(QLatin1Char(','))));
}

void TestAutoLauncher::narrowReadablePolicyStillRunsTools()
{
    // Only /usr and /etc readable: /bin, /lib64 ... are links into /usr on this system and
    // must still resolve.
    Policy policy = Policy::defaults();
    policy.readable = { QStringLiteral("/usr"), QStringLiteral("/etc") };
    const RunResult run = runIn(*m_strongest,
                                { QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("ls / | tr '\\n' ' '; test -e /var && echo var-visible") },
                                policy, m_workspace.path());
    QVERIFY2(run.status.exitCode != 0 || !run.out.contains("var-visible"), run.out.constData());
    QVERIFY2(run.out.contains("usr"), qPrintable(QString::fromLocal8Bit(run.out + run.err)));
    QVERIFY(!run.out.contains("root"));
}

void TestAutoLauncher::environmentStartsMinimal()
{
    qputenv("SANDBOX_TEST_LEAK", "leaked");
    const RunResult run = runIn(launcher(), { QStringLiteral("env") }, Policy::defaults(), m_workspace.path());
    qunsetenv("SANDBOX_TEST_LEAK");
    QVERIFY(run.out.contains("PATH="));
    QVERIFY(run.out.contains("HOME="));
    QVERIFY(!run.out.contains("SANDBOX_TEST_LEAK"));
    QVERIFY(!run.out.contains("SANDBOX_INIT"));
}

void TestAutoLauncher::workspaceAnywhereReadableIsUsable_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<QString>("parent");
    // Parents the policy makes readable only (no writable /tmp, no writable home).
    for (const int tier : { 1, 2 }) {
        const QByteArray t = tier == 1 ? "namespaces " : "landlock-seccomp ";
        QTest::newRow(QByteArray(t + "under /tmp").constData()) << tier << QStringLiteral("/tmp");
        QTest::newRow(QByteArray(t + "under /var/tmp").constData()) << tier << QStringLiteral("/var/tmp");
        QTest::newRow(QByteArray(t + "under the home").constData()) << tier << QDir::homePath();
    }
}

void TestAutoLauncher::workspaceAnywhereReadableIsUsable()
{
    QFETCH(int, tier);
    QFETCH(QString, parent);
    QTemporaryDir workspace(parent + QStringLiteral("/project-XXXXXX"));
    QVERIFY(workspace.isValid());
    QFile existing(workspace.filePath(QStringLiteral("existing")));
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write("was here\n");
    existing.close();
    Policy policy = Policy::defaults();
    policy.writable = { QStringLiteral("${workspace}") };
    policy.readOnly.clear();
    const QString beside = parent + QStringLiteral("/beside-%1").arg(QRandomGenerator::global()->bounded(1000000));
    const RunResult run
        = runIn(tier == 1 ? *m_strongest : *m_tier2,
                { QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("pwd; cat existing; echo made > made; echo x > '%1'; echo done").arg(beside) },
                policy, workspace.path());
    const QByteArray all = run.error.toLocal8Bit() + run.out + run.err;
    QVERIFY2(run.started, all.constData());
    QCOMPARE(run.out, workspace.path().toLocal8Bit() + "\nwas here\ndone\n");
    QFile made(workspace.filePath(QStringLiteral("made")));
    QVERIFY(made.open(QIODevice::ReadOnly));
    QCOMPARE(made.readAll(), QByteArray("made\n"));
    // Next to the workspace the parent stays read-only.
    const bool escaped = QFile::exists(beside);
    QFile::remove(beside);
    QVERIFY2(!escaped, all.constData());
}

void TestAutoLauncher::workspaceInsideHiddenPathIsRefused()
{
    QTemporaryDir vault(QStringLiteral("/var/tmp/vault-XXXXXX"));
    QVERIFY(vault.isValid());
    QVERIFY(QDir(vault.path()).mkpath(QStringLiteral("project")));
    QFile secret(vault.filePath(QStringLiteral("project/key")));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("TOP-SECRET-VALUE\n");
    secret.close();
    const RunResult run = runIn(launcher(), { QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("cat key") },
                                defaultPolicy({ vault.path() }), vault.filePath(QStringLiteral("project")));
    QVERIFY(!run.out.contains("TOP-SECRET"));
    QVERIFY2(!run.spawned, run.out.constData());
    QVERIFY2(run.error.contains(QStringLiteral("spawn.cwd")) && run.error.contains(QStringLiteral("denied"))
                 && run.error.contains(vault.path()),
             qPrintable(run.error));
}

void TestAutoLauncher::killEndsEveryProcessInside()
{
    const QByteArray marker = uniqueSleep();
    SpawnRequest request;
    request.argv = {
        QStringLiteral("sh"), QStringLiteral("-c"),
        QStringLiteral("setsid sleep %1 & (sleep %1 &) ; sleep %1 & echo ready; wait").arg(QString::fromLatin1(marker))
    };
    request.cwd = m_workspace.path();
    auto spawned = launcher().spawn(request, Policy::defaults());
    QVERIFY(spawned);
    std::shared_ptr<SandboxProcess> process = spawned.value();
    QByteArray out;
    connect(process.get(), &SandboxProcess::stdoutReady, this, [&](const QByteArray &data) { out += data; });
    QSignalSpy finished(process.get(), &SandboxProcess::finished);
    // Once "ready" is printed every process has been forked and the short-lived subshell has
    // exited, so the count no longer passes through 4 on its way up.
    QTRY_VERIFY_WITH_TIMEOUT(out.contains("ready"), 10000);
    // The shell (its command line names the marker too) and three sleeps.
    QTRY_COMPARE_WITH_TIMEOUT(processesWith(marker), 4, 10000);
    process->kill();
    QVERIFY(finished.wait(10000));
    QCOMPARE(processesWith(marker), 0);
    const auto status = finished.first().first().value<ExitStatus>();
    QVERIFY(status.signaled);
    QCOMPARE(status.signal, SIGKILL);
    QVERIFY(!process->isRunning());
}

void TestAutoLauncher::terminateIsForwardedToTheCommand()
{
    SpawnRequest request;
    request.argv = { QStringLiteral("sh"), QStringLiteral("-c"),
                     QStringLiteral("trap 'echo got-term; exit 0' TERM; echo ready; while :; do sleep 0.05; done") };
    request.cwd = m_workspace.path();
    auto spawned = launcher().spawn(request, Policy::defaults());
    QVERIFY(spawned);
    std::shared_ptr<SandboxProcess> process = spawned.value();
    QByteArray out;
    connect(process.get(), &SandboxProcess::stdoutReady, this, [&](const QByteArray &data) { out += data; });
    QSignalSpy finished(process.get(), &SandboxProcess::finished);
    QTRY_VERIFY_WITH_TIMEOUT(out.contains("ready"), 10000);
    process->terminate();
    QVERIFY(finished.wait(10000));
    QVERIFY2(out.contains("got-term"), out.constData());
    QCOMPARE(finished.first().first().value<ExitStatus>(), (ExitStatus{ 0, false, 0, false }));
}

void TestAutoLauncher::datagramsReachNoHostSocket()
{
    // A host service's datagram socket (as journald's or a notify socket) outside what the
    // masks cover: a datagram names its target in sendto(), with no connect() to refuse, so
    // no unix datagram socket may be made at all, nor a datagram socket pair (SOCK_RAW
    // included, which the kernel makes a datagram one of).
    const QByteArray path = QStringLiteral("/var/tmp/sandbox-dgram-%1.sock")
                                .arg(QRandomGenerator::global()->bounded(1000000))
                                .toLocal8Bit();
    const int service = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    QVERIFY(service >= 0);
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.constData(), path.size());
    QVERIFY(::bind(service, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    const QString probe
        = QStringLiteral("import socket,sys\n"
                         "for kind in ('pair','socket','raw pair'):\n"
                         " try:\n"
                         "  s=socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0] if kind=='pair' else "
                         "socket.socketpair(socket.AF_UNIX, socket.SOCK_RAW)[0] if kind=='raw pair' else "
                         "socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
                         "  s.sendto(b'escaped', sys.argv[1]); print('sent', kind)\n"
                         " except OSError as e:\n"
                         "  print('refused', kind, e.errno)\n");
    const RunResult run
        = runIn(launcher(), { QStringLiteral("python3"), QStringLiteral("-c"), probe, QString::fromLocal8Bit(path) },
                Policy::defaults(), m_workspace.path());
    char buffer[64];
    const ssize_t received = ::recv(service, buffer, sizeof buffer, MSG_DONTWAIT);
    ::close(service);
    ::unlink(path.constData());
    QVERIFY2(run.out.contains("refused pair") && run.out.contains("refused socket")
                 && run.out.contains("refused raw pair"),
             QByteArray(run.error.toLocal8Bit() + run.out + run.err).constData());
    QCOMPARE(received, ssize_t(-1));
}

void TestAutoLauncher::hostExecutionAskIsAskedAndRefusalDenies()
{
    QFETCH(int, tier);
    // A host service socket below /run, as a session bus or container engine has.
    const QString path = QStringLiteral("/run/sandbox-test-%1.sock").arg(QRandomGenerator::global()->bounded(1000000));
    QLocalServer server;
    QVERIFY(server.listen(path));
    const QString probe = QStringLiteral(
        "import socket,sys\ntry:\n s=socket.socket(socket.AF_UNIX)\n s.connect(sys.argv[1]); print('reached')\n"
        "except OSError as e:\n print('refused', e)\n");
    const QStringList argv = { QStringLiteral("python3"), QStringLiteral("-c"), probe, path };
    Policy policy = Policy::defaults();
    policy.hostExecution = Policy::HostExecution::Ask;
    for (const bool accept : { false, true }) {
        auto launcher = preparedLauncher(tier == 1 ? QStringLiteral("strongest") : QStringLiteral("landlock-seccomp"));
        QVERIFY(launcher);
        FixedAnswerHost host(accept);
        launcher->attach(&host);
        const RunResult run = runIn(*launcher, argv, policy, m_workspace.path());
        QCOMPARE(host.questions(), 1);
        QVERIFY2(run.out.startsWith(accept ? "reached" : "refused"), QByteArray(run.out + run.err).constData());
    }
    policy.hostExecution = Policy::HostExecution::Deny;
    QVERIFY(runIn(launcher(), argv, policy, m_workspace.path()).out.startsWith("refused"));
    policy.hostExecution = Policy::HostExecution::Allow;
    QVERIFY(runIn(launcher(), argv, policy, m_workspace.path()).out.startsWith("reached"));
}

void TestAutoLauncher::badRequestsAreRefusedBeforeAnythingRuns()
{
    RunResult run
        = runIn(*m_strongest, { QStringLiteral("true") }, Policy::defaults(), QStringLiteral("/nonexistent/ws"));
    QVERIFY(!run.spawned);
    QVERIFY(run.error.contains(QStringLiteral("/nonexistent/ws")));
    Policy policy = Policy::defaults();
    policy.readable.append(QStringLiteral("relative/path"));
    run = runIn(*m_strongest, { QStringLiteral("true") }, policy, m_workspace.path());
    QVERIFY(!run.spawned);
    QVERIFY2(run.error.contains(QStringLiteral("readable[1]")), qPrintable(run.error));
    policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("bad domain!") };
    run = runIn(*m_strongest, { QStringLiteral("true") }, policy, m_workspace.path());
    QVERIFY(!run.spawned);
}

QTEST_GUILESS_MAIN(TestAutoLauncher)
#include "tst_autolauncher.moc"
