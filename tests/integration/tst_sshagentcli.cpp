// `sandboxctl policy` and `run` with an SSH agent, through the real sandboxctl and an engine
// it hosts: the policy shows the agent's keys, hosts and confirmation; a bad key is refused
// with its place; a command sees only the listed key of the user's agent (Debian's
// ssh-agent); and without a user's agent, or with hosts (not offered yet), nothing runs and
// the refusal says why.
#include "OpenSshRig.h"
#include "ProgramRun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using sandbox::test::binary;
using sandbox::test::Outcome;

class TestSshAgentCli final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void policyShowsTheAgent();
    void commandSeesOnlyTheListedKey();
    void nothingRunsWithoutTheUsersAgentOrWithHosts();

private:
    Outcome ctl(const QStringList &args, const QString &agentSocket = {});
    QString writePolicy(const QByteArray &text);

    std::unique_ptr<QTemporaryDir> m_root;
};

namespace {

const QByteArray key = "SHA256:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs";

} // namespace

void TestSshAgentCli::init()
{
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/sshagent-cli-XXXXXX"));
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("work")));
}

void TestSshAgentCli::cleanup()
{
    m_root.reset();
}

Outcome TestSshAgentCli::ctl(const QStringList &args, const QString &agentSocket)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    if (!agentSocket.isEmpty())
        env.insert(QStringLiteral("SSH_AUTH_SOCK"), agentSocket);
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    return sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl")),
        QStringList{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("e.sock")) } + args,
        m_root->filePath(QStringLiteral("work")), {}, 60000, env);
}

QString TestSshAgentCli::writePolicy(const QByteArray &text)
{
    const QString file = m_root->filePath(QStringLiteral("policy.json"));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QString();
    out.write(text);
    return file;
}

void TestSshAgentCli::policyShowsTheAgent()
{
    const QString file = writePolicy(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},
        "network":{"mode":"none"},"hostExecution":"deny",
        "sshAgent":{"keys":[")" + key + R"("],"hosts":["github.com","git.example.org:2222"],"confirm":"first-use"}})");
    const Outcome before = ctl({ QStringLiteral("policy"), QStringLiteral("show") });
    QVERIFY2(before.out.contains("ssh agent:      (none)\n"), before.out.constData());
    const Outcome set = ctl({ QStringLiteral("policy"), QStringLiteral("set"), file });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome shown = ctl({ QStringLiteral("policy"), QStringLiteral("show") });
    const QByteArray expected = QByteArray("ssh agent:      confirm first-use\n  keys:  ") + key
        + "\n  hosts: github.com, git.example.org:2222\n";
    QVERIFY2(shown.out.contains(expected), shown.out.constData());

    // A bad key is refused with its place in the file, and the stored policy stays.
    writePolicy(R"({"filesystem":{},"network":{"mode":"none"},"hostExecution":"deny",
        "sshAgent":{"keys":[")"
                + key + R"(","MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48"]}})");
    const Outcome refused = ctl({ QStringLiteral("policy"), QStringLiteral("set"), file });
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("policy.sshAgent.keys[1]"), refused.err.constData());
    QVERIFY2(refused.err.contains("MD5"), refused.err.constData());
    QVERIFY(ctl({ QStringLiteral("policy"), QStringLiteral("show") }).out.contains("confirm first-use"));
}

void TestSshAgentCli::commandSeesOnlyTheListedKey()
{
    sandbox::test::OpenSshRig rig;
    const QString started = rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QString file = writePolicy(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},
        "network":{"mode":"none"},"hostExecution":"deny","sshAgent":{"keys":[")"
                                     + rig.listedFingerprint().toLatin1() + R"("],"confirm":"never"}})");
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                              QStringLiteral("ssh-add"), QStringLiteral("-l") },
                            rig.agentSocket());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains(rig.listedFingerprint().toLatin1()), run.out.constData());
    QVERIFY2(!run.out.contains(rig.unlistedFingerprint().toLatin1()), run.out.constData());
}

void TestSshAgentCli::nothingRunsWithoutTheUsersAgentOrWithHosts()
{
    // Rather than run without the agent it promised, the real auto backend runs nothing and
    // says why.
    const QString marker = m_root->filePath(QStringLiteral("work/ran"));
    const QString file = writePolicy(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},
        "network":{"mode":"full"},"hostExecution":"deny","sshAgent":{"keys":[")"
                                     + key + R"("]}})");
    const Outcome noAgent = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                                  QStringLiteral("/bin/touch"), marker });
    QCOMPARE(noAgent.exitCode, 125);
    QVERIFY2(noAgent.err.contains("SSH_AUTH_SOCK"), noAgent.err.constData());

    sandbox::test::OpenSshRig rig;
    const QString started = rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    writePolicy(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"]},
        "network":{"mode":"full"},"hostExecution":"deny","sshAgent":{"keys":[")"
                + key + R"("],"hosts":["git.example.org"]}})");
    const Outcome withHosts = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                                    QStringLiteral("/bin/touch"), marker },
                                  rig.agentSocket());
    QCOMPARE(withHosts.exitCode, 125);
    QVERIFY2(withHosts.err.contains("policy.sshAgent.hosts"), withHosts.err.constData());
    QVERIFY(!QFile::exists(marker));
}

QTEST_GUILESS_MAIN(TestSshAgentCli)
#include "tst_sshagentcli.moc"
