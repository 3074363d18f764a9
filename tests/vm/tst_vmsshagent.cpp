// The filtering SSH agent in builtin:vm, through `sandboxctl run` against a sandboxd with the
// VM backend active (QEMU booting the real guest, TCG here; the helpers from this build's
// bundle), with Debian's ssh-agent holding two keys (one listed in the policy, one not) as
// the engine's user agent and Debian's sshd on a loopback port. Every command runs under one
// policy shape (network allowlist with the sshd as the agent's host), so one VM serves them
// all. Inside the guest SSH_AUTH_SOCK is the command's own socket, relayed by the guest's
// exec agent to the command's filter: the listed key is the only one seen and the only one
// that signs (a signature and a signed commit verify on the host), the user's keys cannot be
// changed, another command of the same VM cannot use the socket (and that is reported), the
// socket goes with the command, and `git push` over SSH reaches the sshd through the
// filtering proxy only.
#include "OpenSshRig.h"
#include "ProgramRun.h"
#include "SshAgentChecks.h"
#include "client/Client.h"
#include "client/LocalSocketTransport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using sandbox::test::binary;
using sandbox::test::OpenSshRig;
using sandbox::test::Outcome;

namespace {

constexpr int kSlowMs = 300 * 1000; // a boot, or a command, under TCG on a loaded host

} // namespace

class TestVmSshAgent final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void onlyTheListedKeyIsSeenAndSigns();
    void signedCommitVerifiesOnTheHost();
    void theUsersKeysCannotBeChanged();
    void confirmationIsAskedForEverySignature();
    void anotherCommandsAgentIsUnusable();
    void pushReachesOnlyThePolicysHosts();
    void hostsWithoutTheAllowlistAreRefused();

private:
    Outcome ctl(const QStringList &args, const QByteArray &input = {});
    QStringList ctlArguments(const QStringList &args) const;
    QProcessEnvironment ctlEnvironment() const;
    // Runs `script` (sh) in the guest under the policy with the listed key and `confirm`.
    Outcome run(const QString &script, const QString &confirm = QStringLiteral("never"));
    QString writePolicy(const QString &confirm, const QString &network = QStringLiteral("allowlist"));
    QByteArray events();

    OpenSshRig m_rig;
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_workspace;
    std::unique_ptr<QProcess> m_daemon;
    QByteArray m_daemonLog;
};

void TestVmSshAgent::initTestCase()
{
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64")).isEmpty(),
             "qemu-system-x86_64 is missing: run installer/install-deps.sh test");
    const QString started = m_rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QString server = m_rig.startServer();
    QVERIFY2(server.isEmpty(), qPrintable(server));
    // Outside /tmp: the guest's /tmp is its own.
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/tst_vmsshagent-XXXXXX"));
    QVERIFY(m_root->isValid());
    m_workspace = m_root->filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(m_workspace));
    // The user's home, whose known hosts the guest gets a copy of.
    const QString home = m_root->filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home + QStringLiteral("/.ssh")));
    QVERIFY(OpenSshRig::writeFile(home + QStringLiteral("/.ssh/known_hosts"),
                                  OpenSshRig::readAll(m_rig.path(QStringLiteral("known_hosts")))
                                      + "elsewhere.example.org "
                                      + OpenSshRig::readAll(m_rig.path(QStringLiteral("host_key.pub")))));
    // The public halves the commands name (the private ones exist only in the user's agent).
    QVERIFY(QFile::copy(m_rig.listedKey(), m_workspace + QStringLiteral("/listed.pub")));
    QVERIFY(QFile::copy(m_rig.unlistedKey(), m_workspace + QStringLiteral("/unlisted.pub")));
    QVERIFY(OpenSshRig::writeFile(m_workspace + QStringLiteral("/data"), "to be signed\n"));

    m_daemon = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The engine filters the agent of its own environment, as a user's session gives it.
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), m_rig.agentSocket());
    env.insert(QStringLiteral("HOME"), home);
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    QVERIFY(QDir().mkpath(m_root->filePath(QStringLiteral("run"))));
    QFile::setPermissions(m_root->filePath(QStringLiteral("run")),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    sandbox::test::startSandboxd(*m_daemon, env, m_root->filePath(QStringLiteral("run/engine.sock")), m_daemonLog);
    if (QTest::currentTestFailed())
        return;
    const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                              QStringLiteral("helperSource=")
                                  + QUrl::fromLocalFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/")).toString() });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
    // The backend claims the dimension, so the policy runs.
    const Outcome described
        = ctl({ QStringLiteral("describe"), QStringLiteral("builtin:vm"), QStringLiteral("--json") });
    QVERIFY2(!sandbox::test::claimOf(described.out, QStringLiteral("sshAgent")).isEmpty(), described.out.constData());
}

void TestVmSshAgent::cleanupTestCase()
{
    if (m_daemon && m_daemon->state() != QProcess::NotRunning)
        sandbox::test::stopGracefully(*m_daemon);
    m_daemon.reset();
    m_root.reset();
}

QStringList TestVmSshAgent::ctlArguments(const QStringList &args) const
{
    return QStringList{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("run/engine.sock")) } + args;
}

QProcessEnvironment TestVmSshAgent::ctlEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    return env;
}

Outcome TestVmSshAgent::ctl(const QStringList &args, const QByteArray &input)
{
    return sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), ctlArguments(args), m_workspace, input,
                                     kSlowMs, ctlEnvironment());
}

QString TestVmSshAgent::writePolicy(const QString &confirm, const QString &network)
{
    const QJsonObject agent{ { QStringLiteral("keys"), QJsonArray{ m_rig.listedFingerprint() } },
                             { QStringLiteral("confirm"), confirm },
                             { QStringLiteral("hosts"),
                               QJsonArray{ QStringLiteral("127.0.0.1:%1").arg(m_rig.serverPort()) } } };
    const QJsonObject policy{
        { QStringLiteral("filesystem"),
          QJsonObject{ { QStringLiteral("readable"), QJsonArray{ QStringLiteral("/") } },
                       { QStringLiteral("writable"), QJsonArray{ QStringLiteral("${workspace}") } } } },
        { QStringLiteral("network"), QJsonObject{ { QStringLiteral("mode"), network } } },
        { QStringLiteral("hostExecution"), QStringLiteral("deny") },
        { QStringLiteral("sshAgent"), agent },
    };
    const QString file = m_root->filePath(QStringLiteral("policy-%1-%2.json").arg(confirm, network));
    return OpenSshRig::writeFile(file, QJsonDocument(policy).toJson()) ? file : QString();
}

Outcome TestVmSshAgent::run(const QString &script, const QString &confirm)
{
    return ctl({ QStringLiteral("run"), QStringLiteral("--policy"), writePolicy(confirm), QStringLiteral("--"),
                 QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                 QStringLiteral("export HOME=/tmp GIT_CONFIG_NOSYSTEM=1; ") + script });
}

QByteArray TestVmSshAgent::events()
{
    return ctl({ QStringLiteral("events") }).out;
}

void TestVmSshAgent::onlyTheListedKeyIsSeenAndSigns()
{
    const Outcome ran
        = run(sandbox::test::agentSigningScript() + QStringLiteral("; ls -ld \"$(dirname \"$SSH_AUTH_SOCK\")\""));
    sandbox::test::checkListedKeyAloneSigns(m_rig, ran);
    if (QTest::currentTestFailed())
        return;
    const QByteArray said = ran.out + ran.err;
    // The command's own socket in the guest, in a folder of its own (0700), not the user's agent.
    QVERIFY2(ran.out.contains("socket=/run/sandbox-studio/agent-"), said.constData());
    QVERIFY2(ran.out.contains("drwx------"), said.constData());
    QVERIFY(!ran.out.contains(m_rig.agentSocket().toLatin1()));

    // The signature verifies on the host against the listed key alone.
    const QString verified = m_rig.verifySignature(m_rig.listedKey(), m_workspace + QStringLiteral("/data"),
                                                   m_workspace + QStringLiteral("/data.sig"));
    QVERIFY2(verified.isEmpty(), qPrintable(verified));

    // The socket and its folder went with the command: the next command finds only its own.
    const QByteArray folder = ran.out.mid(ran.out.indexOf("socket=") + 7).split('\n').value(0);
    const Outcome after = run(QStringLiteral("ls /run/sandbox-studio; if test -e %1; then echo left; fi")
                                  .arg(QString::fromUtf8(folder.left(folder.lastIndexOf('/')))));
    QVERIFY2(after.exitCode == 0 && after.out.count("agent-") == 1 && !after.out.contains("left"),
             QByteArray(after.out + after.err).constData());
}

void TestVmSshAgent::signedCommitVerifiesOnTheHost()
{
    sandbox::test::checkSignedCommit(m_rig, m_workspace + QStringLiteral("/signed"), m_workspace,
                                     QStringLiteral("-c safe.directory='*' "),
                                     [this](const QString &script) { return run(script); });
}

void TestVmSshAgent::theUsersKeysCannotBeChanged()
{
    const Outcome ran = run(OpenSshRig::keyChangeProbe() + QStringLiteral("; ssh-add -x </dev/null; echo lock=$?"));
    const QString problem = m_rig.keyChangeProblem(ran.out);
    QVERIFY2(problem.isEmpty(), qPrintable(problem + QStringLiteral(": ") + QString::fromUtf8(ran.out + ran.err)));
    // Each attempt is the agent's refusal, reported as the command's.
    const QByteArray reported = events();
    QVERIFY2(reported.count("ssh agent: ") >= 3, reported.constData());
}

void TestVmSshAgent::confirmationIsAskedForEverySignature()
{
    // A presenter of the engine's (as Studio or the TUI is) answers each signature question.
    sandbox::test::checkConfirmationPerSignature(
        m_root->filePath(QStringLiteral("run/engine.sock")),
        [this](QProcess &command, const QStringList &shell) {
            command.setProcessEnvironment(ctlEnvironment());
            command.setWorkingDirectory(m_workspace);
            command.start(binary(QStringLiteral("sandboxctl")),
                          ctlArguments(QStringList{ QStringLiteral("run"), QStringLiteral("--policy"),
                                                    writePolicy(QStringLiteral("always")), QStringLiteral("--") }
                                       + shell));
        },
        kSlowMs);
}

void TestVmSshAgent::anotherCommandsAgentIsUnusable()
{
    // Command A holds its agent (in the VM that B runs in too: same policy) while B, with an
    // agent of its own, tries A's socket by its path.
    const QString written = m_workspace + QStringLiteral("/a-socket");
    QFile::remove(written);
    QProcess first;
    first.setProcessEnvironment(ctlEnvironment());
    first.setWorkingDirectory(m_workspace);
    first.start(binary(QStringLiteral("sandboxctl")),
                ctlArguments({ QStringLiteral("run"), QStringLiteral("--policy"), writePolicy(QStringLiteral("never")),
                               QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                               QStringLiteral("{ echo \"$SSH_AUTH_SOCK\"; cat /proc/sys/kernel/random/boot_id; } "
                                              "> a-socket.new && mv a-socket.new a-socket; "
                                              "read line; ssh-add -l >/dev/null; echo first=$?") }));
    QVERIFY(first.waitForStarted(30000));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(written).size() > 0, kSlowMs);
    const QList<QByteArray> told = OpenSshRig::readAll(written).split('\n');
    const QByteArray path = told.value(0).trimmed();
    const QByteArray firstVm = told.value(1).trimmed();
    QVERIFY2(path.startsWith("/run/sandbox-studio/agent-"), path.constData());

    const Outcome second = run(QStringLiteral("echo vm=$(cat /proc/sys/kernel/random/boot_id); "
                                              "SSH_AUTH_SOCK=%1 ssh-add -l; echo other=$?; ssh-add -l >/dev/null; "
                                              "echo own=$?; for s in /run/sandbox-studio/agent-*/agent-*; do "
                                              "SSH_AUTH_SOCK=$s ssh-add -l >/dev/null 2>&1 && echo reached $s; done; "
                                              "setsid sh -c 'ssh-add -l >/dev/null 2>&1; echo detached=$?'")
                                   .arg(QString::fromLatin1(path)));
    const QByteArray said = second.out + second.err;
    // The same VM (both run under one policy, and what other programs do to the host's
    // folders meanwhile takes no VM out of service): otherwise nothing here is tried.
    QVERIFY2(second.out.contains(QByteArray("vm=" + firstVm + '\n')),
             QByteArray("the second command ran in another VM than the first (" + firstVm + "): " + said + "\nengine:\n"
                        + m_daemonLog.right(4000))
                 .constData());
    QVERIFY2(second.out.contains("other=") && !second.out.contains("other=0"), said.constData());
    QVERIFY2(second.out.contains("own=0"), said.constData());
    // Only its own socket answers.
    QCOMPARE(second.out.count("reached "), 1);
    QVERIFY2(!second.out.contains(QByteArray("reached " + path)), said.constData());
    // A process that leaves the command's session leaves its agent behind too.
    QVERIFY2(second.out.contains("detached=") && !second.out.contains("detached=0"), said.constData());

    // A's agent still serves A.
    first.write("go\n");
    first.closeWriteChannel();
    QVERIFY(first.waitForFinished(kSlowMs));
    const QByteArray firstSaid = first.readAllStandardOutput();
    QVERIFY2(firstSaid.contains("first=0"), QByteArray(firstSaid + first.readAllStandardError()).constData());
    // B's attempt on A's socket is reported as B's refused unix socket (the report travels on
    // its own way to the engine's log, so it may come after B's end).
    QByteArray reported;
    auto found = [&] {
        reported = ctl({ QStringLiteral("events"), QStringLiteral("--json") }).out;
        for (const QJsonValue &entry : QJsonDocument::fromJson(reported).array()) {
            const QJsonObject refusal = entry.toObject();
            if (refusal.value(QStringLiteral("kind")).toString() == QLatin1String("host-socket")
                && refusal.value(QStringLiteral("what")).toString().startsWith(QString::fromLatin1(path))
                && refusal.value(QStringLiteral("command")).toString().contains(QStringLiteral("other=")))
                return true;
        }
        return false;
    };
    // Asked again until the deadline (QTRY counts its waits, not the time each `events` takes).
    const QDeadlineTimer deadline(kSlowMs);
    while (!found() && !deadline.hasExpired())
        QTest::qWait(200);
    QVERIFY2(found(), reported.right(4000).constData());
}

void TestVmSshAgent::pushReachesOnlyThePolicysHosts()
{
    const QString project = m_workspace + QStringLiteral("/pushed");
    QString problem;
    const QByteArray head = m_rig.preparePush(project, QStringLiteral("remote-vm.git"), &problem);
    QVERIFY2(!head.isEmpty(), qPrintable(problem));
    const Outcome ran = run(m_rig.pushProbe(project, QStringLiteral("-c safe.directory='*'")));
    const QByteArray said = ran.out + ran.err + "\nsshd:\n" + m_rig.serverLog();
    const QString wrong = m_rig.pushProbeProblem(ran.out, QStringLiteral("remote-vm.git"), head);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong + QStringLiteral(": ") + QString::fromUtf8(said)));
    // The proxy's refusal of the other port is reported.
    const QByteArray reported = events();
    QVERIFY2(reported.contains(QByteArray(QByteArray(":") + QByteArray::number(m_rig.otherPort()))),
             reported.constData());
}

void TestVmSshAgent::hostsWithoutTheAllowlistAreRefused()
{
    const QString marker = m_workspace + QStringLiteral("/ran");
    const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--policy"),
                              writePolicy(QStringLiteral("never"), QStringLiteral("none")), QStringLiteral("--"),
                              QStringLiteral("/bin/touch"), marker });
    QCOMPARE(ran.exitCode, 125);
    QVERIFY2(ran.err.contains("policy.sshAgent.hosts") && ran.err.contains("allowlist"), ran.err.constData());
    QVERIFY(!QFile::exists(marker));
}

QTEST_GUILESS_MAIN(TestVmSshAgent)
#include "tst_vmsshagent.moc"
