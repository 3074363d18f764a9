// The filtering SSH agent inside auto's sandbox, in both tiers, with real components only:
// Debian's ssh-agent holding two keys (one listed in the policy, one not), and ssh-add,
// ssh-keygen and git run as sandboxed commands. Inside, SSH_AUTH_SOCK is the command's own
// filter: the listed key is the only one seen and the only one that signs, a commit signed
// with it verifies on the host, the user's keys cannot be removed or added to, a confirmation
// is asked per signature and a denial fails it, and no other unix socket (the user's agent
// included) is reachable. The agent goes with the command. With the policy's SSH hosts,
// `git push` over SSH reaches Debian's sshd on a loopback port through the filtering proxy
// and nothing else: another port is refused by the proxy, and a direct connection has no
// route.
#include "LauncherRun.h"
#include "OpenSshRig.h"

#include <QDir>
#include <QLocalServer>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

class TestSshAgentSandbox final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void onlyTheListedKeyIsSeenAndSigns_data() { tiers(); }
    void onlyTheListedKeyIsSeenAndSigns();
    void signedCommitVerifiesOnTheHost_data() { tiers(); }
    void signedCommitVerifiesOnTheHost();
    void theUsersKeysCannotBeChanged_data() { tiers(); }
    void theUsersKeysCannotBeChanged();
    void confirmationIsAskedForEverySignature_data() { tiers(); }
    void confirmationIsAskedForEverySignature();
    void noOtherUnixSocketIsReachable_data() { tiers(); }
    void noOtherUnixSocketIsReachable();
    void tcpConnectionsStillWork_data() { tiers(); }
    void tcpConnectionsStillWork();
    void aConnectThatNeverEndsHoldsNothingElse_data() { tiers(); }
    void aConnectThatNeverEndsHoldsNothingElse();
    void racingAConnectReachesNoOtherUnixSocket_data() { tiers(); }
    void racingAConnectReachesNoOtherUnixSocket();
    void theAgentEndsWithTheCommand_data() { tiers(); }
    void theAgentEndsWithTheCommand();
    void pushReachesOnlyThePolicysHosts_data() { tiers(); }
    void pushReachesOnlyThePolicysHosts();
    void hostsWithoutAllowedDomainsAndAMissingAgentAreRefused();

private:
    void tiers();
    std::shared_ptr<AutoLauncher> launcherFor(FixedAnswerHost *host);
    Policy agentPolicy(PolicySshAgent::Confirm confirm) const;
    RunResult runShell(const QString &script, const Policy &policy, FixedAnswerHost *host);

    OpenSshRig m_rig;
    // The engine's state: never in /tmp, which the plan would then hold a denied path in (the
    // recorded plans' folder), leaving tier 2 no new entries in /tmp.
    QTemporaryDir m_state{ QStringLiteral("/var/tmp/agent-state-XXXXXX") };
    std::unique_ptr<QTemporaryDir> m_workspace;
    QByteArray m_savedAgent;
    QByteArray m_savedHome;
};

void TestSshAgentSandbox::initTestCase()
{
    const QString started = m_rig.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QString server = m_rig.startServer();
    QVERIFY2(server.isEmpty(), qPrintable(server));
    // The user's home, whose known hosts the sandbox gets a copy of (outside /tmp, like the
    // state: the default policy denies paths in it).
    const QString home = m_state.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home + QStringLiteral("/.ssh")));
    QVERIFY(OpenSshRig::writeFile(home + QStringLiteral("/.ssh/known_hosts"),
                                  OpenSshRig::readAll(m_rig.path(QStringLiteral("known_hosts")))
                                      + "elsewhere.example.org "
                                      + OpenSshRig::readAll(m_rig.path(QStringLiteral("host_key.pub")))));
    m_savedHome = qgetenv("HOME");
    qputenv("HOME", QFile::encodeName(home));
    // The engine filters the agent of its own environment, as a user's session gives it.
    m_savedAgent = qgetenv("SSH_AUTH_SOCK");
    qputenv("SSH_AUTH_SOCK", QFile::encodeName(m_rig.agentSocket()));
}

void TestSshAgentSandbox::cleanupTestCase()
{
    qputenv("HOME", m_savedHome);
    if (m_savedAgent.isEmpty())
        qunsetenv("SSH_AUTH_SOCK");
    else
        qputenv("SSH_AUTH_SOCK", m_savedAgent);
}

void TestSshAgentSandbox::init()
{
    // Outside /tmp: tier 1's /tmp is private, and the host checks the files afterwards.
    m_workspace = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/agent-ws-XXXXXX"));
    QVERIFY(m_workspace->isValid());
    // The public halves the commands name (the private ones exist only in the user's agent).
    QVERIFY(QFile::copy(m_rig.listedKey(), m_workspace->filePath(QStringLiteral("listed.pub"))));
    QVERIFY(QFile::copy(m_rig.unlistedKey(), m_workspace->filePath(QStringLiteral("unlisted.pub"))));
    QVERIFY(OpenSshRig::writeFile(m_workspace->filePath(QStringLiteral("data")), "to be signed\n"));
}

void TestSshAgentSandbox::tiers()
{
    QTest::addColumn<int>("tier");
    QTest::newRow("namespaces") << 1;
    QTest::newRow("landlock-seccomp") << 2;
}

std::shared_ptr<AutoLauncher> TestSshAgentSandbox::launcherFor(FixedAnswerHost *host)
{
    QFETCH(int, tier);
    QString error;
    auto launcher
        = preparedLauncher(tier == 1 ? QStringLiteral("strongest") : QStringLiteral("landlock-seccomp"), &error);
    if (launcher && host)
        launcher->attach(host);
    return launcher;
}

Policy TestSshAgentSandbox::agentPolicy(PolicySshAgent::Confirm confirm) const
{
    Policy policy = defaultPolicy();
    PolicySshAgent agent;
    agent.keys = { m_rig.listedFingerprint() };
    agent.confirm = confirm;
    policy.sshAgent = agent;
    return policy;
}

RunResult TestSshAgentSandbox::runShell(const QString &script, const Policy &policy, FixedAnswerHost *host)
{
    auto launcher = launcherFor(host);
    if (!launcher) {
        RunResult none;
        none.error = QStringLiteral("the launcher was not prepared");
        return none;
    }
    return runIn(*launcher, { QStringLiteral("sh"), QStringLiteral("-c"), script }, policy, m_workspace->path());
}

void TestSshAgentSandbox::onlyTheListedKeyIsSeenAndSigns()
{
    FixedAnswerHost host(true, m_state.path());
    const RunResult run
        = runShell(QStringLiteral("ssh-add -l; echo listed=$?; ssh-keygen -q -Y sign -f listed.pub -n file data; "
                                  "echo signed=$?; ssh-keygen -q -Y sign -f unlisted.pub -n file data 2>/dev/null; "
                                  "echo unlisted=$?"),
                   agentPolicy(PolicySshAgent::Confirm::Never), &host);
    QVERIFY2(run.started, qPrintable(run.error + QString::fromLocal8Bit(run.err)));
    QVERIFY2(run.out.contains(m_rig.listedFingerprint().toLatin1()), run.out.constData());
    QVERIFY2(!run.out.contains(m_rig.unlistedFingerprint().toLatin1()), run.out.constData());
    QVERIFY2(run.out.contains("listed=0\n") && run.out.contains("signed=0\n"), run.out.constData());
    QVERIFY2(!run.out.contains("unlisted=0\n"), run.out.constData());
    QCOMPARE(host.questions(), 0);

    // The signature verifies on the host against the listed key alone.
    const QString verified = m_rig.verifySignature(m_rig.listedKey(), m_workspace->filePath(QStringLiteral("data")),
                                                   m_workspace->filePath(QStringLiteral("data.sig")));
    QVERIFY2(verified.isEmpty(), qPrintable(verified));

    // The unlisted key was never offered, so the client had nothing to ask: no refusal.
    for (const Refusal &refusal : run.refusals)
        QVERIFY2(refusal.kind != Refusal::Kind::Credential, qPrintable(refusal.what + QLatin1Char(' ') + refusal.rule));
}

void TestSshAgentSandbox::signedCommitVerifiesOnTheHost()
{
    const QString work = m_workspace->path();
    QProcess init;
    init.start(QStringLiteral("git"), { QStringLiteral("init"), QStringLiteral("-q"), work });
    QVERIFY(init.waitForFinished(30000) && init.exitCode() == 0);
    FixedAnswerHost host(true, m_state.path());
    const RunResult run = runShell(QStringLiteral("export GIT_CONFIG_NOSYSTEM=1 HOME=%1; git add data && git -c "
                                                  "user.name=Tester -c user.email=tester@example.org -c "
                                                  "gpg.format=ssh -c user.signingkey=%1/listed.pub commit -q -S -m "
                                                  "signed && echo committed")
                                       .arg(work),
                                   agentPolicy(PolicySshAgent::Confirm::Never), &host);
    QVERIFY2(run.out.contains("committed"), qPrintable(run.error + QString::fromLocal8Bit(run.out + run.err)));
    const QString verified = m_rig.verifyCommit(m_rig.listedKey(), work);
    QVERIFY2(verified.isEmpty(), qPrintable(verified));
}

void TestSshAgentSandbox::theUsersKeysCannotBeChanged()
{
    FixedAnswerHost host(true, m_state.path());
    const RunResult run = runShell(
        QStringLiteral("ssh-add -D; echo removeall=$?; ssh-add -d listed.pub; echo remove=$?; "
                       "ssh-keygen -q -t ed25519 -N '' -C planted -f planted && ssh-add planted; echo add=$?"),
        agentPolicy(PolicySshAgent::Confirm::Never), &host);
    QVERIFY2(run.started, qPrintable(run.error));
    QVERIFY2(!run.out.contains("removeall=0") && !run.out.contains("remove=0") && !run.out.contains("add=0"),
             run.out.constData());
    // The user's agent holds its two keys, and nothing else.
    const QStringList held = m_rig.fingerprintsListedAt(m_rig.agentSocket());
    QCOMPARE(held.size(), 2);
    QVERIFY(held.contains(m_rig.listedFingerprint()) && held.contains(m_rig.unlistedFingerprint()));
    // Each attempt is the agent's refusal, reported as the command's.
    int reported = 0;
    for (const Refusal &refusal : run.refusals)
        reported += refusal.kind == Refusal::Kind::Credential && refusal.rule.startsWith(QStringLiteral("ssh agent: "));
    QVERIFY2(reported >= 3, qPrintable(QString::number(reported)));
}

void TestSshAgentSandbox::confirmationIsAskedForEverySignature()
{
    for (const bool accept : { false, true }) {
        FixedAnswerHost host(accept, m_state.path());
        const RunResult run
            = runShell(QStringLiteral("for n in 1 2; do ssh-keygen -q -Y sign -f listed.pub -n file data "
                                      "2>/dev/null && rm data.sig && echo signed; done; echo done"),
                       agentPolicy(PolicySshAgent::Confirm::Always), &host);
        QVERIFY2(run.out.contains("done"), qPrintable(run.error + QString::fromLocal8Bit(run.err)));
        QCOMPARE(run.out.count("signed"), accept ? 2 : 0);
        QCOMPARE(host.questions(), 2);
    }
}

void TestSshAgentSandbox::noOtherUnixSocketIsReachable()
{
    // A host service in /run, and the user's own agent: neither is reachable, by path or by
    // naming the user's agent in SSH_AUTH_SOCK.
    const QString path
        = QStringLiteral("/run/sandbox-agent-test-%1.sock").arg(QRandomGenerator::global()->bounded(1000000));
    QLocalServer server;
    QVERIFY(server.listen(path));
    QVERIFY(OpenSshRig::writeFile(
        m_workspace->filePath(QStringLiteral("probe.py")),
        "import socket,sys\nfor p in sys.argv[1:]:\n try:\n  s=socket.socket(socket.AF_UNIX)\n  s.connect(p)\n"
        "  print('reached', p)\n except OSError:\n  print('refused', p)\n"));
    FixedAnswerHost host(true, m_state.path());
    const RunResult run = runShell(
        QStringLiteral("python3 probe.py %1 %2; SSH_AUTH_SOCK=%2 ssh-add -l; echo user=$?; "
                       "python3 -c 'import socket; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)' 2>/dev/null; "
                       "echo datagram=$?; "
                       "python3 -c 'import socket; socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)' 2>/dev/null; "
                       "echo datagram-pair=$?; "
                       "python3 -c 'import socket; socket.socketpair(socket.AF_UNIX, socket.SOCK_RAW)' 2>/dev/null; "
                       "echo raw-pair=$?")
            .arg(path, m_rig.agentSocket()),
        agentPolicy(PolicySshAgent::Confirm::Never), &host);
    QVERIFY2(run.started, qPrintable(run.error));
    QVERIFY2(!run.out.contains("reached"), run.out.constData());
    QVERIFY2(run.out.contains(QByteArray(QByteArray("refused ") + path.toLatin1())), run.out.constData());
    QVERIFY2(!run.out.contains("user=0") && run.out.contains("datagram=1") && run.out.contains("datagram-pair=1")
                 && run.out.contains("raw-pair=1"),
             run.out.constData());
    QVERIFY(!server.hasPendingConnections());
}

void TestSshAgentSandbox::tcpConnectionsStillWork()
{
    // With an agent every connect() is answered by sandbox-init; TCP ones are made on the
    // command's own socket, blocking or not, and go where the network mode lets them.
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    QVERIFY(OpenSshRig::writeFile(
        m_workspace->filePath(QStringLiteral("tcp.py")),
        "import socket,sys,select\nport=int(sys.argv[1])\n"
        "s=socket.socket(); s.settimeout(None); s.connect(('127.0.0.1',port)); print('blocking connected')\n"
        "n=socket.socket(); n.setblocking(False)\n"
        "try:\n n.connect(('127.0.0.1',port))\nexcept BlockingIOError:\n select.select([],[n],[],10)\n"
        "print('nonblocking', n.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR))\n"
        "try:\n c=socket.socket(); c.connect(('127.0.0.1',1)); print('closed port connected')\n"
        "except OSError as e:\n print('closed port', e.errno)\n"
        "import threading\n"
        "def worker():\n t=socket.socket(); t.connect(('127.0.0.1',port)); print('thread connected')\n"
        "w=threading.Thread(target=worker); w.start(); w.join()\n"
        "errors=[]\n"
        "def refused():\n"
        " try:\n  socket.socket().connect(('127.0.0.1',1))\n except OSError as e:\n  errors.append(e.errno)\n"
        "many=[threading.Thread(target=refused) for i in range(300)]\n"
        "[t.start() for t in many]; [t.join() for t in many]\n"
        "print('many', len(errors), set(errors))\n"));
    Policy policy = agentPolicy(PolicySshAgent::Confirm::Never);
    policy.network = Policy::NetworkMode::Full;
    FixedAnswerHost host(true, m_state.path());
    const RunResult run = runShell(QStringLiteral("python3 tcp.py %1").arg(server.serverPort()), policy, &host);
    QVERIFY2(run.out.contains("blocking connected\nnonblocking 0\n"),
             QByteArray(run.error.toLocal8Bit() + run.out + run.err).constData());
    QVERIFY2(run.out.contains("closed port 111"), run.out.constData()); // ECONNREFUSED, as the kernel says it
    // A thread that is not the process's first connects as well.
    QVERIFY2(run.out.contains("thread connected"), QByteArray(run.out + run.err).constData());
    // More connects at once than sandbox-init has workers: each gets the kernel's answer.
    QVERIFY2(run.out.contains("many 300 {111}"), QByteArray(run.out + run.err).constData());
    // A process whose first thread has ended still connects (its descriptors are reached
    // through the calling thread).
    const QString source = m_workspace->filePath(QStringLiteral("orphan.c"));
    QVERIFY(OpenSshRig::writeFile(
        source,
        "#include <arpa/inet.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
        "#include <sys/socket.h>\n#include <unistd.h>\n"
        "static int port;\n"
        "static void *work(void *unused) {\n"
        "  (void)unused; struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(port);\n"
        "  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); int s = socket(AF_INET, SOCK_STREAM, 0);\n"
        "  int r = connect(s, (struct sockaddr *)&a, sizeof a);\n"
        "  printf(\"orphan thread %s\\n\", r == 0 ? \"connected\" : \"refused\"); fflush(stdout); exit(0);\n"
        "}\n"
        "int main(int argc, char **argv) {\n"
        "  (void)argc; port = atoi(argv[1]); pthread_t t; pthread_create(&t, 0, work, 0); pthread_exit(0);\n"
        "}\n"));
    QProcess compile;
    compile.start(
        QStringLiteral("cc"),
        { QStringLiteral("-pthread"), QStringLiteral("-o"), m_workspace->filePath(QStringLiteral("orphan")), source });
    QVERIFY(compile.waitForFinished(60000));
    QVERIFY2(compile.exitCode() == 0, compile.readAllStandardError().constData());
    const RunResult orphan = runShell(QStringLiteral("./orphan %1").arg(server.serverPort()), policy, &host);
    QVERIFY2(orphan.out.contains("orphan thread connected"),
             QByteArray(orphan.error.toLocal8Bit() + orphan.out + orphan.err).constData());
    QTRY_VERIFY(server.hasPendingConnections());
}

void TestSshAgentSandbox::aConnectThatNeverEndsHoldsNothingElse()
{
    // A thread's connect() that waits without end (its listener's queue is full, so every SYN
    // is dropped) while the main thread creates a file, which the write gate answers: the
    // gate still answers, and the command ends as usual.
    QVERIFY(
        OpenSshRig::writeFile(m_workspace->filePath(QStringLiteral("stall.py")),
                              "import os,socket,threading\n"
                              "srv=socket.socket(); srv.bind(('127.0.0.1',0)); srv.listen(0); addr=srv.getsockname()\n"
                              "held=[]\n"
                              "for i in range(3):\n"
                              " c=socket.socket(); c.setblocking(False)\n"
                              " try:\n  c.connect(addr)\n except BlockingIOError:\n  pass\n"
                              " held.append(c)\n"
                              "tid=[0]\n"
                              "def stall():\n tid[0]=threading.get_native_id(); s=socket.socket(); s.connect(addr)\n"
                              "threading.Thread(target=stall, daemon=True).start()\n"
                              "while not tid[0]:\n pass\n"
                              "while not open('/proc/self/task/%d/syscall' % tid[0]).read().startswith('42 '):\n pass\n"
                              "open('made-meanwhile','w').write('x')\n"
                              "print('answered', flush=True)\n"
                              "os._exit(0)\n"));
    Policy policy = agentPolicy(PolicySshAgent::Confirm::Never);
    policy.network = Policy::NetworkMode::Full;
    FixedAnswerHost host(true, m_state.path());
    const RunResult run = runShell(QStringLiteral("python3 stall.py"), policy, &host);
    QVERIFY2(run.out.contains("answered"), QByteArray(run.error.toLocal8Bit() + run.out + run.err).constData());
    QVERIFY(QFile::exists(m_workspace->filePath(QStringLiteral("made-meanwhile"))));
    QCOMPARE(run.status.exitCode, 0);
}

void TestSshAgentSandbox::racingAConnectReachesNoOtherUnixSocket()
{
    // One thread connects to a TCP address (a closed port, refused at once) while another swaps a unix socket in
    // under the same descriptor number and rewrites the address to a host socket: sandbox-init
    // copies the address once and connects the socket it took, so the host socket is never
    // reached.
    const QString path = QStringLiteral("/run/sandbox-race-%1.sock").arg(QRandomGenerator::global()->bounded(1000000));
    QLocalServer victim;
    QVERIFY(victim.listen(path));
    QVERIFY(OpenSshRig::writeFile(
        m_workspace->filePath(QStringLiteral("race.py")),
        "import ctypes,socket,struct,sys,threading\n"
        "libc=ctypes.CDLL(None,use_errno=True)\nport=int(sys.argv[1]); path=sys.argv[2].encode()\n"
        "inet=struct.pack('!HH4s8x',0,port,socket.inet_aton('127.0.0.1'))\n"
        "inet=struct.pack('=H',socket.AF_INET)+inet[2:]\n"
        "unix=struct.pack('=H',socket.AF_UNIX)+path+b'\\0'*(108-len(path))\n"
        "buf=ctypes.create_string_buffer(inet,110)\nreached=[0]\nstop=[False]\n"
        "def swap():\n"
        " while not stop[0]:\n"
        "  u=socket.socket(socket.AF_UNIX); libc.dup2(u.fileno(),fd); u.close()\n"
        "  ctypes.memmove(buf,unix,110); ctypes.memmove(buf,inet,len(inet))\n"
        "for i in range(200):\n"
        " s=socket.socket(); fd=s.detach()\n"
        " t=threading.Thread(target=swap); stop[0]=False; t.start()\n"
        " for j in range(10):\n"
        "  libc.connect(fd,buf,110)\n"
        " stop[0]=True; t.join(); libc.close(fd)\n"
        "print('raced')\n"));
    FixedAnswerHost host(true, m_state.path());
    Policy policy = agentPolicy(PolicySshAgent::Confirm::Never);
    policy.network = Policy::NetworkMode::Full;
    const RunResult run = runShell(QStringLiteral("python3 race.py 1 %1").arg(path), policy, &host);
    QVERIFY2(run.out.contains("raced"), QByteArray(run.error.toLocal8Bit() + run.out + run.err).constData());
    QVERIFY(!victim.hasPendingConnections());
    QVERIFY(!victim.waitForNewConnection(0));
}

void TestSshAgentSandbox::theAgentEndsWithTheCommand()
{
    FixedAnswerHost host(true, m_state.path());
    const RunResult run
        = runShell(QStringLiteral("echo \"$SSH_AUTH_SOCK\""), agentPolicy(PolicySshAgent::Confirm::Never), &host);
    const QString socket = QString::fromLocal8Bit(run.out).trimmed();
    QVERIFY2(socket.endsWith(QStringLiteral("/agent.sock")), qPrintable(socket));
    QVERIFY(socket != m_rig.agentSocket());
    QVERIFY(!QFileInfo::exists(socket));
    QVERIFY(!QFileInfo::exists(QFileInfo(socket).absolutePath()));
}

void TestSshAgentSandbox::pushReachesOnlyThePolicysHosts()
{
    const QString work = m_workspace->path();
    const QString remote
        = m_rig.path(QStringLiteral("remote-%1.git").arg(QString::fromLatin1(QTest::currentDataTag())));
    auto git = [&](const QStringList &args) {
        QProcess process;
        process.setWorkingDirectory(work);
        process.start(QStringLiteral("git"),
                      QStringList{ QStringLiteral("-c"), QStringLiteral("user.name=Tester"), QStringLiteral("-c"),
                                   QStringLiteral("user.email=tester@example.org") }
                          + args);
        return process.waitForFinished(30000) && process.exitCode() == 0 ? process.readAllStandardOutput().trimmed()
                                                                         : QByteArray("failed");
    };
    QVERIFY(git({ QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("--bare"), remote }) != "failed");
    QVERIFY(git({ QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main") })
            != "failed");
    QVERIFY(git({ QStringLiteral("add"), QStringLiteral("data") }) != "failed");
    QVERIFY(git({ QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("first") })
            != "failed");
    QVERIFY(git({ QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("origin"),
                  QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(m_rig.userName()).arg(m_rig.serverPort()).arg(remote) })
            != "failed");
    const QByteArray head = git({ QStringLiteral("rev-parse"), QStringLiteral("HEAD") });

    Policy policy = agentPolicy(PolicySshAgent::Confirm::Never);
    policy.network = Policy::NetworkMode::Allowlist;
    policy.sshAgent->hosts = { QStringLiteral("127.0.0.1:%1").arg(m_rig.serverPort()) };
    const quint16 other = m_rig.serverPort() == 65535 ? 65534 : m_rig.serverPort() + 1;
    FixedAnswerHost host(true, m_state.path());
    const RunResult run = runShell(
        QStringLiteral("git push -q origin main && echo pushed; "
                       "ssh -F \"$SANDBOX_SSH_CONFIG\" -p %1 %2@127.0.0.1 true; echo other=$?; "
                       "ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no -p %3 %2@127.0.0.1 true; "
                       "echo direct=$?; "
                       "copy=$(sed -n 's/.*UserKnownHostsFile \"\\(.*\\)\"/\\1/p' \"$SANDBOX_SSH_CONFIG\"); "
                       "grep -q 127.0.0.1 \"$copy\" && echo kept; grep -q elsewhere \"$copy\" && echo leaked")
            .arg(other)
            .arg(m_rig.userName())
            .arg(m_rig.serverPort()),
        policy, &host);
    const QByteArray said = run.error.toLocal8Bit() + run.out + run.err + "\nsshd:\n" + m_rig.serverLog();
    QVERIFY2(run.out.contains("pushed"), said.constData());
    QProcess remoteHead;
    remoteHead.start(QStringLiteral("git"),
                     { QStringLiteral("--git-dir=") + remote, QStringLiteral("rev-parse"), QStringLiteral("main") });
    QVERIFY(remoteHead.waitForFinished(30000));
    QCOMPARE(remoteHead.readAllStandardOutput().trimmed(), head);
    // Another port of the same host: the proxy refuses it, and says so.
    QVERIFY2(run.out.contains("other=") && !run.out.contains("other=0"), said.constData());
    bool refused = false;
    for (const Refusal &refusal : run.refusals)
        refused = refused
            || (refusal.kind == Refusal::Kind::Network && refusal.what.contains(QStringLiteral(":%1").arg(other)));
    QVERIFY2(refused, said.constData());
    // The copy of the user's known hosts holds the policy's hosts only.
    QVERIFY2(run.out.contains("kept") && !run.out.contains("leaked"), said.constData());
    // Straight to the allowed server, past the proxy: there is no such way out.
    QVERIFY2(run.out.contains("direct=") && !run.out.contains("direct=0"), said.constData());
}

void TestSshAgentSandbox::hostsWithoutAllowedDomainsAndAMissingAgentAreRefused()
{
    FixedAnswerHost host(true, m_state.path());
    auto launcher = preparedLauncher(QStringLiteral("strongest"));
    QVERIFY(launcher);
    launcher->attach(&host);
    const QString marker = m_workspace->filePath(QStringLiteral("ran"));
    // Hosts with a network mode that does not go through the proxy.
    Policy withHosts = agentPolicy(PolicySshAgent::Confirm::Never);
    withHosts.sshAgent->hosts = { QStringLiteral("git.example.org") };
    for (const Policy::NetworkMode mode : { Policy::NetworkMode::None, Policy::NetworkMode::Full }) {
        withHosts.network = mode;
        const RunResult hosts = runIn(*launcher, { QStringLiteral("touch"), marker }, withHosts, m_workspace->path());
        QVERIFY(!hosts.spawned);
        QVERIFY2(hosts.error.contains(QStringLiteral("policy.sshAgent.hosts"))
                     && hosts.error.contains(QStringLiteral("allowlist")),
                 qPrintable(hosts.error));
    }

    qunsetenv("SSH_AUTH_SOCK");
    const RunResult missing = runIn(*launcher, { QStringLiteral("touch"), marker },
                                    agentPolicy(PolicySshAgent::Confirm::Never), m_workspace->path());
    qputenv("SSH_AUTH_SOCK", QFile::encodeName(m_rig.agentSocket()));
    QVERIFY(!missing.spawned);
    QVERIFY2(missing.error.contains(QStringLiteral("SSH_AUTH_SOCK")), qPrintable(missing.error));
    QVERIFY(!QFile::exists(marker));
}

QTEST_GUILESS_MAIN(TestSshAgentSandbox)
#include "tst_sshagentsandbox.moc"
