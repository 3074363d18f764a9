// The Docker backend on an ssh:// endpoint, through sandboxd and sandboxctl: Debian's sshd on
// a loopback port is the "remote host", whose Podman service socket the engine reaches only
// through the system's ssh (the test's key, its own known_hosts). Commands run there: output,
// status, stdin, a timeout and a kill (their container goes), the workspace synced in and
// back with a conflict, denied files never sent, the allowlist network mode through the
// engine's filtering proxy forwarded over SSH (an HTTP server on this computer's loopback the
// allowed destination; a denied name refused and reported; nothing around the proxy; the
// remote folder holding the socket alone, owner-only, and gone after the command; the
// forward's remote session ended under a command: its proxy out of reach, a note; chained to
// an upstream CONNECT proxy on loopback, connect-proxy.py), a switch
// to the local socket while a remote command runs (its connection and its proxy's forward
// hold until it ends, then close), and the
// SSH connection killed under a running command (the proxy folder goes with it). What fails is
// named: the host key (changed or unknown), the key refused, the name not resolved, the port
// closed, the remote socket missing; and nothing hangs.
#include "DaemonRig.h"
#include "OpenSshRig.h"
#include "UpstreamServer.h"
#include "docker/DockerApi.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkInterface>
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
    void allowlistGoesOnlyThroughTheForwardedProxy();
    void endedForwardFailsClosed();
    void upstreamProxyCarriesTheForwardedProxy();
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
    // A policy file: the workspace writable, network `network`, `denied` paths denied, the
    // domain rules `allowed` and `deniedDomains`.
    QString writePolicy(const QString &network, const QStringList &denied = {}, const QStringList &allowed = {},
                        const QStringList &deniedDomains = {});
    // `sandboxctl run --policy POLICY -- /bin/sh -c SCRIPT` (a policy with network none unless given).
    Outcome run(const QString &script, const QByteArray &input = {}, const QString &policy = {});
    std::unique_ptr<QProcess> startRun(const QString &script, const QString &policy = {});
    // The host folder bind-mounted at `target` in a running container of the engine's; empty
    // when none.
    QString mountSource(const QString &target);
    // The id of the engine's running command.
    qint64 runningCommand();
    // The containers the engine under test has on the runtime.
    int containersLeft();
    // The engine's ssh processes holding a forward (children of sandboxd).
    QList<pid_t> tunnels() const;
    // The live children of sandboxd whose command line holds `needle`.
    QList<pid_t> children(const QByteArray &needle) const;
    void writeWorkspaceFile(const QString &name, const QByteArray &data);
    QByteArray readWorkspaceFile(const QString &name) const;

    OpenSshRig m_rig;
    sandbox::test::DaemonRig m_daemon;
    sandbox::test::DockerRuntime m_runtime;
    QString m_login;
    QString m_stranger;
    QString m_nonePolicy;
    // The allowed destination of the allowlist tests, on this computer's loopback, and a
    // listener on every address that nothing may reach.
    sandbox::test::UpstreamServer m_allowed;
    QTcpServer m_open;
    // A corporate-style CONNECT proxy on loopback (connect-proxy.py), asking for no credential.
    QProcess m_upstream;
    QString m_upstreamLog;
    quint16 m_upstreamPort = 0;
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
    QVERIFY(m_allowed.start());
    QVERIFY(m_open.listen(QHostAddress::Any, 0));
    // An empty credential file: the proxy lets requests without one through.
    const QString credential = m_rig.path(QStringLiteral("upstream-credential"));
    QVERIFY(OpenSshRig::writeFile(credential, QByteArray()));
    m_upstreamLog = m_rig.path(QStringLiteral("upstream.jsonl"));
    m_upstream.setProgram(QStringLiteral("/usr/bin/python3"));
    m_upstream.setArguments({ QFINDTESTDATA("connect-proxy.py"), QStringLiteral("--credential-file"), credential,
                              QStringLiteral("--log"), m_upstreamLog });
    m_upstream.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_upstream.start();
    QVERIFY2(m_upstream.waitForStarted(), qPrintable(m_upstream.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(m_upstream.canReadLine() || m_upstream.state() != QProcess::Running, 30000);
    m_upstreamPort
        = quint16(QJsonDocument::fromJson(m_upstream.readLine()).object().value(QStringLiteral("http")).toInt());
    QVERIFY2(m_upstreamPort != 0, "the upstream proxy did not say its port");
    // The commands of the tests up to the switch run on the remote engine; a failed activation
    // (the error cases) leaves the active backend as it was.
    activateRemote();
}

void TestDockerRemote::cleanupTestCase()
{
    // What the killed connection left on the "remote" runtime.
    const qint64 daemonPid = m_daemon.daemon() ? m_daemon.daemon()->processId() : 0;
    m_daemon.destroy();
    if (m_upstream.state() != QProcess::NotRunning) {
        m_upstream.closeWriteChannel();
        if (!m_upstream.waitForFinished(10000)) {
            m_upstream.kill();
            m_upstream.waitForFinished(10000);
        }
    }
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

QString TestDockerRemote::writePolicy(const QString &network, const QStringList &denied, const QStringList &allowed,
                                      const QStringList &deniedDomains)
{
    QJsonObject networkRules{ { QStringLiteral("mode"), network } };
    if (!allowed.isEmpty())
        networkRules.insert(QStringLiteral("allowedDomains"), QJsonArray::fromStringList(allowed));
    if (!deniedDomains.isEmpty())
        networkRules.insert(QStringLiteral("deniedDomains"), QJsonArray::fromStringList(deniedDomains));
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

std::unique_ptr<QProcess> TestDockerRemote::startRun(const QString &script, const QString &policy)
{
    return m_daemon.startCtl({ QStringLiteral("run"), QStringLiteral("--policy"),
                               policy.isEmpty() ? m_nonePolicy : policy, QStringLiteral("--"),
                               QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
}

QString TestDockerRemote::mountSource(const QString &target)
{
    const DockerApi api(m_runtime.socket);
    const QString filter
        = QStringLiteral("{\"label\":[\"dev.sandbox-studio.engine-pid=%1\"]}").arg(m_daemon.daemon()->processId());
    const Result<DockerApi::Response> listed = api.get(
        QStringLiteral("/containers/json?filters=") + QString::fromLatin1(QUrl::toPercentEncoding(filter)), 10000);
    if (!listed.ok())
        return {};
    for (const QJsonValue &container : QJsonDocument::fromJson(listed.value().body).array()) {
        const Result<DockerApi::Response> inspected = api.get(
            QStringLiteral("/containers/%1/json").arg(container.toObject().value(QStringLiteral("Id")).toString()),
            10000);
        if (!inspected.ok())
            continue;
        const QJsonArray mounts = inspected.value().json().value(QStringLiteral("Mounts")).toArray();
        for (const QJsonValue &mount : mounts) {
            if (mount.toObject().value(QStringLiteral("Destination")).toString() == target)
                return mount.toObject().value(QStringLiteral("Source")).toString();
        }
    }
    return {};
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

QList<pid_t> TestDockerRemote::children(const QByteArray &needle) const
{
    const QByteArray daemonPid = QByteArray::number(m_daemon.daemon()->processId());
    QList<pid_t> found;
    for (const QString &name : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray stat = OpenSshRig::readAll(QStringLiteral("/proc/%1/stat").arg(name));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.value(1) == daemonPid && fields.value(0) != "Z"
            && OpenSshRig::readAll(QStringLiteral("/proc/%1/cmdline").arg(name)).contains(needle))
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
                 .contains(QLatin1String("forwarded from this computer over the SSH connection")),
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

void TestDockerRemote::allowlistGoesOnlyThroughTheForwardedProxy()
{
    const QString port = QString::number(m_allowed.port());
    QString hostAddress = QStringLiteral("127.0.0.1");
    for (const QHostAddress &candidate : QNetworkInterface::allAddresses()) {
        if (candidate.protocol() == QAbstractSocket::IPv4Protocol && !candidate.isLoopback()) {
            hostAddress = candidate.toString();
            break;
        }
    }
    const QString policy = writePolicy(QStringLiteral("allowlist"), {},
                                       { QStringLiteral("localhost:") + port, QStringLiteral("*.example.org") },
                                       { QStringLiteral("denied.example.org") });
    const int before = m_allowed.connections();
    // Through the proxy to the allowed server on this computer's loopback; a denied name; then
    // around the proxy (the container's loopback, the remote host's address); then the bind:
    // the forwarded socket alone, read-only; nothing of the remote engine.
    const QString script
        = QStringLiteral(
              "wget -q -O - http://localhost:%1/remote | grep -o -e upstream-ok -e 'GET /remote'; "
              "wget -q -O - http://denied.example.org/ 2>&1 | grep -o 403; "
              "nc -w 3 127.0.0.1 %1 </dev/null && echo AROUND; nc -w 3 %2 %3 </dev/null && echo AROUND; "
              "ls -A /run/sandbox-studio/proxy; "
              "for t in 'echo x > /run/sandbox-studio/proxy/planted' 'ln -s / /run/sandbox-studio/proxy/root' "
              "'rm -f /run/sandbox-studio/proxy/proxy.sock' 'mkdir /run/sandbox-studio/proxy/d'; do "
              "sh -c \"$t\" 2>/dev/null && echo PLANTED; done; "
              "test -e %4 && echo ENGINE; ls /sys/class/net; echo ready; read go")
              .arg(port, hostAddress)
              .arg(m_open.serverPort())
              .arg(m_runtime.socket);
    std::unique_ptr<QProcess> running = startRun(script, policy);
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += running->readAllStandardOutput()).contains("ready\n"), 60000);
    QCOMPARE(out, QByteArray("upstream-ok\nGET /remote\n403\nproxy.sock\nlo\nready\n"));
    QCOMPARE(m_allowed.connections(), before + 1);
    QVERIFY(!m_open.hasPendingConnections());
    // On the remote host (this one): the folder holding the socket alone, owner-only.
    const QString folder = mountSource(QStringLiteral("/run/sandbox-studio/proxy"));
    QVERIFY2(folder.contains(QLatin1String("sandbox-studio-proxy.")), qPrintable(folder));
    const QFileInfo info(folder);
    QVERIFY(info.isDir());
    QCOMPARE(info.permissions()
                 & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadUser | QFile::WriteUser
                     | QFile::ExeUser),
             QFile::Permissions());
    QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
             QStringList{ QStringLiteral("proxy.sock") });
    running->write("go\n");
    running->closeWriteChannel();
    QVERIFY(running->waitForFinished(30000));
    QVERIFY2(running->exitCode() == 0, running->readAllStandardError().constData());
    // The denied name was reported as locally; the folder and the container are gone.
    const Outcome events = m_daemon.ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QVERIFY2(events.out.contains("denied.example.org"), events.out.constData());
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(folder), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerRemote::endedForwardFailsClosed()
{
    const QString port = QString::number(m_allowed.port());
    std::unique_ptr<QProcess> running = startRun(
        QStringLiteral("echo ready; read go; timeout 30 wget -q -O - http://localhost:%1/late; echo status=$?")
            .arg(port),
        writePolicy(QStringLiteral("allowlist"), {}, { QStringLiteral("localhost:") + port }));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("ready\n"));
    const QString folder = mountSource(QStringLiteral("/run/sandbox-studio/proxy"));
    QVERIFY2(QFileInfo(folder).isDir(), qPrintable(folder));
    // The remote session that keeps the folder ends under the command (the SSH connection
    // holds): the remote host removes the folder, and the proxy is out of reach.
    const QList<pid_t> keepers = children("sandbox-studio-proxy.");
    QCOMPARE(keepers.size(), 1);
    QCOMPARE(::kill(keepers.first(), SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(folder), 20000);
    // The bridge holds the socket open by descriptor, so the name's removal is not enough: the
    // remote sshd stops listening on it (the engine cancels the forward).
    const auto listening = [&folder] {
        QFile table(QStringLiteral("/proc/net/unix"));
        return table.open(QIODevice::ReadOnly)
            && table.readAll().contains(QString(folder + QStringLiteral("/proxy.sock")).toUtf8());
    };
    QTRY_VERIFY_WITH_TIMEOUT(!listening(), 20000);
    const int before = m_allowed.connections();
    running->write("go\n");
    running->closeWriteChannel();
    QVERIFY(running->waitForFinished(30000));
    const QByteArray out = running->readAllStandardOutput();
    const QByteArray err = running->readAllStandardError();
    QVERIFY2(out.contains("status=") && !out.contains("status=0") && !out.contains("upstream-ok"), out.constData());
    QVERIFY2(err.contains("filtering proxy's forward to the engine at ssh://")
                 && err.contains("ended while the command ran"),
             err.constData());
    QCOMPARE(m_allowed.connections(), before);
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerRemote::upstreamProxyCarriesTheForwardedProxy()
{
    const QString port = QString::number(m_allowed.port());
    const QString file = writePolicy(QStringLiteral("allowlist"), {}, { QStringLiteral("localhost:") + port });
    QJsonObject policy = QJsonDocument::fromJson(OpenSshRig::readAll(file)).object();
    QJsonObject network = policy.value(QStringLiteral("network")).toObject();
    network.insert(QStringLiteral("upstreamProxy"),
                   QJsonObject{ { QStringLiteral("url"), QStringLiteral("http://127.0.0.1:%1").arg(m_upstreamPort) } });
    policy.insert(QStringLiteral("network"), network);
    QVERIFY(OpenSshRig::writeFile(file, QJsonDocument(policy).toJson()));
    const int before = m_allowed.connections();
    // The allowed server through the upstream proxy; a name not allowed never reaches it.
    const Outcome ran = run(QStringLiteral("wget -q -O - http://localhost:%1/chained | grep -o 'GET /chained'; "
                                           "wget -q -O - http://elsewhere.example.org/ 2>&1 | grep -o 403")
                                .arg(port),
                            {}, file);
    QVERIFY2(ran.exitCode == 0, ran.err.constData());
    QCOMPARE(ran.out, QByteArray("GET /chained\n403\n"));
    QCOMPARE(m_allowed.connections(), before + 1);
    const QByteArray asked = OpenSshRig::readAll(m_upstreamLog);
    const QByteArray connected = "\"CONNECT\", \"target\": \"localhost:" + port.toUtf8();
    QVERIFY2(asked.contains(connected), asked.constData());
    QVERIFY2(!asked.contains("elsewhere.example.org"), asked.constData());
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerRemote::switchingAwayClosesTheConnection()
{
    // A command waits on the remote engine while the backend switches to the local socket; under
    // the allowlist, its proxy's forward holds across the switch and its folder goes after it.
    const QString port = QString::number(m_allowed.port());
    std::unique_ptr<QProcess> remote
        = startRun(QStringLiteral("echo ready; read go; echo $go > switched.txt; "
                                  "wget -q -O - http://localhost:%1/after | grep -o upstream-ok; echo done")
                       .arg(port),
                   writePolicy(QStringLiteral("allowlist"), {}, { QStringLiteral("localhost:") + port }));
    QTRY_VERIFY_WITH_TIMEOUT(remote->canReadLine(), 30000);
    QCOMPARE(remote->readLine(), QByteArray("ready\n"));
    QCOMPARE(tunnels().size(), 1);
    const QString folder = mountSource(QStringLiteral("/run/sandbox-studio/proxy"));
    QVERIFY2(QFileInfo(folder).isDir(), qPrintable(folder));
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
    QCOMPARE(remote->readAllStandardOutput(), QByteArray("upstream-ok\ndone\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("switched.txt")), QByteArray("go\n"));
    QTRY_COMPARE_WITH_TIMEOUT(tunnels().size(), 0, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(folder), 20000);
    // Its container went before its connection closed: only the local activation's is left.
    QCOMPARE(mountSource(QStringLiteral("/run/sandbox-studio/proxy")), QString());
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
    // Under the allowlist: the proxy's forward dies with the connection, and the remote host
    // removes its folder by itself.
    std::unique_ptr<QProcess> running
        = startRun(QStringLiteral("echo started; sleep 60; echo never"),
                   writePolicy(QStringLiteral("allowlist"), {}, { QStringLiteral("example.org") }));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    const QString folder = mountSource(QStringLiteral("/run/sandbox-studio/proxy"));
    QVERIFY2(QFileInfo(folder).isDir(), qPrintable(folder));
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
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(folder), 20000);
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
