// The Docker backend on an ssh:// endpoint, through sandboxd and sandboxctl: Debian's sshd on
// a loopback port is the "remote host", whose Podman service socket the engine reaches only
// through the system's ssh (the test's key, its own known_hosts). What fails is named: the
// host key (changed or unknown), the key refused, the name not resolved, the port closed,
// the remote socket missing; and nothing hangs.
#include "DaemonRig.h"
#include "OpenSshRig.h"

#include <QTcpServer>
#include <QTest>

using sandbox::test::OpenSshRig;
using sandbox::test::Outcome;

class TestDockerRemote final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void remoteEngineAnswersThroughSsh();
    void changedHostKeyIsNamed();
    void unknownHostKeyIsNamed();
    void refusedKeyIsNamed();
    void unresolvedNameIsNamed();
    void missingRemoteSocketIsNamed();
    void closedPortIsNamed();

private:
    // Sets the Docker backend's SSH settings and activates it; the activation's outcome.
    Outcome activate(const QString &endpoint, const QString &identity, const QString &knownHosts);
    QString endpoint(const QString &host = QStringLiteral("127.0.0.1")) const;

    OpenSshRig m_rig;
    sandbox::test::DaemonRig m_daemon;
    sandbox::test::DockerRuntime m_runtime;
    QString m_login;
    QString m_stranger;
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
}

void TestDockerRemote::cleanupTestCase()
{
    m_daemon.destroy();
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
    return m_daemon.ctl({ QStringLiteral("activate"), dockerRef }, {}, 90000);
}

void TestDockerRemote::remoteEngineAnswersThroughSsh()
{
    // The engine reads the remote runtime's image and OCI runtimes through the tunnel; running
    // commands there is refused, with the reason, and the active backend stays what it was.
    const Outcome activated = activate(endpoint(), m_login, m_rig.path(QStringLiteral("known_hosts")));
    const QByteArray said = activated.out + activated.err;
    QVERIFY2(activated.exitCode != 0, said.constData());
    QVERIFY2(said.contains("answers over SSH and holds the image"), said.constData());
    QVERIFY2(said.contains("OCI runtimes: ") && said.contains("runc"), said.constData());
    QVERIFY2(said.contains("commands do not run on a remote engine yet"), said.constData());
    qInfo("%s", said.constData());
    const Outcome shown = m_daemon.ctl({ QStringLiteral("status") }, {}, 60000);
    QVERIFY2(shown.out.contains("active backend:  builtin:auto"), shown.out.constData());
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

QTEST_GUILESS_MAIN(TestDockerRemote)

#include "tst_docker_remote.moc"
