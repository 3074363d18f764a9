// git over SSH and SSH-signed commits through the filtering SSH agent, with real components
// only: Debian's sshd on a loopback port (a child of this test in the foreground, with its
// own configuration and host key in the rig's folder), the user's ssh-agent holding two keys
// that the server both accepts, and the host's git and ssh talking to the filter's socket as
// a sandboxed command would. The listed key pushes and signs commits that verify on the host;
// the unlisted key does neither; a denied confirmation fails the push.
#include "OpenSshRig.h"
#include "net/SshAgentFilter.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sandbox;
using sandbox::test::OpenSshRig;
using Run = OpenSshRig::Run;

class TestSshAgentGit final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();
    void pushesWithTheListedKey();
    void unlistedKeyCannotPush();
    void deniedConfirmationFailsThePush();
    void signedCommitVerifiesOnTheHost();

private:
    Run git(const QStringList &args, const QString &authSocket, const QString &identity = {});
    QString commit(const QString &message);
    QString remoteHead();
    std::unique_ptr<SshAgentFilter> makeFilter(PolicySshAgent::Confirm confirm);

    OpenSshRig m_rig;
    QProcess m_sshd;
    QByteArray m_sshdLog;
    quint16 m_port = 0;
    QString m_user;
    QString m_remote;
    QString m_work;
    QString m_filterSocket;
    std::unique_ptr<SshAgentFilter> m_filter;
    QStringList m_refusals;
};

Run TestSshAgentGit::git(const QStringList &args, const QString &authSocket, const QString &identity)
{
    // Only the agent (and, when given, one identity, whose private key file does not exist)
    // can authenticate; the host key is checked against a known_hosts of the test's own.
    QString ssh = QStringLiteral("ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes "
                                 "-o UserKnownHostsFile=%1")
                      .arg(m_rig.path(QStringLiteral("known_hosts")));
    if (!identity.isEmpty())
        ssh += QStringLiteral(" -o IdentitiesOnly=yes -o IdentityFile=%1").arg(identity);
    const QMap<QString, QString> env{
        { QStringLiteral("HOME"), m_rig.path(QStringLiteral("home")) },
        { QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1") },
        { QStringLiteral("GIT_SSH_COMMAND"), ssh },
    };
    return m_rig.run(QStringLiteral("git"),
                     QStringList{ QStringLiteral("-c"), QStringLiteral("user.name=Tester"), QStringLiteral("-c"),
                                  QStringLiteral("user.email=tester@example.org") }
                         + args,
                     authSocket, env, m_work);
}

QString TestSshAgentGit::commit(const QString &message)
{
    if (!OpenSshRig::writeFile(m_work + QStringLiteral("/file.txt"), message.toUtf8()))
        return QString();
    if (git({ QStringLiteral("add"), QStringLiteral("file.txt") }, QString()).exitCode != 0
        || git({ QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), message }, QString()).exitCode
            != 0)
        return QString();
    return QString::fromLatin1(git({ QStringLiteral("rev-parse"), QStringLiteral("HEAD") }, QString()).out.trimmed());
}

QString TestSshAgentGit::remoteHead()
{
    const Run head = m_rig.run(QStringLiteral("git"),
                               { QStringLiteral("--git-dir"), m_remote, QStringLiteral("rev-parse"),
                                 QStringLiteral("--verify"), QStringLiteral("-q"), QStringLiteral("main") },
                               QString());
    return QString::fromLatin1(head.out.trimmed());
}

std::unique_ptr<SshAgentFilter> TestSshAgentGit::makeFilter(PolicySshAgent::Confirm confirm)
{
    PolicySshAgent policy;
    policy.keys = { m_rig.listedFingerprint() };
    policy.hosts = { QStringLiteral("127.0.0.1:%1").arg(m_port) };
    policy.confirm = confirm;
    auto filter = std::make_unique<SshAgentFilter>(policy, m_rig.agentSocket());
    filter->setRefusalListener([this](const QString &fingerprint, const QString &what) {
        m_refusals.append(fingerprint + QLatin1Char(' ') + what);
    });
    return filter;
}

void TestSshAgentGit::initTestCase()
{
    const QString sshd = QStandardPaths::findExecutable(QStringLiteral("sshd"),
                                                        { QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin") });
    if (sshd.isEmpty())
        QFAIL("sshd is missing: run installer/install-deps.sh test (openssh-server)");
    const QString problem = m_rig.start();
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const passwd *account = ::getpwuid(::geteuid());
    QVERIFY(account);
    m_user = QString::fromLocal8Bit(account->pw_name);
    QVERIFY(QDir().mkpath(m_rig.path(QStringLiteral("home"))));

    // The server accepts both keys: only the filter decides which one the client can use.
    QCOMPARE(m_rig.generateKey(m_rig.path(QStringLiteral("host_key")), QStringLiteral("host")), QString());
    QVERIFY(OpenSshRig::writeFile(m_rig.path(QStringLiteral("authorized_keys")),
                                  OpenSshRig::readAll(m_rig.listedKey()) + OpenSshRig::readAll(m_rig.unlistedKey())));
    // As root, sshd confines its unprivileged half to this directory, which its packaged
    // service would make at boot.
    if (::geteuid() == 0 && !QFileInfo::exists(QStringLiteral("/run/sshd")))
        QVERIFY(::mkdir("/run/sshd", 0755) == 0);

    // sshd binds its port itself, so it gets one found free a moment before; a test running
    // beside this one can take that port meanwhile, and then sshd is given another.
    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
    QByteArray said;
    for (int attempt = 0; attempt < 5; ++attempt) {
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            m_port = probe.serverPort();
        }
        QVERIFY(OpenSshRig::writeFile(m_rig.path(QStringLiteral("known_hosts")),
                                      QStringLiteral("[127.0.0.1]:%1 ").arg(m_port).toUtf8()
                                          + OpenSshRig::readAll(m_rig.path(QStringLiteral("host_key.pub")))));
        const QByteArray config
            = QStringLiteral("ListenAddress 127.0.0.1:%1\n"
                             "HostKey %2\n"
                             "PidFile none\n"
                             "AuthorizedKeysFile %3\n"
                             "AuthenticationMethods publickey\n"
                             "PasswordAuthentication no\n"
                             "KbdInteractiveAuthentication no\n"
                             "UsePAM no\n"
                             "StrictModes no\n"
                             "PermitRootLogin prohibit-password\n"
                             "AllowUsers %4\n"
                             "LogLevel VERBOSE\n")
                  .arg(m_port)
                  .arg(m_rig.path(QStringLiteral("host_key")), m_rig.path(QStringLiteral("authorized_keys")), m_user)
                  .toUtf8();
        QVERIFY(OpenSshRig::writeFile(m_rig.path(QStringLiteral("sshd_config")), config));
        m_sshd.start(sshd,
                     { QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                       m_rig.path(QStringLiteral("sshd_config")) });
        QVERIFY(m_sshd.waitForStarted(10000));
        said.clear();
        while (!said.contains("Server listening") && m_sshd.waitForReadyRead(10000))
            said += m_sshd.readAll();
        said += m_sshd.readAll();
        if (said.contains("Server listening") || !said.contains("Address already in use"))
            break;
        m_sshd.waitForFinished(10000);
    }
    QVERIFY2(said.contains("Server listening"), said.constData());
    // Its log is read as it comes, so that a full pipe never stops the server.
    connect(&m_sshd, &QProcess::readyRead, this, [this] { m_sshdLog += m_sshd.readAll(); });

    m_remote = m_rig.path(QStringLiteral("remote.git"));
    m_work = m_rig.path(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(m_work));
    QCOMPARE(
        git({ QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("--bare"), m_remote }, QString()).exitCode,
        0);
    QCOMPARE(git({ QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main"), m_work },
                 QString())
                 .exitCode,
             0);
    QCOMPARE(git({ QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("origin"),
                   QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(m_user).arg(m_port).arg(m_remote) },
                 QString())
                 .exitCode,
             0);
    m_filterSocket = m_rig.path(QStringLiteral("filter/agent.sock"));
}

void TestSshAgentGit::cleanupTestCase()
{
    m_sshd.terminate();
    m_sshd.waitForFinished(10000);
}

void TestSshAgentGit::init()
{
    m_refusals.clear();
    m_filter = makeFilter(PolicySshAgent::Confirm::Never);
    QVERIFY(m_filter->listen(m_filterSocket).ok());
}

void TestSshAgentGit::cleanup()
{
    m_filter.reset();
    if (QTest::currentTestFailed())
        qInfo("sshd said:\n%s", m_sshdLog.constData());
}

void TestSshAgentGit::pushesWithTheListedKey()
{
    const QString head = commit(QStringLiteral("first"));
    QVERIFY(!head.isEmpty());
    const Run pushed
        = git({ QStringLiteral("push"), QStringLiteral("-q"), QStringLiteral("origin"), QStringLiteral("main") },
              m_filterSocket);
    QVERIFY2(pushed.exitCode == 0, pushed.err.constData());
    QCOMPARE(remoteHead(), head);
    // ssh's session binding went through to the user's agent: nothing was refused.
    QCOMPARE(m_refusals, QStringList());
}

void TestSshAgentGit::unlistedKeyCannotPush()
{
    const QString head = commit(QStringLiteral("second"));
    const QStringList push{ QStringLiteral("push"), QStringLiteral("-q"), QStringLiteral("origin"),
                            QStringLiteral("main") };
    const Run refused = git(push, m_filterSocket, m_rig.unlistedKey());
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains("Permission denied"), refused.err.constData());
    QVERIFY(remoteHead() != head);
    // The same push with the user's own agent goes through: only the filter stood in the way.
    const Run direct = git(push, m_rig.agentSocket(), m_rig.unlistedKey());
    QVERIFY2(direct.exitCode == 0, direct.err.constData());
    QCOMPARE(remoteHead(), head);
}

void TestSshAgentGit::deniedConfirmationFailsThePush()
{
    m_filter = makeFilter(PolicySshAgent::Confirm::Always);
    QVERIFY(m_filter->listen(m_filterSocket).ok());
    int asked = 0;
    bool allow = false;
    m_filter->setConfirmHandler([&](const SshAgentConfirmation &request, std::function<void(bool)> answer) {
        ++asked;
        QCOMPARE(request.fingerprint, m_rig.listedFingerprint());
        answer(allow);
    });
    const QString head = commit(QStringLiteral("third"));
    const QStringList push{ QStringLiteral("push"), QStringLiteral("-q"), QStringLiteral("origin"),
                            QStringLiteral("main") };
    const Run denied = git(push, m_filterSocket);
    QVERIFY(denied.exitCode != 0);
    QVERIFY(remoteHead() != head);
    QCOMPARE(asked, 1);
    QCOMPARE(m_refusals.size(), 1);
    QVERIFY2(m_refusals.first().startsWith(m_rig.listedFingerprint())
                 && m_refusals.first().contains(QStringLiteral("refused")),
             qPrintable(m_refusals.first()));

    allow = true;
    const Run allowed = git(push, m_filterSocket);
    QVERIFY2(allowed.exitCode == 0, allowed.err.constData());
    QCOMPARE(remoteHead(), head);
    QCOMPARE(asked, 2);
}

void TestSshAgentGit::signedCommitVerifiesOnTheHost()
{
    const QString signers = m_rig.path(QStringLiteral("allowed_signers"));
    QVERIFY(OpenSshRig::writeFile(signers, "tester@example.org " + OpenSshRig::readAll(m_rig.listedKey())));
    QVERIFY(OpenSshRig::writeFile(m_work + QStringLiteral("/file.txt"), "signed\n"));
    QCOMPARE(git({ QStringLiteral("add"), QStringLiteral("file.txt") }, QString()).exitCode, 0);
    const QStringList ssh{ QStringLiteral("-c"), QStringLiteral("gpg.format=ssh"), QStringLiteral("-c"),
                           QStringLiteral("gpg.ssh.allowedSignersFile=") + signers };

    const Run unlisted
        = git(ssh
                  + QStringList{ QStringLiteral("-c"), QStringLiteral("user.signingkey=") + m_rig.unlistedKey(),
                                 QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-S"),
                                 QStringLiteral("-m"), QStringLiteral("signed by the unlisted key") },
              m_filterSocket);
    QVERIFY(unlisted.exitCode != 0);

    const Run signedCommit
        = git(ssh
                  + QStringList{ QStringLiteral("-c"), QStringLiteral("user.signingkey=") + m_rig.listedKey(),
                                 QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-S"),
                                 QStringLiteral("-m"), QStringLiteral("signed by the listed key") },
              m_filterSocket);
    QVERIFY2(signedCommit.exitCode == 0, signedCommit.err.constData());
    // Verified on the host, without any agent.
    const Run verified = git(ssh + QStringList{ QStringLiteral("verify-commit"), QStringLiteral("HEAD") }, QString());
    QVERIFY2(verified.exitCode == 0, verified.err.constData());
    QVERIFY2(verified.err.contains("Good \"git\" signature for tester@example.org"), verified.err.constData());

    // Pushed through the filter, it verifies in the server's repository too.
    const Run pushed
        = git({ QStringLiteral("push"), QStringLiteral("-q"), QStringLiteral("origin"), QStringLiteral("main") },
              m_filterSocket);
    QVERIFY2(pushed.exitCode == 0, pushed.err.constData());
    const Run remoteVerified = m_rig.run(QStringLiteral("git"),
                                         ssh
                                             + QStringList{ QStringLiteral("--git-dir"), m_remote,
                                                            QStringLiteral("verify-commit"), QStringLiteral("main") },
                                         QString(), { { QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1") } });
    QVERIFY2(remoteVerified.exitCode == 0, remoteVerified.err.constData());
}

QTEST_GUILESS_MAIN(TestSshAgentGit)
#include "tst_sshagentgit.moc"
