// The filtering SSH agent in the Power Pack's Docker backend, through `sandboxctl run`
// against a sandboxd with that backend active on a real Docker-compatible runtime (Podman's
// service, started by test.sh or tests/integration/podman-runtime.sh), with Debian's
// ssh-agent holding two keys (one listed in the policy, one not) as the engine's user agent
// and Debian's sshd on a loopback port. Inside the container SSH_AUTH_SOCK is the command's
// own filter: the listed key is the only one seen and the only one that signs (a signed
// commit verifies on the host), the user's keys cannot be changed, a confirmation is asked
// per signature and a denial fails it, another command's agent in the same container is not
// reachable, and the agent goes with the command. With the policy's SSH hosts, `git push`
// over SSH reaches the sshd through the filtering proxy and nothing else does.
#include "DaemonRig.h"
#include "OpenSshRig.h"
#include "SshAgentChecks.h"
#include "TestFiles.h"
#include "client/Client.h"
#include "client/LocalSocketTransport.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using sandbox::test::binary;
using sandbox::test::OpenSshRig;
using sandbox::test::Outcome;

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");

} // namespace

class TestDockerSshAgent final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void onlyTheListedKeyIsSeenAndSigns();
    void signedCommitVerifiesOnTheHost();
    void theUsersKeysCannotBeChanged();
    void confirmationIsAskedForEverySignature();
    void anotherCommandsAgentIsUnreachable();
    void pushReachesOnlyThePolicysHosts();
    void hostsWithoutTheAllowlistAreRefused();

private:
    Outcome ctl(const QStringList &args, const QByteArray &input = {});
    // Runs `script` (sh) in the container under a policy with the listed key, `confirm`, and
    // the SSH hosts `hosts` (the allowlist network mode with them, else none).
    Outcome run(const QString &script, const QString &confirm = QStringLiteral("never"), const QStringList &hosts = {});
    QString writePolicy(const QString &confirm, const QStringList &hosts, const QString &network = {});
    QByteArray events();

    OpenSshRig m_rig;
    sandbox::test::DaemonRig m_daemon;
};

void TestDockerSshAgent::initTestCase()
{
    sandbox::test::DockerRuntime runtime;
    SANDBOX_DOCKER_RUNTIME_OR_SKIP(runtime);
    const QString started = m_rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QString server = m_rig.startServer();
    QVERIFY2(server.isEmpty(), qPrintable(server));
    // Outside /tmp, like the other Docker tests' state: the container's /tmp is its own.
    QVERIFY(m_daemon.create(QStringLiteral("/var/tmp/docker-agent-XXXXXX")));
    const QString workspace = m_daemon.workspace();
    // The user's home, whose known hosts the container gets a copy of.
    const QString home = m_daemon.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home + QStringLiteral("/.ssh")));
    QVERIFY(OpenSshRig::writeFile(home + QStringLiteral("/.ssh/known_hosts"),
                                  OpenSshRig::readAll(m_rig.path(QStringLiteral("known_hosts")))
                                      + "elsewhere.example.org "
                                      + OpenSshRig::readAll(m_rig.path(QStringLiteral("host_key.pub")))));
    // The public halves the commands name (the private ones exist only in the user's agent).
    QVERIFY(QFile::copy(m_rig.listedKey(), workspace + QStringLiteral("/listed.pub")));
    QVERIFY(QFile::copy(m_rig.unlistedKey(), workspace + QStringLiteral("/unlisted.pub")));
    QVERIFY(OpenSshRig::writeFile(workspace + QStringLiteral("/data"), "to be signed\n"));

    QProcessEnvironment env = m_daemon.environment();
    // The engine filters the agent of its own environment, as a user's session gives it.
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), m_rig.agentSocket());
    env.insert(QStringLiteral("HOME"), home);
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    // The clients have no agent of their own.
    QProcessEnvironment clients = QProcessEnvironment::systemEnvironment();
    clients.remove(QStringLiteral("SSH_AUTH_SOCK"));
    m_daemon.setCtlEnvironment(clients);
    m_daemon.start(env);
    if (QTest::currentTestFailed())
        return;
    sandbox::test::activateDocker(m_daemon, QStringLiteral(SANDBOX_POWER_PACK_DIR), runtime);
}

void TestDockerSshAgent::cleanupTestCase()
{
    m_daemon.destroy();
}

Outcome TestDockerSshAgent::ctl(const QStringList &args, const QByteArray &input)
{
    return m_daemon.ctl(args, input, 120000);
}

QString TestDockerSshAgent::writePolicy(const QString &confirm, const QStringList &hosts, const QString &network)
{
    QJsonObject agent{ { QStringLiteral("keys"), QJsonArray{ m_rig.listedFingerprint() } },
                       { QStringLiteral("confirm"), confirm } };
    if (!hosts.isEmpty())
        agent.insert(QStringLiteral("hosts"), QJsonArray::fromStringList(hosts));
    const QString mode
        = !network.isEmpty() ? network : (hosts.isEmpty() ? QStringLiteral("none") : QStringLiteral("allowlist"));
    const QJsonObject policy{
        { QStringLiteral("filesystem"),
          QJsonObject{ { QStringLiteral("readable"), QJsonArray{ QStringLiteral("/") } },
                       { QStringLiteral("writable"), QJsonArray{ QStringLiteral("${workspace}") } } } },
        { QStringLiteral("network"), QJsonObject{ { QStringLiteral("mode"), mode } } },
        { QStringLiteral("hostExecution"), QStringLiteral("deny") },
        { QStringLiteral("sshAgent"), agent },
    };
    const QString file = m_daemon.filePath(QStringLiteral("policy.json"));
    return OpenSshRig::writeFile(file, QJsonDocument(policy).toJson()) ? file : QString();
}

Outcome TestDockerSshAgent::run(const QString &script, const QString &confirm, const QStringList &hosts)
{
    QStringList args{ QStringLiteral("run"), QStringLiteral("--policy"), writePolicy(confirm, hosts) };
    // The image's shell, and a home of the container's own.
    args << QStringLiteral("--") << QStringLiteral("/bin/sh") << QStringLiteral("-c")
         << QStringLiteral("export SHELL=/bin/sh HOME=/tmp GIT_CONFIG_NOSYSTEM=1; ") + script;
    return ctl(args);
}

QByteArray TestDockerSshAgent::events()
{
    return ctl({ QStringLiteral("events") }).out;
}

void TestDockerSshAgent::onlyTheListedKeyIsSeenAndSigns()
{
    const Outcome ran = run(sandbox::test::agentSigningScript());
    sandbox::test::checkListedKeyAloneSigns(m_rig, ran);
    if (QTest::currentTestFailed())
        return;
    const QByteArray said = ran.out + ran.err;
    // The command's own socket, not the user's agent, in the container's status folder.
    QVERIFY2(ran.out.contains("socket=/run/sandbox-studio/status/agent-"), said.constData());
    QVERIFY(!ran.out.contains(m_rig.agentSocket().toLatin1()));

    // The signature verifies on the host against the listed key alone.
    const QString verified = m_rig.verifySignature(m_rig.listedKey(), m_daemon.workspace() + QStringLiteral("/data"),
                                                   m_daemon.workspace() + QStringLiteral("/data.sig"));
    QVERIFY2(verified.isEmpty(), qPrintable(verified));

    // The agent went with the command: no socket of it is left in any status folder.
    const QString name
        = QString::fromLatin1(ran.out.mid(ran.out.indexOf("socket=") + 7).split('\n').value(0).split('/').last());
    QVERIFY(name.startsWith(QStringLiteral("agent-")));
    QDirIterator left(m_daemon.filePath(QStringLiteral("state")), { name }, QDir::System | QDir::Files,
                      QDirIterator::Subdirectories);
    QVERIFY2(!left.hasNext(), qPrintable(left.hasNext() ? left.next() : QString()));
}

void TestDockerSshAgent::signedCommitVerifiesOnTheHost()
{
    sandbox::test::checkSignedCommit(m_rig, m_daemon.workspace() + QStringLiteral("/signed"), m_daemon.workspace(),
                                     QString(), [this](const QString &script) { return run(script); });
}

void TestDockerSshAgent::theUsersKeysCannotBeChanged()
{
    const Outcome ran = run(OpenSshRig::keyChangeProbe());
    const QString problem = m_rig.keyChangeProblem(ran.out);
    QVERIFY2(problem.isEmpty(), qPrintable(problem + QStringLiteral(": ") + QString::fromUtf8(ran.out + ran.err)));
    // Each attempt is the agent's refusal, reported as the command's.
    const QByteArray reported = events();
    QVERIFY2(reported.count("ssh agent: ") >= 3, reported.constData());
}

void TestDockerSshAgent::confirmationIsAskedForEverySignature()
{
    // A presenter of the engine's answers each signature question: `sandboxctl run` answers
    // only the questions of its command's start.
    sandbox::test::checkConfirmationPerSignature(
        m_daemon.socket(),
        [this](QProcess &command, const QStringList &shell) {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("SSH_AUTH_SOCK"));
            command.setProcessEnvironment(env);
            command.setWorkingDirectory(m_daemon.workspace());
            command.start(binary(QStringLiteral("sandboxctl")),
                          QStringList{ QStringLiteral("--socket"), m_daemon.socket(), QStringLiteral("run"),
                                       QStringLiteral("--policy"), writePolicy(QStringLiteral("always"), {}),
                                       QStringLiteral("--") }
                              + shell);
        },
        120000);
}

void TestDockerSshAgent::anotherCommandsAgentIsUnreachable()
{
    // Command A holds its agent (and its container, which B shares: same policy) while B, with
    // an agent of its own, tries A's socket by its path.
    const QString written = m_daemon.workspace() + QStringLiteral("/a-socket");
    QFile::remove(written);
    QProcess first;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    first.setProcessEnvironment(env);
    first.setWorkingDirectory(m_daemon.workspace());
    first.start(binary(QStringLiteral("sandboxctl")),
                { QStringLiteral("--socket"), m_daemon.socket(), QStringLiteral("run"), QStringLiteral("--policy"),
                  writePolicy(QStringLiteral("never"), {}), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                  QStringLiteral("-c"),
                  QStringLiteral("echo \"$SSH_AUTH_SOCK\" > a-socket.new && mv a-socket.new a-socket; read line; "
                                 "ssh-add -l >/dev/null; echo first=$?") });
    QVERIFY(first.waitForStarted(30000));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(written).size() > 0, 120000);
    const QByteArray path = OpenSshRig::readAll(written).trimmed();
    QVERIFY2(path.startsWith("/run/sandbox-studio/status/agent-"), path.constData());

    const Outcome second = run(QStringLiteral("SSH_AUTH_SOCK=%1 ssh-add -l; echo other=$?; ssh-add -l >/dev/null; "
                                              "echo own=$?; for s in /run/sandbox-studio/status/agent-*; do "
                                              "SSH_AUTH_SOCK=$s ssh-add -l >/dev/null 2>&1 && echo reached $s; done")
                                   .arg(QString::fromLatin1(path)));
    const QByteArray said = second.out + second.err;
    QVERIFY2(second.out.contains("other=") && !second.out.contains("other=0"), said.constData());
    QVERIFY2(second.out.contains("own=0"), said.constData());
    // Only its own socket answers.
    QCOMPARE(second.out.count("reached "), 1);
    QVERIFY2(!second.out.contains(QByteArray("reached " + path)), said.constData());

    // A's agent still serves A.
    first.write("go\n");
    first.closeWriteChannel();
    QVERIFY(first.waitForFinished(120000));
    const QByteArray firstSaid = first.readAllStandardOutput();
    QVERIFY2(firstSaid.contains("first=0"), QByteArray(firstSaid + first.readAllStandardError()).constData());
    // B's attempt on A's socket is reported as a refused unix socket.
    const QByteArray reported = events();
    QVERIFY2(reported.contains(path), reported.constData());
}

void TestDockerSshAgent::pushReachesOnlyThePolicysHosts()
{
    const QString project = m_daemon.workspace() + QStringLiteral("/pushed");
    QString problem;
    const QByteArray head = m_rig.preparePush(project, QStringLiteral("remote-docker.git"), &problem);
    QVERIFY2(!head.isEmpty(), qPrintable(problem));
    const Outcome ran = run(m_rig.pushProbe(project), QStringLiteral("never"),
                            { QStringLiteral("127.0.0.1:%1").arg(m_rig.serverPort()) });
    const QByteArray said = ran.out + ran.err + "\nsshd:\n" + m_rig.serverLog();
    const QString wrong = m_rig.pushProbeProblem(ran.out, QStringLiteral("remote-docker.git"), head);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong + QStringLiteral(": ") + QString::fromUtf8(said)));
    // The proxy's refusal of the other port is reported.
    const QByteArray reported = events();
    QVERIFY2(reported.contains(QByteArray(QByteArray(":") + QByteArray::number(m_rig.otherPort()))),
             reported.constData());
}

void TestDockerSshAgent::hostsWithoutTheAllowlistAreRefused()
{
    const QString marker = m_daemon.workspace() + QStringLiteral("/ran");
    const QString file
        = writePolicy(QStringLiteral("never"), { QStringLiteral("git.example.org") }, QStringLiteral("none"));
    const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                              QStringLiteral("/bin/touch"), marker });
    QCOMPARE(ran.exitCode, 125);
    QVERIFY2(ran.err.contains("policy.sshAgent.hosts") && ran.err.contains("allowlist"), ran.err.constData());
    QVERIFY(!QFile::exists(marker));
}

QTEST_GUILESS_MAIN(TestDockerSshAgent)
#include "tst_docker_sshagent.moc"
