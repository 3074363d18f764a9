// `sandboxctl run` against a real sandboxd: the run front answers as the full program, signals
// and Ctrl-C reach the command, questions go to the right client, and a hot switch keeps
// each command in the tier that started it.
#include "DaemonFixture.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTest>

#include <csignal>
#include <unistd.h>

using sandbox::test::binary;
using sandbox::test::everyPidKnown;
using sandbox::test::Outcome;
using sandbox::test::pidAlive;

class TestDaemonRun final : public QObject, private sandbox::test::DaemonFixture
{
    Q_OBJECT

public:
    TestDaemonRun();

private slots:
    void init();
    void cleanup();

    void runFrontAnswersAsTheFullProgram();
    void signalToRunFrontEndsTheCommand();
    void ctrlCGoesOnToTheCommandAndASecondKills();
    void hostInteractionWithoutTerminalNamesTheQuestion();
    void runningCommandLeavesOtherClientsQuestionsAlone_data();
    void runningCommandLeavesOtherClientsQuestionsAlone();
    void hotSwitchKeepsEachCommandInTheTierThatStartedIt();
};

TestDaemonRun::TestDaemonRun()
    : DaemonFixture(QStringLiteral(SANDBOX_TEST_PACK_DIR))
{ }

void TestDaemonRun::init()
{
    setUp();
}

void TestDaemonRun::cleanup()
{
    tearDown();
}

// `sandboxctl run` through a running engine is served by the run front without Qt; the
// full program (sandboxctl-full) serves the same command lines as before. What a user
// sees must not depend on which one answered.
void TestDaemonRun::runFrontAnswersAsTheFullProgram()
{
#ifndef __linux__
    QSKIP("the run front exists on Linux only");
#endif
    QFile policyFile(m_rig.filePath(QStringLiteral("work/policy.json")));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}"],"denied":[],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"deny"})");
    policyFile.close();
    QFile wrongPolicy(m_rig.filePath(QStringLiteral("work/wrong.json")));
    QVERIFY(wrongPolicy.open(QIODevice::WriteOnly));
    wrongPolicy.write(R"({"network":{"mode":"sometimes"}})");
    wrongPolicy.close();
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);

    const auto run = [](const QStringList &rest) { return QStringList{ QStringLiteral("run") } + rest; };
    const QList<QStringList> script = {
        run({ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("cat; echo to-stderr >&2; exit 7") }),
        run({ QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("head -c 3000000 /dev/zero | tr '\\0' x") }),
        run({ QStringLiteral("--"), QStringLiteral("printf"), QStringLiteral("\\377\\000\\n") }),
        run({ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("kill -KILL $$") }),
        run({ QStringLiteral("--"), QStringLiteral("/no/such/program") }),
        run({ QStringLiteral("--"), QString(), QStringLiteral("x") }),
        run({ QStringLiteral("--policy"), QStringLiteral("policy.json"), QStringLiteral("--"), QStringLiteral("sh"),
              QStringLiteral("-c"), QStringLiteral("touch inside && ls inside && touch /usr/outside") }),
        run({ QStringLiteral("--policy=wrong.json"), QStringLiteral("--"), QStringLiteral("true") }),
        run({ QStringLiteral("--policy"), QStringLiteral("missing.json"), QStringLiteral("--"),
              QStringLiteral("true") }),
        run({ QStringLiteral("--timeout"), QStringLiteral("0.5"), QStringLiteral("--"), QStringLiteral("sleep"),
              QStringLiteral("30") }),
        run({ QStringLiteral("--timeout=99999999"), QStringLiteral("--"), QStringLiteral("true") }),
        run({ QStringLiteral("--timeout"), QStringLiteral("soon"), QStringLiteral("--"), QStringLiteral("true") }),
        run({ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("echo \"$TERM $LANG\"") }),
        run({}),
        run({ QStringLiteral("--bogus"), QStringLiteral("--"), QStringLiteral("true") }),
    };
    for (const QStringList &command : script) {
        const QString what = command.join(QLatin1Char(' '));
        const QStringList args = QStringList{ QStringLiteral("--socket"), m_rig.socket() } + command;
        const QString work = m_rig.filePath(QStringLiteral("work"));
        QFile::remove(m_rig.filePath(QStringLiteral("work/inside")));
        const Outcome front = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), args, work,
                                                        "piped input\n", 60000, environment(QStringLiteral("d")));
        QFile::remove(m_rig.filePath(QStringLiteral("work/inside")));
        const Outcome full = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl-full")), args, work,
                                                       "piped input\n", 60000, environment(QStringLiteral("d")));
        QVERIFY2(front.exitCode == full.exitCode,
                 qPrintable(what + QStringLiteral(": %1 vs %2").arg(front.exitCode).arg(full.exitCode)));
        QVERIFY2(front.out == full.out, qPrintable(what + QStringLiteral(": stdout differs")));
        QVERIFY2(front.err == full.err,
                 qPrintable(what + QStringLiteral(":\n") + QString::fromUtf8(front.err) + QStringLiteral("\nvs\n")
                            + QString::fromUtf8(full.err)));
    }
    // Without a terminal, a question the engine asks during the run is refused and named by
    // a key that stays the same from run to run, and the command that ran gives its status.
    QFile askPolicy(m_rig.filePath(QStringLiteral("work/ask.json")));
    QVERIFY(askPolicy.open(QIODevice::WriteOnly));
    askPolicy.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}"],"denied":[],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"ask"})");
    askPolicy.close();
    const auto asking = [](const QString &socket, const QStringList &answers) {
        return QStringList{ QStringLiteral("--socket"), socket } + answers
            + QStringList{ QStringLiteral("run"),
                           QStringLiteral("--policy"),
                           QStringLiteral("ask.json"),
                           QStringLiteral("--"),
                           QStringLiteral("sh"),
                           QStringLiteral("-c"),
                           QStringLiteral("echo \"bus ${DBUS_SESSION_BUS_ADDRESS:-none}\"") };
    };
    const Outcome frontAsked = sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl")), asking(m_rig.socket(), {}), m_rig.filePath(QStringLiteral("work")), {},
        60000, environment(QStringLiteral("d")));
    const Outcome fullAsked = sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl-full")), asking(m_rig.socket(), {}), m_rig.filePath(QStringLiteral("work")),
        {}, 60000, environment(QStringLiteral("d")));
    QCOMPARE(frontAsked.exitCode, 0);
    QCOMPARE(fullAsked.exitCode, 0);
    QCOMPARE(frontAsked.out, QByteArray("bus none\n"));
    QCOMPARE(frontAsked.out, fullAsked.out);
    QCOMPARE(frontAsked.err, fullAsked.err);
    QVERIFY2(frontAsked.err.startsWith("sandboxctl: the engine asks \"Allow host execution?\" (confirm, answer key "
                                       "host-execution): "),
             frontAsked.err.constData());
    QVERIFY2(frontAsked.err.endsWith("To answer, run again with --answer host-execution=VALUE\n"),
             frontAsked.err.constData());
    // The key it named answers it on the next run, either way. Host execution hands the
    // engine's session bus address to the command, so the command shows the answer; an
    // engine this run hosts has the run's environment.
    QProcessEnvironment embedded = environment(QStringLiteral("e"));
    embedded.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/test-bus"));
    const QString noOwner = m_rig.filePath(QStringLiteral("e/engine.sock"));
    for (const auto &[answer, bus] :
         { std::pair{ "yes", "bus unix:path=/test-bus\n" }, std::pair{ "no", "bus none\n" } }) {
        const Outcome answered = sandbox::test::runProgram(
            binary(QStringLiteral("sandboxctl")),
            asking(noOwner, { QStringLiteral("--answer"), QStringLiteral("host-execution=") + QLatin1String(answer) }),
            m_rig.filePath(QStringLiteral("work")), {}, 60000, embedded);
        QVERIFY2(answered.exitCode == 0, answered.err.constData());
        QCOMPARE(answered.out, QByteArray(bus));
        QCOMPARE(answered.err, QByteArray());
    }

    // And each says what the user expects.
    const Outcome piped = ctl(script[0], "piped input\n");
    QCOMPARE(piped.exitCode, 7);
    QCOMPARE(piped.out, QByteArray("piped input\n"));
    QCOMPARE(piped.err, QByteArray("to-stderr\n"));
    QCOMPARE(ctl(script[1]).out.size(), 3000000);
    QCOMPARE(ctl(script[2]).out, QByteArray("\xff\0\n", 3));
    QCOMPARE(ctl(script[3]).exitCode, 128 + SIGKILL);
    const Outcome confined = ctl(script[6]);
    QVERIFY2(confined.exitCode != 0 && confined.out == "inside\n", confined.err.constData());
    QVERIFY(!QFile::exists(QStringLiteral("/usr/outside")));
    const Outcome wrong = ctl(script[7]);
    QCOMPARE(wrong.exitCode, 125);
    QVERIFY2(wrong.err.startsWith("sandboxctl: wrong.json"), wrong.err.constData());
    QCOMPARE(ctl(script[9]).err, QByteArray("sandboxctl: sleep timed out after 0.5 s and was killed\n"));
}

void TestDaemonRun::signalToRunFrontEndsTheCommand()
{
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);
    // The engine's table keeps ended processes; these are the ones still running.
    const auto running = [this] {
        QJsonArray live;
        const QJsonArray all = processes();
        for (const QJsonValue &process : all) {
            if (process.toObject().value(QStringLiteral("state")).toString() == QLatin1String("running"))
                live.append(process);
        }
        return live;
    };
    int statuses[2] = { -1, -1 };
    int index = 0;
    for (const QString &program : { QStringLiteral("sandboxctl"), QStringLiteral("sandboxctl-full") }) {
        QProcess client;
        client.setProcessEnvironment(environment(QStringLiteral("d")));
        client.setWorkingDirectory(m_rig.filePath(QStringLiteral("work")));
        client.start(binary(program),
                     { QStringLiteral("--socket"), m_rig.socket(), QStringLiteral("run"), QStringLiteral("--"),
                       QStringLiteral("sleep"), QStringLiteral("300") });
        QVERIFY(client.waitForStarted());
        QJsonArray list;
        QTRY_VERIFY_WITH_TIMEOUT((list = running()).size() == 1 && everyPidKnown(list), 30000);
        const qint64 pid = list.first().toObject().value(QStringLiteral("pid")).toInteger();
        QVERIFY(pidAlive(pid));
        ::kill(pid_t(client.processId()), SIGINT);
        QVERIFY(client.waitForFinished(30000));
        QCOMPARE(client.exitStatus(), QProcess::NormalExit);
        statuses[index++] = client.exitCode();
        QTRY_VERIFY_WITH_TIMEOUT(running().isEmpty(), 30000);
        QVERIFY(!pidAlive(pid));
    }
    QCOMPARE(statuses[0], statuses[1]);
    // sleep died of the SIGINT passed on to it.
    QCOMPARE(statuses[0], 128 + SIGINT);
}

// Ctrl-C reaches the command, which may handle it and go on; a second Ctrl-C kills it. The
// same through a running engine (the run front and the full program) and an embedded one.
void TestDaemonRun::ctrlCGoesOnToTheCommandAndASecondKills()
{
    startDaemon();
    const QString work = m_rig.filePath(QStringLiteral("work"));
    const QStringList daemonRun{ QStringLiteral("--socket"), m_rig.socket(), QStringLiteral("run") };
    const QStringList embeddedRun{ QStringLiteral("--socket"), m_rig.filePath(QStringLiteral("e/engine.sock")),
                                   QStringLiteral("run") };
    const struct
    {
        const char *program;
        QStringList args;
        QString profile;
    } paths[] = { { "sandboxctl", daemonRun, QStringLiteral("d") },
                  { "sandboxctl-full", daemonRun, QStringLiteral("d") },
                  { "sandboxctl", embeddedRun, QStringLiteral("e") } };
    for (const auto &path : paths) {
        const sandbox::test::InterruptedRuns runs = sandbox::test::interruptRuns(
            binary(QLatin1String(path.program)), path.args, work, environment(path.profile));
        const QByteArray what = QByteArray(path.program) + ' ' + path.args.join(QLatin1Char(' ')).toUtf8() + ": ";
        QVERIFY2(runs.handled.out == "ready\ngot-int\n",
                 QByteArray(what + runs.handled.out + runs.handled.err).constData());
        QVERIFY2(runs.handled.exitCode == 128 + SIGKILL, QByteArray(what + runs.handled.err).constData());
        QVERIFY2(runs.plain.out == "ready\n", QByteArray(what + runs.plain.out + runs.plain.err).constData());
        QVERIFY2(runs.plain.exitCode == 128 + SIGINT, QByteArray(what + runs.plain.err).constData());
        QCOMPARE(runs.plain.err, QByteArray());
    }
}

void TestDaemonRun::hostInteractionWithoutTerminalNamesTheQuestion()
{
    startDaemon();
    const QString asking = QStringLiteral("atom-pack:test-secrets:asking");
    const Outcome refused = ctl({ QStringLiteral("activate"), asking });
    // Its own status: the activation failed for want of an answer.
    QCOMPARE(refused.exitCode, 3);
    QVERIFY2(refused.err.contains("the engine asks \"Set up the asking backend?\" (confirm, answer key confirm-setup)"),
             refused.err.constData());
    QVERIFY(refused.err.contains("--answer confirm-setup=VALUE"));
    QVERIFY(refused.err.contains("the active backend is still builtin:auto"));

    const Outcome answered
        = ctl({ QStringLiteral("--answer"), QStringLiteral("confirm-setup=yes"), QStringLiteral("activate"), asking });
    QCOMPARE(answered.exitCode, 0);
    QVERIFY(answered.out.endsWith("activated atom-pack:test-secrets:asking\n"));
    const Outcome status = ctl({ QStringLiteral("status") });
    QVERIFY(status.out.contains("active backend:  atom-pack:test-secrets:asking"));
}

void TestDaemonRun::runningCommandLeavesOtherClientsQuestionsAlone_data()
{
    programRows();
}

// A sandboxctl run whose command is running neither prompts for nor refuses a question
// another client's work asks (here an activation that answers its own question).
void TestDaemonRun::runningCommandLeavesOtherClientsQuestionsAlone()
{
    QFETCH(QString, program);
    startDaemon();
    auto running = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo started; sleep 20; echo done") },
                            program);
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    const Outcome answered = ctl({ QStringLiteral("--answer"), QStringLiteral("confirm-setup=yes"),
                                   QStringLiteral("activate"), QStringLiteral("atom-pack:test-secrets:asking") });
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    const QByteArray said = running->readAllStandardError();
    QVERIFY2(!said.contains("Set up the asking backend?"), said.constData());
    running->kill();
    running->waitForFinished(10000);
}

namespace {

QByteArray pidNamespaceOf(const QByteArray &procPath)
{
    char target[256] = {};
    const ssize_t length = ::readlink(procPath.constData(), target, sizeof target - 1);
    return length > 0 ? QByteArray(target, int(length)) : QByteArray();
}

QByteArray nextLine(QProcess &process)
{
    QByteArray line;
    [[maybe_unused]] const bool done = QTest::qWaitFor(
        [&] {
            if (process.canReadLine()) {
                line = process.readLine().trimmed();
                return true;
            }
            return process.state() == QProcess::NotRunning;
        },
        30000);
    return line;
}

} // namespace

void TestDaemonRun::hotSwitchKeepsEachCommandInTheTierThatStartedIt()
{
    // The real auto launcher, switched from tier 1 to tier 2 while a command runs. Each
    // command says which pid namespace it is in, before and after the switch; tier 1 gives
    // it its own, tier 2 (no namespaces) leaves it in the host's.
    startDaemon();
    const QByteArray host = pidNamespaceOf("/proc/self/ns/pid");
    QVERIFY(!host.isEmpty());
    const QStringList reporter{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                QStringLiteral("readlink /proc/self/ns/pid; read x; readlink /proc/self/ns/pid") };
    QVERIFY(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                  QStringLiteral("tier=strongest") })
                .exitCode
            == 0);
    auto first = startCtl(reporter);
    const QByteArray firstBefore = nextLine(*first);
    QVERIFY2(firstBefore.startsWith("pid:["), firstBefore.constData());
    QVERIFY(firstBefore != host);

    const Outcome switched = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                                   QStringLiteral("tier=landlock-seccomp") });
    QVERIFY2(switched.exitCode == 0, switched.err.constData());
    auto second = startCtl(reporter);
    const QByteArray secondBefore = nextLine(*second);
    QCOMPARE(secondBefore, host);

    // Both run, both served by auto.
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = processes()).size() == 2, 30000);
    for (const QJsonValue &p : std::as_const(list)) {
        QCOMPARE(p.toObject().value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QCOMPARE(p.toObject().value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1),
                 QStringLiteral("auto"));
    }

    // After the switch the first command is still in its own namespace: tier 1. The
    // second ends first: an embedding owner ends every command it serves when it exits.
    second->write("go\n");
    second->closeWriteChannel();
    QCOMPARE(nextLine(*second), host);
    QTRY_VERIFY_WITH_TIMEOUT(second->state() == QProcess::NotRunning, 30000);
    QCOMPARE(second->exitCode(), 0);
    first->write("go\n");
    first->closeWriteChannel();
    QCOMPARE(nextLine(*first), firstBefore);
    QTRY_VERIFY_WITH_TIMEOUT(first->state() == QProcess::NotRunning, 30000);
    QCOMPARE(first->exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestDaemonRun)
#include "tst_daemon_run.moc"
