#include "OpenSshRig.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>

#include <cerrno>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox::test {

OpenSshRig::OpenSshRig()
    : m_dir(QStringLiteral("/tmp/sshrig-XXXXXX"))
{ }

OpenSshRig::~OpenSshRig()
{
    if (m_server.state() != QProcess::NotRunning) {
        m_server.terminate();
        m_server.waitForFinished(10000);
    }
    if (m_agent.state() != QProcess::NotRunning) {
        m_agent.terminate();
        m_agent.waitForFinished(10000);
    }
}

QString OpenSshRig::start()
{
    for (const char *tool : { "ssh-agent", "ssh-add", "ssh-keygen" }) {
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            return QStringLiteral("%1 is missing: run installer/install-deps.sh test (openssh-client)")
                .arg(QLatin1String(tool));
    }
    if (!m_dir.isValid())
        return QStringLiteral("cannot make a temporary folder: %1").arg(m_dir.errorString());
    m_agentSocket = path(QStringLiteral("user-agent.sock"));
    // In the foreground, a child of this test; it prints its socket once it listens.
    m_agent.start(QStringLiteral("ssh-agent"), { QStringLiteral("-D"), QStringLiteral("-a"), m_agentSocket });
    if (!m_agent.waitForStarted(10000))
        return QStringLiteral("ssh-agent did not start: %1").arg(m_agent.errorString());
    QByteArray said;
    while (!said.contains("SSH_AUTH_SOCK") && m_agent.waitForReadyRead(10000))
        said += m_agent.readAllStandardOutput();
    if (!said.contains("SSH_AUTH_SOCK"))
        return QStringLiteral("ssh-agent did not say where it listens: %1").arg(QString::fromLocal8Bit(said));

    for (const QString &name : { QStringLiteral("listed"), QStringLiteral("unlisted") }) {
        const QString key = path(name);
        if (const QString problem = generateKey(key, name + QStringLiteral("@test")); !problem.isEmpty())
            return problem;
        const Run added = run(QStringLiteral("ssh-add"), { key }, m_agentSocket);
        if (added.exitCode != 0)
            return QStringLiteral("ssh-add %1 failed: %2").arg(key, QString::fromLocal8Bit(added.err));
        if (!QFile::remove(key))
            return QStringLiteral("cannot remove %1").arg(key);
    }
    m_listedFingerprint = fingerprintOf(listedKey());
    m_unlistedFingerprint = fingerprintOf(unlistedKey());
    if (!m_listedFingerprint.startsWith(QStringLiteral("SHA256:")) || m_listedFingerprint == m_unlistedFingerprint)
        return QStringLiteral("unexpected fingerprints: %1 and %2").arg(m_listedFingerprint, m_unlistedFingerprint);
    if (fingerprintsListedAt(m_agentSocket).size() != 2)
        return QStringLiteral("the agent does not list both keys");
    return QString();
}

QString OpenSshRig::startServer()
{
    const QString sshd = QStandardPaths::findExecutable(QStringLiteral("sshd"),
                                                        { QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin") });
    if (sshd.isEmpty())
        return QStringLiteral("sshd is missing: run installer/install-deps.sh test (openssh-server)");
    const passwd *account = ::getpwuid(::geteuid());
    if (!account)
        return QStringLiteral("this user has no account entry");
    m_user = QString::fromLocal8Bit(account->pw_name);
    // The server accepts both keys: only the filter decides which one the client can use.
    if (const QString problem = generateKey(path(QStringLiteral("host_key")), QStringLiteral("host"));
        !problem.isEmpty())
        return problem;
    if (!writeFile(path(QStringLiteral("authorized_keys")), readAll(listedKey()) + readAll(unlistedKey())))
        return QStringLiteral("cannot write authorized_keys");
    // As root, sshd confines its unprivileged half to this directory, which its packaged
    // service would make at boot.
    // Another test may make it at the same moment.
    if (::geteuid() == 0 && ::mkdir("/run/sshd", 0755) != 0 && errno != EEXIST)
        return QStringLiteral("cannot make /run/sshd");
    // sshd binds its port itself, so it gets one found free a moment before; a test running
    // beside this one can take that port meanwhile, and then sshd is given another.
    m_server.setProcessChannelMode(QProcess::MergedChannels);
    for (int attempt = 0; attempt < 5; ++attempt) {
        {
            QTcpServer probe;
            if (!probe.listen(QHostAddress::LocalHost, 0))
                return QStringLiteral("no free loopback port");
            m_port = probe.serverPort();
        }
        if (!writeFile(path(QStringLiteral("known_hosts")),
                       QStringLiteral("[127.0.0.1]:%1 ").arg(m_port).toUtf8()
                           + readAll(path(QStringLiteral("host_key.pub")))))
            return QStringLiteral("cannot write known_hosts");
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
                  .arg(path(QStringLiteral("host_key")), path(QStringLiteral("authorized_keys")), m_user)
                  .toUtf8();
        if (!writeFile(path(QStringLiteral("sshd_config")), config))
            return QStringLiteral("cannot write sshd_config");
        m_server.start(
            sshd,
            { QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), path(QStringLiteral("sshd_config")) });
        if (!m_server.waitForStarted(10000))
            return QStringLiteral("sshd did not start: %1").arg(m_server.errorString());
        m_serverLog.clear();
        while (!m_serverLog.contains("Server listening") && m_server.waitForReadyRead(10000))
            m_serverLog += m_server.readAll();
        m_serverLog += m_server.readAll();
        if (m_serverLog.contains("Server listening") || !m_serverLog.contains("Address already in use"))
            break;
        m_server.waitForFinished(10000);
    }
    if (!m_serverLog.contains("Server listening"))
        return QStringLiteral("sshd did not listen: %1").arg(QString::fromLocal8Bit(m_serverLog));
    // Its log is read as it comes, so that a full pipe never stops the server.
    QObject::connect(&m_server, &QProcess::readyRead, &m_server, [this] { m_serverLog += m_server.readAll(); });
    return QString();
}

OpenSshRig::Run OpenSshRig::run(const QString &program, const QStringList &args, const QString &authSocket,
                                const QMap<QString, QString> &extraEnvironment, const QString &workingDirectory) const
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), authSocket);
    for (auto it = extraEnvironment.cbegin(); it != extraEnvironment.cend(); ++it)
        env.insert(it.key(), it.value());
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(workingDirectory.isEmpty() ? m_dir.path() : workingDirectory);
    process.setStandardInputFile(QProcess::nullDevice());
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(program, args);
    Run result;
    if (!finished.wait(60000)) {
        process.kill();
        finished.wait(5000);
        result.err = "timed out";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QString OpenSshRig::generateKey(const QString &keyPath, const QString &comment) const
{
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"),
                 { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                   QString(), QStringLiteral("-C"), comment, QStringLiteral("-f"), keyPath });
    if (!keygen.waitForFinished(30000) || keygen.exitStatus() != QProcess::NormalExit || keygen.exitCode() != 0)
        return QStringLiteral("ssh-keygen could not make %1: %2")
            .arg(keyPath, QString::fromLocal8Bit(keygen.readAllStandardError()));
    return QString();
}

QString OpenSshRig::fingerprintOf(const QString &publicKey) const
{
    QProcess process;
    process.start(QStringLiteral("ssh-keygen"), { QStringLiteral("-l"), QStringLiteral("-f"), publicKey });
    if (!process.waitForFinished(30000))
        return QString();
    return QString::fromLatin1(process.readAllStandardOutput().split(' ').value(1));
}

QByteArray OpenSshRig::keyBlobOf(const QString &publicKey) const
{
    return QByteArray::fromBase64(readAll(publicKey).split(' ').value(1));
}

QStringList OpenSshRig::fingerprintsListedAt(const QString &authSocket) const
{
    const Run listed = run(QStringLiteral("ssh-add"), { QStringLiteral("-l") }, authSocket);
    QStringList fingerprints;
    for (const QByteArray &line : listed.out.split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() > 1 && fields.at(1).startsWith("SHA256:"))
            fingerprints.append(QString::fromLatin1(fields.at(1)));
    }
    return fingerprints;
}

QByteArray OpenSshRig::readAll(const QString &filePath)
{
    QFile file(filePath);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool OpenSshRig::writeFile(const QString &filePath, const QByteArray &data, QFile::Permissions permissions)
{
    QFile file(filePath);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) != data.size())
        return false;
    file.close();
    return permissions == QFile::Permissions() || file.setPermissions(permissions);
}

QString OpenSshRig::verifySignature(const QString &publicKey, const QString &data, const QString &signature) const
{
    const QString signers = path(QStringLiteral("allowed_signers"));
    if (!writeFile(signers, "tester@example.org " + readAll(publicKey)))
        return QStringLiteral("cannot write %1").arg(signers);
    QProcess verify;
    verify.setStandardInputFile(data);
    verify.start(QStringLiteral("ssh-keygen"),
                 { QStringLiteral("-Y"), QStringLiteral("verify"), QStringLiteral("-f"), signers, QStringLiteral("-I"),
                   QStringLiteral("tester@example.org"), QStringLiteral("-n"), QStringLiteral("file"),
                   QStringLiteral("-s"), signature });
    if (!verify.waitForFinished(30000))
        return QStringLiteral("ssh-keygen -Y verify did not end");
    if (verify.exitStatus() == QProcess::NormalExit && verify.exitCode() == 0)
        return {};
    return QString::fromLocal8Bit(verify.readAllStandardError() + verify.readAllStandardOutput());
}

QString OpenSshRig::verifyCommit(const QString &publicKey, const QString &repository) const
{
    const QString signers = path(QStringLiteral("allowed_signers"));
    if (!writeFile(signers, "tester@example.org " + readAll(publicKey)))
        return QStringLiteral("cannot write %1").arg(signers);
    QProcess verified;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    verified.setProcessEnvironment(env);
    verified.setWorkingDirectory(repository);
    verified.start(QStringLiteral("git"),
                   { QStringLiteral("-c"), QStringLiteral("gpg.format=ssh"), QStringLiteral("-c"),
                     QStringLiteral("gpg.ssh.allowedSignersFile=") + signers, QStringLiteral("verify-commit"),
                     QStringLiteral("HEAD") });
    if (!verified.waitForFinished(30000))
        return QStringLiteral("git verify-commit did not end");
    const QByteArray said = verified.readAllStandardError();
    if (verified.exitCode() == 0 && said.contains("Good \"git\" signature for tester@example.org"))
        return {};
    return QString::fromLocal8Bit(said);
}

OpenSshRig::Run OpenSshRig::git(const QStringList &args)
{
    QProcess git;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    git.setProcessEnvironment(env);
    git.start(QStringLiteral("git"),
              QStringList{ QStringLiteral("-c"), QStringLiteral("user.name=Tester"), QStringLiteral("-c"),
                           QStringLiteral("user.email=tester@example.org") }
                  + args);
    OpenSshRig::Run run;
    if (!git.waitForFinished(60000))
        return run;
    run.exitCode = git.exitStatus() == QProcess::NormalExit ? git.exitCode() : -1;
    run.out = git.readAllStandardOutput();
    run.err = git.readAllStandardError();
    return run;
}

QByteArray OpenSshRig::preparePush(const QString &project, const QString &remoteName, QString *problem) const
{
    const QString remote = path(remoteName);
    if (!QDir().mkpath(project) || !writeFile(project + QStringLiteral("/f"), "pushed\n")) {
        *problem = QStringLiteral("cannot make %1").arg(project);
        return {};
    }
    const QList<QStringList> steps{
        { QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("--bare"), remote },
        { QStringLiteral("-C"), project, QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"),
          QStringLiteral("main") },
        { QStringLiteral("-C"), project, QStringLiteral("add"), QStringLiteral("f") },
        { QStringLiteral("-C"), project, QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("first") },
        { QStringLiteral("-C"), project, QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("origin"),
          QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(m_user).arg(m_port).arg(remote) },
        { QStringLiteral("-C"), project, QStringLiteral("rev-parse"), QStringLiteral("HEAD") },
    };
    Run done;
    for (const QStringList &step : steps) {
        done = git(step);
        if (done.exitCode != 0) {
            *problem = QStringLiteral("git %1: %2").arg(step.join(QLatin1Char(' ')), QString::fromUtf8(done.err));
            return {};
        }
    }
    return done.out.trimmed();
}

QString OpenSshRig::pushProbe(const QString &project, const QString &gitOptions) const
{
    return QStringLiteral("cd %4 && git %5 push -q origin main && echo pushed; "
                          "ssh -F \"$SANDBOX_SSH_CONFIG\" -p %1 %2@127.0.0.1 true; echo other=$?; "
                          "ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no -p %3 %2@127.0.0.1 true; "
                          "echo direct=$?; "
                          "copy=$(sed -n 's/.*UserKnownHostsFile \"\\(.*\\)\"/\\1/p' \"$SANDBOX_SSH_CONFIG\"); "
                          "grep -q 127.0.0.1 \"$copy\" && echo kept; grep -q elsewhere \"$copy\" && echo leaked")
        .arg(otherPort())
        .arg(m_user)
        .arg(m_port)
        .arg(project, gitOptions);
}

QString OpenSshRig::pushProbeProblem(const QByteArray &output, const QString &remoteName, const QByteArray &head) const
{
    if (!output.contains("pushed"))
        return QStringLiteral("the push failed");
    const Run remote
        = git({ QStringLiteral("--git-dir=") + path(remoteName), QStringLiteral("rev-parse"), QStringLiteral("main") });
    if (remote.out.trimmed() != head)
        return QStringLiteral("the remote's main is %1, not %2")
            .arg(QString::fromUtf8(remote.out.trimmed()), QString::fromUtf8(head));
    // Another port of the same host: the proxy refuses it.
    if (!output.contains("other=") || output.contains("other=0"))
        return QStringLiteral("another port of the host was reached");
    // The copy of the user's known hosts holds the policy's hosts only.
    if (!output.contains("kept") || output.contains("leaked"))
        return QStringLiteral("the known-hosts copy does not hold the policy's host alone");
    // Straight to the allowed server, past the proxy: the sandbox has no such way out.
    if (!output.contains("direct=") || output.contains("direct=0"))
        return QStringLiteral("the server was reached past the proxy");
    return {};
}

QString OpenSshRig::keyChangeProbe()
{
    return QStringLiteral("ssh-add -D; echo removeall=$?; ssh-add -d listed.pub; echo remove=$?; rm -f /tmp/planted*; "
                          "ssh-keygen -q -t ed25519 -N '' -C planted -f /tmp/planted && ssh-add /tmp/planted; "
                          "echo add=$?");
}

QString OpenSshRig::keyChangeProblem(const QByteArray &output) const
{
    if (!output.contains("removeall=") || !output.contains("add="))
        return QStringLiteral("the probe did not run to its end");
    if (output.contains("removeall=0") || output.contains("remove=0") || output.contains("add=0"))
        return QStringLiteral("a change of the user's keys went through");
    const QStringList held = fingerprintsListedAt(m_agentSocket);
    if (held.size() != 2 || !held.contains(m_listedFingerprint) || !held.contains(m_unlistedFingerprint))
        return QStringLiteral("the user's agent holds %1").arg(held.join(QLatin1Char(' ')));
    return {};
}

} // namespace sandbox::test
