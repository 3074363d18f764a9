// sandboxd's life beside its clients, as a user runs them: one owner per user (also when
// two start at once or the last one died), several clients at once, clients and the daemon
// killed in the middle of an activation or a command, another user knocking.
#include "DaemonFixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using sandbox::test::binary;
using sandbox::test::everyPidKnown;
using sandbox::test::killHard;
using sandbox::test::Outcome;
using sandbox::test::pidAlive;
using sandbox::test::serverPid;

class TestDaemonLifecycle final : public QObject, private sandbox::test::DaemonFixture
{
    Q_OBJECT

public:
    TestDaemonLifecycle();

private slots:
    void init();
    void cleanup();

    void secondOwnerIsNotStarted();
    void concurrentClientsRunCommandsDuringAnActivation();
    void clientKilledMidSpawnTakesItsProcessesWithIt();
    void clientKilledMidActivationLeavesEngineConsistent();
    void daemonKilledWithSigkillTakesItsSandboxesWithIt_data();
    void daemonKilledWithSigkillTakesItsSandboxesWithIt();
    void anotherUserIsRefusedAndLogged();
    void twoRunsWithoutAnOwnerEachEndOnTheirOwn();
    void terminateEndsRunningProcesses_data();
    void terminateEndsRunningProcesses();
    void simultaneousStartsMakeExactlyOneOwner();
    void staleSocketOfADeadOwnerIsReplaced();
};

TestDaemonLifecycle::TestDaemonLifecycle()
    : DaemonFixture(QStringLiteral(SANDBOX_TEST_PACK_DIR))
{ }

void TestDaemonLifecycle::init()
{
    setUp();
}

void TestDaemonLifecycle::cleanup()
{
    tearDown();
}

void TestDaemonLifecycle::secondOwnerIsNotStarted()
{
    startDaemon();
    QProcess second;
    second.setProcessEnvironment(environment(QStringLiteral("d")));
    second.start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--socket"), m_rig.socket() });
    QVERIFY(second.waitForFinished(30000));
    QCOMPARE(second.exitCode(), 0);
    const QByteArray message = second.readAllStandardError();
    QVERIFY2(message.contains(
                 QByteArray("already running for this user (pid " + QByteArray::number(m_rig.daemon()->processId()))),
             message.constData());

    const Outcome embedded = ctl({ QStringLiteral("--embedded"), QStringLiteral("status") });
    QCOMPARE(embedded.exitCode, 1);
    QVERIFY(embedded.err.contains("already runs for this user"));

    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(status.exitCode, 0);
    const QJsonObject s = QJsonDocument::fromJson(status.out).object();
    QCOMPARE(s.value(QStringLiteral("server")).toObject().value(QStringLiteral("pid")).toInteger(),
             m_rig.daemon()->processId());
    QCOMPARE(s.value(QStringLiteral("embedded")).toBool(), false);
}

void TestDaemonLifecycle::concurrentClientsRunCommandsDuringAnActivation()
{
    startDaemon();
    std::vector<std::unique_ptr<QProcess>> runs;
    for (int i = 0; i < 4; ++i) {
        runs.push_back(startCtl(
            { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("read line; echo \"client %1 got $line\"; echo to-stderr-%1 >&2; exit %1").arg(i) }));
    }
    auto activation = startCtl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    for (int i = 0; i < 4; ++i) {
        runs[size_t(i)]->write(QByteArray("line-") + QByteArray::number(i) + '\n');
        runs[size_t(i)]->closeWriteChannel();
    }
    for (int i = 0; i < 4; ++i) {
        QProcess &run = *runs[size_t(i)];
        QVERIFY(run.waitForFinished(60000));
        const QByteArray err = run.readAllStandardError();
        QVERIFY2(run.exitCode() == i, err.constData());
        QCOMPARE(run.readAllStandardOutput(),
                 QByteArray("client ") + QByteArray::number(i) + " got line-" + QByteArray::number(i) + '\n');
        QCOMPARE(err, QByteArray("to-stderr-") + QByteArray::number(i) + '\n');
    }
    QVERIFY(activation->waitForFinished(60000));
    const QByteArray activated = activation->readAllStandardOutput();
    QCOMPARE(activation->exitCode(), 0);
    QVERIFY2(activated.contains("swap             succeeded"), activated.constData());
    QVERIFY(activated.endsWith("activated builtin:auto\n"));

    const QJsonArray list = processes();
    QCOMPARE(list.size(), 4);
    for (const QJsonValue &p : list) {
        QCOMPARE(p.toObject().value(QStringLiteral("state")).toString(), QStringLiteral("exited"));
        QCOMPARE(p.toObject().value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1),
                 QStringLiteral("auto"));
    }
}

void TestDaemonLifecycle::clientKilledMidSpawnTakesItsProcessesWithIt()
{
    startDaemon();
    auto victim
        = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("300") });
    auto survivor = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("read x; echo survived $x") });
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = processes()).size() == 2 && everyPidKnown(list), 30000);
    qint64 sleepPid = 0;
    for (const QJsonValue &p : std::as_const(list)) {
        if (p.toObject().value(QStringLiteral("argv")).toArray().first().toString() == QLatin1String("sleep"))
            sleepPid = p.toObject().value(QStringLiteral("pid")).toInteger();
    }
    QVERIFY(pidAlive(sleepPid));

    killHard(*victim);
    QVERIFY(victim->waitForFinished());
    QTRY_VERIFY_WITH_TIMEOUT(!pidAlive(sleepPid), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.log().contains("1 process(es) killed"), 30000);

    // The other client and its command are untouched.
    survivor->write("yes\n");
    survivor->closeWriteChannel();
    QVERIFY(survivor->waitForFinished(30000));
    QCOMPARE(survivor->exitCode(), 0);
    QCOMPARE(survivor->readAllStandardOutput(), QByteArray("survived yes\n"));
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(status.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(status.out).object().value(QStringLiteral("processes")).toInt(), 0);
}

void TestDaemonLifecycle::clientKilledMidActivationLeavesEngineConsistent()
{
    startDaemon();
    for (int round = 0; round < 3; ++round) {
        auto victim = startCtl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
        QByteArray seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen += victim->readAllStandardOutput()).contains("validate"), 30000);
        killHard(*victim);
        QVERIFY(victim->state() == QProcess::NotRunning || victim->waitForFinished());
    }
    // The activations ran to their end without their clients; the engine still answers
    // everyone, and builtin:auto is what it says is active.
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(status.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(status.out).object().value(QStringLiteral("active")).toString(),
             QStringLiteral("builtin:auto"));
    const Outcome again = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    QCOMPARE(again.exitCode, 0);
    const Outcome run
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("echo"), QStringLiteral("ok") });
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray("ok\n"));
    QCOMPARE(m_rig.daemon()->state(), QProcess::Running);
}

void TestDaemonLifecycle::daemonKilledWithSigkillTakesItsSandboxesWithIt_data()
{
    QTest::addColumn<QString>("tier");
    QTest::newRow("namespaces") << QStringLiteral("strongest");
    QTest::newRow("landlock-seccomp") << QStringLiteral("landlock-seccomp");
}

// The engine that holds a sandbox is killed (the OOM killer, a crash): every process of
// the sandbox ends with it, grandchildren in a session of their own included (they hold a
// lock until they end).
void TestDaemonLifecycle::daemonKilledWithSigkillTakesItsSandboxesWithIt()
{
    QFETCH(QString, tier);
    startDaemon();
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                   QStringLiteral("tier=") + tier })
                 .exitCode,
             0);
    QCOMPARE(ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }).exitCode, 0);
    const QString work = m_rig.filePath(QStringLiteral("work"));
    auto client = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral("setsid flock held.lock sh -c 'echo up > held.ready; exec sleep 1000' & "
                                            "sh -c 'exec sleep 1000' & wait") });
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(work + QStringLiteral("/held.ready")), 30000);
    killHard(*m_rig.daemon());
    QTRY_VERIFY_WITH_TIMEOUT(sandbox::test::lockIsFree(work + QStringLiteral("/held.lock")), 15000);
    // The client says it lost its engine and ends with an error of its own.
    QTRY_VERIFY_WITH_TIMEOUT(client->state() == QProcess::NotRunning, 30000);
    QVERIFY2(client->exitCode() != 0, client->readAllStandardError().constData());
}

void TestDaemonLifecycle::anotherUserIsRefusedAndLogged()
{
    if (::geteuid() != 0)
        QSKIP("needs root to run a client as another user");
    if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
        QSKIP("setpriv (util-linux) is not installed");
    startDaemon();
    // Open the path to everyone, so what stops the other user is the uid check in the
    // engine, not the file system.
    const QString runDir = QFileInfo(m_rig.socket()).absolutePath();
    for (const QString &dir : { m_rig.path(), runDir })
        QVERIFY(::chmod(QFile::encodeName(dir).constData(), 0755) == 0);
    QVERIFY(::chmod(QFile::encodeName(m_rig.socket()).constData(), 0666) == 0);

    QProcess intruder;
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), QStringLiteral("/nonexistent"));
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    intruder.setProcessEnvironment(env);
    intruder.start(QStringLiteral("setpriv"),
                   { QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups"),
                     binary(QStringLiteral("sandboxctl")), QStringLiteral("--socket"), m_rig.socket(),
                     QStringLiteral("status") });
    QVERIFY(intruder.waitForFinished(30000));
    const QByteArray err = intruder.readAllStandardError();
    QCOMPARE(intruder.exitCode(), 1);
    QVERIFY2(err.contains("served by uid 0"), err.constData());
    QVERIFY(intruder.readAllStandardOutput().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.log().contains("refused a connection from uid 65534 pid "), 10000);

    const Outcome status = ctl({ QStringLiteral("status") });
    QCOMPARE(status.exitCode, 0);
}

// With no engine owner, two `sandboxctl run`s at once each end with their own command: the
// second, started while the first runs and still running when the first has exited, keeps
// its command, its output and its status.
void TestDaemonLifecycle::twoRunsWithoutAnOwnerEachEndOnTheirOwn()
{
    const QString work = m_rig.filePath(QStringLiteral("work"));
    // Each in its own workspace: no plan recorded by the first serves the second, so the
    // second's own sandboxctl hosts an engine.
    for (const QString &name : { QStringLiteral("first"), QStringLiteral("second") }) {
        QVERIFY(QDir(work).mkpath(name));
        QVERIFY(::mkfifo(QFile::encodeName(QDir(work).filePath(name + QStringLiteral("/gate"))).constData(), 0600)
                == 0);
    }
    const QString report = m_rig.filePath(QStringLiteral("run-paths"));
    const auto start = [&](const QString &name, int status) {
        auto process = std::make_unique<QProcess>();
        QProcessEnvironment env = environment(QStringLiteral("e"));
        env.insert(QStringLiteral("SANDBOXCTL_RUN_PATH_REPORT"), report);
        process->setProcessEnvironment(env);
        process->setWorkingDirectory(QDir(work).filePath(name));
        process->start(binary(QStringLiteral("sandboxctl")),
                       { QStringLiteral("--socket"), m_rig.filePath(QStringLiteral("e/engine.sock")),
                         QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                         QStringLiteral("echo %1 started; : > started; read word < gate; echo %1 got $word; exit %2")
                             .arg(name)
                             .arg(status) });
        process->closeWriteChannel();
        return process;
    };
    // Opened for reading and writing, a fifo never blocks: the word reaches the command
    // waiting for it, or nobody when the command is gone.
    const auto open = [&](const QString &name) {
        const QByteArray path = QFile::encodeName(QDir(work).filePath(name + QStringLiteral("/gate")));
        const int fd = ::open(path.constData(), O_RDWR | O_CLOEXEC);
        QVERIFY(fd >= 0);
        const QByteArray word = name.toLatin1() + "-go\n";
        const ssize_t written = ::write(fd, word.constData(), size_t(word.size()));
        ::close(fd);
        QCOMPARE(written, ssize_t(word.size()));
    };

    std::unique_ptr<QProcess> first = start(QStringLiteral("first"), 3);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(QDir(work).filePath(QStringLiteral("first/started"))), 60000);
    std::unique_ptr<QProcess> second = start(QStringLiteral("second"), 5);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(QDir(work).filePath(QStringLiteral("second/started"))), 60000);

    open(QStringLiteral("first"));
    QVERIFY(first->waitForFinished(60000));
    QCOMPARE(first->exitCode(), 3);
    QCOMPARE(first->readAllStandardOutput(), QByteArray("first started\nfirst got first-go\n"));

    // The first sandboxctl is gone; the second's command still runs and ends on its own.
    QCOMPARE(second->state(), QProcess::Running);
    open(QStringLiteral("second"));
    QVERIFY(second->waitForFinished(60000));
    const QByteArray err = second->readAllStandardError();
    QVERIFY2(second->exitStatus() == QProcess::NormalExit && second->exitCode() == 5,
             qPrintable(QStringLiteral("status %1: ").arg(second->exitCode()) + QString::fromUtf8(err)));
    QCOMPARE(second->readAllStandardOutput(), QByteArray("second started\nsecond got second-go\n"));
    QFile paths(report);
    QVERIFY(paths.open(QIODevice::ReadOnly));
    QCOMPARE(paths.readAll(), QByteArray("full no record\nfull no record\n"));
}

void TestDaemonLifecycle::terminateEndsRunningProcesses_data()
{
    programRows();
}

void TestDaemonLifecycle::terminateEndsRunningProcesses()
{
    QFETCH(QString, program);
    startDaemon();
    auto client = startCtl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("300") }, program);
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = processes()).size() == 1 && everyPidKnown(list), 30000);
    const qint64 pid = list.first().toObject().value(QStringLiteral("pid")).toInteger();
    QVERIFY(pidAlive(pid));
    m_rig.daemon()->terminate();
    QVERIFY(m_rig.daemon()->waitForFinished(30000));
    QCOMPARE(m_rig.daemon()->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_rig.daemon()->exitCode(), 0);
    QVERIFY(!pidAlive(pid));
    // The client says why its command ended: the engine stopped.
    QTRY_VERIFY_WITH_TIMEOUT(client->state() == QProcess::NotRunning, 30000);
    const QByteArray said = client->readAllStandardError();
    QVERIFY2(client->exitCode() != 0, said.constData());
    QVERIFY2(said.contains("the engine stopped (the program hosting it quit) and ended sleep"), said.constData());
    QVERIFY(!QFile::exists(m_rig.socket()));
    // The selection survived the shutdown: a new owner restores it.
    QVERIFY(QDir(m_rig.filePath(QStringLiteral("d/config"))).exists());
    const Outcome after = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(after.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(after.out).object().value(QStringLiteral("active")),
             QJsonValue(QStringLiteral("builtin:auto")));
}

void TestDaemonLifecycle::simultaneousStartsMakeExactlyOneOwner()
{
    std::vector<std::unique_ptr<QProcess>> daemons;
    for (int i = 0; i < 4; ++i) {
        auto d = std::make_unique<QProcess>();
        d->setProcessEnvironment(environment(QStringLiteral("d")));
        d->start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--socket"), m_rig.socket() });
        daemons.push_back(std::move(d));
    }
    // Three give way (exit 0, saying who owns the engine); one serves.
    int exited = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        (exited = int(std::count_if(daemons.begin(), daemons.end(),
                                    [](const auto &d) { return d->state() == QProcess::NotRunning; })))
            == 3,
        30000);
    qint64 owner = 0;
    for (const auto &d : daemons) {
        if (d->state() == QProcess::NotRunning) {
            QCOMPARE(d->exitCode(), 0);
            QVERIFY(d->readAllStandardError().contains("already running for this user"));
        } else {
            owner = d->processId();
        }
    }
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(serverPid(status), owner);
    for (const auto &d : daemons) {
        if (d->state() != QProcess::NotRunning) {
            d->terminate();
            QVERIFY(d->waitForFinished(30000));
        }
    }
}

void TestDaemonLifecycle::staleSocketOfADeadOwnerIsReplaced()
{
    startDaemon();
    killHard(*m_rig.daemon());
    QVERIFY(m_rig.daemon()->waitForFinished());
    QVERIFY2(QFile::exists(m_rig.socket()), "SIGKILL leaves the socket file behind");

    // Nobody owns the engine now: sandboxctl embeds one rather than failing on the dead socket...
    const Outcome embedded = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(embedded.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(embedded.out).object().value(QStringLiteral("embedded")).toBool(), true);
    // ...and a new daemon takes the socket over.
    startDaemon();
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(serverPid(status), m_rig.daemon()->processId());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(m_rig.socket()).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0600));
    QCOMPARE(::stat(QFile::encodeName(QFileInfo(m_rig.socket()).absolutePath()).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0700));
}

QTEST_GUILESS_MAIN(TestDaemonLifecycle)
#include "tst_daemon_lifecycle.moc"
