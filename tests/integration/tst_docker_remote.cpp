// The Docker backend on an ssh:// endpoint, through sandboxd and sandboxctl: Debian's sshd on
// a loopback port is the "remote host", whose Podman service socket the engine reaches only
// through the system's ssh (the test's key, its own known_hosts). Commands run there: output,
// status, stdin, a timeout and a kill (their container goes), the workspace synced in and
// back with a conflict, denied files never sent, the allowlist network mode refused, a switch
// to the local socket while a remote command runs (its connection closes after it), and the
// SSH connection killed under a running command. What fails is named: the host key (changed
// or unknown), the key refused, the name not resolved, the port closed, the remote socket
// missing; and nothing hangs.
#include "DaemonRig.h"
#include "OpenSshRig.h"
#include "docker/DockerApi.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTest>
#include <QUrl>

#include <csignal>

using sandbox::Result;
using sandbox::power::DockerApi;
using sandbox::test::OpenSshRig;
using sandbox::test::Outcome;

class TestDockerRemote final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void remoteEngineRunsCommands();
    void timeoutAndKillEndTheCommand();
    void workspaceComesBackWithAConflict();
    void deniedFilesAreNeverSent();
    void allowlistIsRefused();
    void switchingAwayClosesTheConnection();
    void changedHostKeyIsNamed();
    void unknownHostKeyIsNamed();
    void refusedKeyIsNamed();
    void unresolvedNameIsNamed();
    void missingRemoteSocketIsNamed();
    void closedPortIsNamed();
    void deadConnectionEndsTheCommand();

private:
    // Sets the Docker backend's SSH settings and activates it; the activation's outcome.
    Outcome activate(const QString &endpoint, const QString &identity, const QString &knownHosts);
    QString endpoint(const QString &host = QStringLiteral("127.0.0.1")) const;
    void activateRemote();
    // A policy file: the workspace writable, network `network`, `denied` paths denied.
    QString writePolicy(const QString &network, const QStringList &denied = {}, const QStringList &allowed = {});
    // `sandboxctl run --policy POLICY -- /bin/sh -c SCRIPT` (a policy with network none unless given).
    Outcome run(const QString &script, const QByteArray &input = {}, const QString &policy = {});
    std::unique_ptr<QProcess> startRun(const QString &script);
    // The id of the engine's running command.
    qint64 runningCommand();
    // The containers the engine under test has on the runtime.
    int containersLeft();
    // The engine's ssh processes holding a forward (children of sandboxd).
    QList<pid_t> tunnels() const;
    void writeWorkspaceFile(const QString &name, const QByteArray &data);
    QByteArray readWorkspaceFile(const QString &name) const;

    OpenSshRig m_rig;
    sandbox::test::DaemonRig m_daemon;
    sandbox::test::DockerRuntime m_runtime;
    QString m_login;
    QString m_stranger;
    QString m_nonePolicy;
};

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");

} // namespace

void TestDockerRemote::initTestCase()
{
    SANDBOX_DOCKER_RUNTIME_OR_SKIP(m_runtime);
    const QString started = m_rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QString server = m_rig.startServer();
    QVERIFY2(server.isEmpty(), qPrintable(server));
    // A key the remote user accepts, and one it does not; the engine gets no agent.
    m_login = m_rig.path(QStringLiteral("login"));
    m_stranger = m_rig.path(QStringLiteral("stranger"));
    QVERIFY(m_rig.generateKey(m_login, QStringLiteral("login@test")).isEmpty());
    QVERIFY(m_rig.generateKey(m_stranger, QStringLiteral("stranger@test")).isEmpty());
    QVERIFY(OpenSshRig::writeFile(m_rig.path(QStringLiteral("authorized_keys")),
                                  OpenSshRig::readAll(m_rig.path(QStringLiteral("authorized_keys")))
                                      + OpenSshRig::readAll(m_login + QStringLiteral(".pub"))));

    QVERIFY(m_daemon.create(QStringLiteral("/var/tmp/docker-remote-XXXXXX")));
    QProcessEnvironment env = m_daemon.environment();
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    m_daemon.start(env);
    if (QTest::currentTestFailed())
        return;
    const Outcome installed = m_daemon.ctl(
        { QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) }, {}, 120000);
    QVERIFY2(installed.exitCode == 0, installed.err.constData());
    m_nonePolicy = writePolicy(QStringLiteral("none"));
    // The commands of the tests up to the switch run on the remote engine; a failed activation
    // (the error cases) leaves the active backend as it was.
    activateRemote();
}

void TestDockerRemote::cleanupTestCase()
{
    // What the killed connection left on the "remote" runtime.
    const qint64 daemonPid = m_daemon.daemon() ? m_daemon.daemon()->processId() : 0;
    m_daemon.destroy();
    if (daemonPid <= 0 || m_runtime.socket.isEmpty())
        return;
    const DockerApi api(m_runtime.socket);
    const QString filter = QStringLiteral("{\"label\":[\"dev.sandbox-studio.engine-pid=%1\"]}").arg(daemonPid);
    const Result<DockerApi::Response> listed = api.get(QStringLiteral("/containers/json?all=1&filters=")
                                                           + QString::fromLatin1(QUrl::toPercentEncoding(filter)),
                                                       10000);
    if (!listed.ok())
        return;
    for (const QJsonValue &container : QJsonDocument::fromJson(listed.value().body).array())
        api.remove(QStringLiteral("/containers/%1?force=true&v=true")
                       .arg(container.toObject().value(QStringLiteral("Id")).toString()),
                   10000);
}

int TestDockerRemote::containersLeft()
{
    const DockerApi api(m_runtime.socket);
    const QString filter
        = QStringLiteral("{\"label\":[\"dev.sandbox-studio.engine-pid=%1\"]}").arg(m_daemon.daemon()->processId());
    const Result<DockerApi::Response> listed = api.get(QStringLiteral("/containers/json?all=1&filters=")
                                                           + QString::fromLatin1(QUrl::toPercentEncoding(filter)),
                                                       10000);
    return listed.ok() && listed.value().status == 200
        ? int(QJsonDocument::fromJson(listed.value().body).array().size())
        : -1;
}

QString TestDockerRemote::writePolicy(const QString &network, const QStringList &denied, const QStringList &allowed)
{
    QJsonObject networkRules{ { QStringLiteral("mode"), network } };
    if (!allowed.isEmpty())
        networkRules.insert(QStringLiteral("allowedDomains"), QJsonArray::fromStringList(allowed));
    const QJsonObject policy{
        { QStringLiteral("filesystem"),
          QJsonObject{ { QStringLiteral("readable"), QJsonArray{ QStringLiteral("/") } },
                       { QStringLiteral("writable"), QJsonArray{ QStringLiteral("${workspace}") } },
                       { QStringLiteral("denied"), QJsonArray::fromStringList(denied) } } },
        { QStringLiteral("network"), networkRules },
        { QStringLiteral("hostExecution"), QStringLiteral("deny") },
    };
    static int written = 0;
    const QString file = m_daemon.filePath(QStringLiteral("policy-%1.json").arg(++written));
    return OpenSshRig::writeFile(file, QJsonDocument(policy).toJson()) ? file : QString();
}

Outcome TestDockerRemote::run(const QString &script, const QByteArray &input, const QString &policy)
{
    return m_daemon.ctl({ QStringLiteral("run"), QStringLiteral("--policy"), policy.isEmpty() ? m_nonePolicy : policy,
                          QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), script },
                        input, 60000);
}

std::unique_ptr<QProcess> TestDockerRemote::startRun(const QString &script)
{
    return m_daemon.startCtl({ QStringLiteral("run"), QStringLiteral("--policy"), m_nonePolicy, QStringLiteral("--"),
                               QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
}

qint64 TestDockerRemote::runningCommand()
{
    const Outcome ps = m_daemon.ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    for (const QJsonValue &value : QJsonDocument::fromJson(ps.out).array()) {
        if (value.toObject().value(QStringLiteral("state")).toString() == QLatin1String("running"))
            return value.toObject().value(QStringLiteral("id")).toInteger();
    }
    return 0;
}

QList<pid_t> TestDockerRemote::tunnels() const
{
    const QByteArray daemonPid = QByteArray::number(m_daemon.daemon()->processId());
    QList<pid_t> found;
    for (const QString &name : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray stat = OpenSshRig::readAll(QStringLiteral("/proc/%1/stat").arg(name));
        const QByteArray cmdline = OpenSshRig::readAll(QStringLiteral("/proc/%1/cmdline").arg(name));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        // A zombie has no command line left: only live ones count.
        if (fields.value(1) == daemonPid && fields.value(0) != "Z" && cmdline.split('\0').contains("-L"))
            found.append(pid_t(name.toInt()));
    }
    return found;
}

void TestDockerRemote::writeWorkspaceFile(const QString &name, const QByteArray &data)
{
    QVERIFY(OpenSshRig::writeFile(QDir(m_daemon.workspace()).filePath(name), data));
}

QByteArray TestDockerRemote::readWorkspaceFile(const QString &name) const
{
    return OpenSshRig::readAll(QDir(m_daemon.workspace()).filePath(name));
}

void TestDockerRemote::activateRemote()
{
    const Outcome activated = activate(endpoint(), m_login, m_rig.path(QStringLiteral("known_hosts")));
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
}

QString TestDockerRemote::endpoint(const QString &host) const
{
    return QStringLiteral("ssh://%1@%2:%3%4").arg(m_rig.userName(), host).arg(m_rig.serverPort()).arg(m_runtime.socket);
}

Outcome TestDockerRemote::activate(const QString &endpoint, const QString &identity, const QString &knownHosts)
{
    const Outcome set = m_daemon.ctl(
        { QStringLiteral("settings"), QStringLiteral("set"), dockerRef, QStringLiteral("endpoint=") + endpoint,
          QStringLiteral("sshIdentityFile=") + identity, QStringLiteral("sshKnownHostsFile=") + knownHosts,
          QStringLiteral("image=") + m_runtime.image },
        {}, 60000);
    if (set.exitCode != 0)
        return set;
    // Changed settings of the active backend activate it again: what that said comes first.
    Outcome activated = m_daemon.ctl({ QStringLiteral("activate"), dockerRef }, {}, 90000);
    activated.out.prepend(set.out);
    activated.err.prepend(set.err);
    return activated;
}

void TestDockerRemote::remoteEngineRunsCommands()
{
    const Outcome shown = m_daemon.ctl({ QStringLiteral("status") }, {}, 60000);
    QVERIFY2(shown.out.contains("active backend:  atom-pack:power-pack:docker"), shown.out.constData());
    // The serving instance claims the remote shape.
    const Outcome described = m_daemon.ctl({ QStringLiteral("describe"), dockerRef, QStringLiteral("--json") });
    QVERIFY2(sandbox::test::claimOf(described.out, QStringLiteral("network"))
                 .contains(QLatin1String("Allowlist: refused on an engine reached over SSH")),
             described.out.constData());
    QVERIFY2(sandbox::test::claimOf(described.out, QStringLiteral("filesystem"))
                 .contains(QLatin1String("nothing of this computer is mounted")),
             described.out.constData());
    // Output, status, stdin; the helper is the container's own copy (a volume), no host file.
    const Outcome mixed = run(QStringLiteral("echo out; echo err >&2; exit 3"));
    QCOMPARE(mixed.exitCode, 3);
    QCOMPARE(mixed.out, QByteArray("out\n"));
    QVERIFY2(mixed.err.contains("err\n"), mixed.err.constData());
    const Outcome counted = run(QStringLiteral("wc -l"), "one\ntwo\nthree\n");
    QVERIFY2(counted.exitCode == 0, counted.err.constData());
    QCOMPARE(counted.out.trimmed(), QByteArray("3"));
    const Outcome shape = run(QStringLiteral("pwd; grep -c ' /run/sandbox-studio ' /proc/self/mountinfo; "
                                             "echo x > /run/sandbox-studio/sandbox-init || echo gated"));
    QVERIFY2(shape.out.startsWith(QByteArray(m_daemon.workspace().toUtf8() + "\n1\n")), shape.out.constData());
    QVERIFY2(shape.out.contains("gated"), shape.out.constData());
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerRemote::timeoutAndKillEndTheCommand()
{
    const Outcome timedOut
        = m_daemon.ctl({ QStringLiteral("run"), QStringLiteral("--policy"), m_nonePolicy, QStringLiteral("--timeout"),
                         QStringLiteral("1"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                         QStringLiteral("sleep 60 & sleep 60; echo never") },
                       {}, 60000);
    QVERIFY2(timedOut.exitCode == 128 + 9 || timedOut.exitCode == 128 + 15, timedOut.err.constData());
    QVERIFY2(timedOut.err.contains("timed out"), timedOut.err.constData());
    QVERIFY(!timedOut.out.contains("never"));
    // Its container went, and what it started in the background with it.
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);

    std::unique_ptr<QProcess> running = startRun(QStringLiteral("sleep 60 & echo started; sleep 60"));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    const qint64 id = runningCommand();
    QVERIFY(id > 0);
    QCOMPARE(m_daemon.ctl({ QStringLiteral("kill"), QString::number(id) }).exitCode, 0);
    QVERIFY(running->waitForFinished(20000));
    QCOMPARE(running->exitCode(), 128 + 9);
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerRemote::workspaceComesBackWithAConflict()
{
    writeWorkspaceFile(QStringLiteral("kept.txt"), "from the host\n");
    writeWorkspaceFile(QStringLiteral("both.txt"), "host, first\n");
    // The command changes both.txt remotely and waits; the host changes it meanwhile.
    std::unique_ptr<QProcess> running = startRun(
        QStringLiteral("cat kept.txt; echo remote > new.txt; echo remote > both.txt; echo ready; read go; echo $go"));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("from the host\n"));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("ready\n"));
    writeWorkspaceFile(QStringLiteral("both.txt"), "host, second\n");
    running->write("go\n");
    running->closeWriteChannel();
    QVERIFY(running->waitForFinished(30000));
    const QByteArray err = running->readAllStandardError();
    QVERIFY2(running->exitCode() == 0, err.constData());
    QCOMPARE(running->readAllStandardOutput(), QByteArray("go\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("new.txt")), QByteArray("remote\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("both.txt")), QByteArray("host, second\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("both.txt.sandbox-conflict")), QByteArray("remote\n"));
    QVERIFY2(err.contains("both.txt changed on this computer while the command ran"), err.constData());
    // A repository's hook made remotely is refused by the gate there and never comes back.
    QVERIFY(QDir(m_daemon.workspace()).mkpath(QStringLiteral(".git/hooks")));
    const Outcome hook = run(QStringLiteral("echo x > .git/hooks/pre-commit"));
    QVERIFY(hook.exitCode != 0);
    QVERIFY(!QFileInfo::exists(QDir(m_daemon.workspace()).filePath(QStringLiteral(".git/hooks/pre-commit"))));
    // The gate's refusal came back in the command's status file.
    const Outcome events = m_daemon.ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QVERIFY2(events.out.contains(QDir(m_daemon.workspace()).filePath(QStringLiteral(".git/hooks/pre-commit")).toUtf8()),
             events.out.constData());
}

void TestDockerRemote::deniedFilesAreNeverSent()
{
    writeWorkspaceFile(QStringLiteral("visible.txt"), "sent\n");
    writeWorkspaceFile(QStringLiteral("secret.txt"), "do not send me\n");
    QVERIFY(QDir(m_daemon.workspace()).mkpath(QStringLiteral("private")));
    writeWorkspaceFile(QStringLiteral("private/key"), "nor me\n");
    const QString policy = writePolicy(
        QStringLiteral("none"), { QStringLiteral("${workspace}/secret.txt"), QStringLiteral("${workspace}/private") });
    const Outcome listed = run(QStringLiteral("ls -A; cat secret.txt private/key; echo made > secret.txt"), {}, policy);
    QVERIFY2(!listed.out.contains("do not send me") && !listed.out.contains("nor me"), listed.out.constData());
    QVERIFY2(!listed.out.contains("secret.txt") && !listed.out.contains("private"), listed.out.constData());
    QVERIFY2(listed.out.contains("visible.txt"), listed.out.constData());
    // Nor does a file made there under a denied name come back.
    QCOMPARE(readWorkspaceFile(QStringLiteral("secret.txt")), QByteArray("do not send me\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("private/key")), QByteArray("nor me\n"));
}

void TestDockerRemote::allowlistIsRefused()
{
    const Outcome refused = run(QStringLiteral("echo never"), {},
                                writePolicy(QStringLiteral("allowlist"), {}, { QStringLiteral("example.org") }));
    QVERIFY(refused.exitCode != 0);
    QVERIFY(!refused.out.contains("never"));
    QVERIFY2(refused.err.contains("network mode is \"allowlist\"") && refused.err.contains("endpoint setting"),
             refused.err.constData());
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerRemote::switchingAwayClosesTheConnection()
{
    // A command waits on the remote engine while the backend switches to the local socket.
    std::unique_ptr<QProcess> remote
        = startRun(QStringLiteral("echo ready; read go; echo $go > switched.txt; echo done"));
    QTRY_VERIFY_WITH_TIMEOUT(remote->canReadLine(), 30000);
    QCOMPARE(remote->readLine(), QByteArray("ready\n"));
    QCOMPARE(tunnels().size(), 1);
    const Outcome local = activate(QStringLiteral("unix://") + m_runtime.socket, {}, {});
    QVERIFY2(local.exitCode == 0, QByteArray(local.out + local.err).constData());
    // Locally the helper is bind-mounted (no volume at its folder); remotely it is a volume.
    const Outcome here = run(QStringLiteral("grep -c ' /run/sandbox-studio ' /proc/self/mountinfo"));
    QCOMPARE(here.out.trimmed(), QByteArray("0"));
    // The retired activation keeps its connection while its command runs, and closes it after.
    QCOMPARE(tunnels().size(), 1);
    remote->write("go\n");
    remote->closeWriteChannel();
    QVERIFY(remote->waitForFinished(30000));
    QVERIFY2(remote->exitCode() == 0, remote->readAllStandardError().constData());
    QCOMPARE(remote->readAllStandardOutput(), QByteArray("done\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("switched.txt")), QByteArray("go\n"));
    QTRY_COMPARE_WITH_TIMEOUT(tunnels().size(), 0, 20000);
}

void TestDockerRemote::changedHostKeyIsNamed()
{
    const QString wrong = m_rig.path(QStringLiteral("wrong_known_hosts"));
    QVERIFY(OpenSshRig::writeFile(wrong,
                                  QStringLiteral("[127.0.0.1]:%1 ").arg(m_rig.serverPort()).toUtf8()
                                      + OpenSshRig::readAll(m_stranger + QStringLiteral(".pub"))));
    const Outcome activated = activate(endpoint(), m_login, wrong);
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains("Host key: the key 127.0.0.1 presents is not the one your known_hosts holds"),
             activated.err.constData());
}

void TestDockerRemote::unknownHostKeyIsNamed()
{
    const QString empty = m_rig.path(QStringLiteral("empty_known_hosts"));
    QVERIFY(OpenSshRig::writeFile(empty, QByteArray()));
    const Outcome activated = activate(endpoint(), m_login, empty);
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains("Host key: 127.0.0.1 is not in your known_hosts"), activated.err.constData());
}

void TestDockerRemote::refusedKeyIsNamed()
{
    const Outcome activated = activate(endpoint(), m_stranger, m_rig.path(QStringLiteral("known_hosts")));
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains("SSH authentication: 127.0.0.1 refused the keys offered"),
             activated.err.constData());
}

void TestDockerRemote::unresolvedNameIsNamed()
{
    const Outcome activated = activate(endpoint(QStringLiteral("no-such-host.invalid")), m_login,
                                       m_rig.path(QStringLiteral("known_hosts")));
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains("DNS: the host name no-such-host.invalid could not be resolved"),
             activated.err.constData());
}

void TestDockerRemote::missingRemoteSocketIsNamed()
{
    const QString missing
        = QStringLiteral("ssh://%1@127.0.0.1:%2/nonexistent/engine.sock").arg(m_rig.userName()).arg(m_rig.serverPort());
    const Outcome activated = activate(missing, m_login, m_rig.path(QStringLiteral("known_hosts")));
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains("Remote socket: the SSH connection to 127.0.0.1 works, but no engine answers on "
                                    "/nonexistent/engine.sock there"),
             activated.err.constData());
}

void TestDockerRemote::closedPortIsNamed()
{
    quint16 closed = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        closed = probe.serverPort();
    }
    const QString endpoint
        = QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(m_rig.userName()).arg(closed).arg(m_runtime.socket);
    const Outcome activated = activate(endpoint, m_login, m_rig.path(QStringLiteral("known_hosts")));
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains(
                 QStringLiteral("SSH connection: 127.0.0.1 port %1 cannot be reached").arg(closed).toUtf8()),
             activated.err.constData());
}

void TestDockerRemote::deadConnectionEndsTheCommand()
{
    activateRemote();
    std::unique_ptr<QProcess> running = startRun(QStringLiteral("echo started; sleep 60; echo never"));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    // The engine's ssh (a child of sandboxd holding the forward) is killed.
    const QList<pid_t> held = tunnels();
    QCOMPARE(held.size(), 1);
    const pid_t ssh = held.first();
    QCOMPARE(::kill(ssh, SIGKILL), 0);
    QVERIFY(running->waitForFinished(30000));
    const QByteArray err = running->readAllStandardError();
    QCOMPARE(running->exitCode(), 255);
    QVERIFY2(err.contains("the command ended with the connection to the engine at ssh://")
                 && err.contains("The SSH connection to 127.0.0.1 ended"),
             err.constData());
    QVERIFY(!running->readAllStandardOutput().contains("never"));
    // The next command is refused at once, saying what to do.
    const Outcome after = run(QStringLiteral("echo never"));
    QVERIFY(after.exitCode != 0);
    QVERIFY2(after.err.contains("Activate the backend again"), after.err.constData());
    // The killed command's container could not be removed over the dead connection: the next
    // activation removes it, and says so.
    QCOMPARE(containersLeft(), 1);
    const Outcome again = activate(endpoint(), m_login, m_rig.path(QStringLiteral("known_hosts")));
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QVERIFY2(QByteArray(again.out + again.err).contains("Removed 1 container(s) from the engine at ssh://"),
             QByteArray(again.out + again.err).constData());
    QCOMPARE(containersLeft(), 0);
}

QTEST_GUILESS_MAIN(TestDockerRemote)

#include "tst_docker_remote.moc"
