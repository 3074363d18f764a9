#include "SshTunnel.h"

#include "ArgumentVector.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QThread>
#include <QUuid>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace sandbox::power {

namespace {

bool accepts(const QString &socket)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray path = QFile::encodeName(socket);
    if (path.size() >= qsizetype(sizeof address.sun_path))
        return false;
    std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const bool connected = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

} // namespace

SshTunnel::SshTunnel(SshEndpoint endpoint, QString socket, QString control, QString log, pid_t pid)
    : m_endpoint(std::move(endpoint))
    , m_socket(std::move(socket))
    , m_control(std::move(control))
    , m_log(std::move(log))
    , m_pid(pid)
{ }

SshTunnel::~SshTunnel()
{
    if (!m_ended && m_pid > 0) {
        ::kill(m_pid, SIGTERM);
        ::waitpid(m_pid, nullptr, 0);
    }
    QFile::remove(m_socket);
    QFile::remove(m_control);
    QFile::remove(m_log);
}

QStringList SshTunnel::controlArguments() const
{
    // ssh expands %-tokens in a control path.
    QString control = m_control;
    control.replace(QLatin1Char('%'), QStringLiteral("%%"));
    return { QStringLiteral("-S"), control,
             QStringLiteral("-o"), QStringLiteral("ControlMaster=no"),
             QStringLiteral("-o"), QStringLiteral("BatchMode=yes") };
}

QStringList SshTunnel::destinationArguments() const
{
    return { QStringLiteral("-p"), QString::number(m_endpoint.port),
             QStringLiteral("-l"), m_endpoint.user,
             QStringLiteral("--"), m_endpoint.host };
}

bool SshTunnel::isRunning() const
{
    QMutexLocker locker(&m_mutex);
    if (m_ended)
        return false;
    int status = 0;
    if (::waitpid(m_pid, &status, WNOHANG) == m_pid)
        m_ended = true;
    return !m_ended;
}

bool SshTunnel::isRunning(int graceMs) const
{
    QDeadlineTimer deadline(graceMs);
    while (isRunning()) {
        if (deadline.hasExpired())
            return true;
        QThread::msleep(10);
    }
    return false;
}

QByteArray SshTunnel::said() const
{
    QFile file(m_log);
    return file.open(QIODevice::ReadOnly) ? file.read(64 * 1024) : QByteArray();
}

QString SshTunnel::explain(const QString &fallback) const
{
    const QString known = explain(said(), m_endpoint);
    if (!known.isEmpty())
        return known;
    if (!isRunning())
        return tr("The SSH connection to %1 ended: %2").arg(m_endpoint.host, QString::fromLocal8Bit(said()).trimmed());
    return fallback;
}

QString SshTunnel::explain(const QByteArray &said, const SshEndpoint &endpoint)
{
    const QString words = QString::fromLocal8Bit(said).trimmed();
    const QString lastLine = words.section(QLatin1Char('\n'), -1).trimmed();
    if (said.contains("Could not resolve hostname"))
        return tr("DNS: the host name %1 could not be resolved (%2). Check the host in the endpoint.")
            .arg(endpoint.host, lastLine);
    if (said.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") || said.contains("has changed and you have"))
        return tr("Host key: the key %1 presents is not the one your known_hosts holds for it. Someone may be "
                  "intercepting the connection, or the host's key was replaced: verify the new key with the host's "
                  "administrator, then replace the old entry (ssh-keygen -R).")
            .arg(endpoint.host);
    if (said.contains("host key is known") || said.contains("Host key verification failed"))
        return tr("Host key: %1 is not in your known_hosts, and host keys are always checked. Verify its key "
                  "and add it (connect once with ssh -p %2 %3@%1).")
            .arg(endpoint.host)
            .arg(endpoint.port)
            .arg(endpoint.user);
    if (said.contains("Permission denied"))
        return tr("SSH authentication: %1 refused the keys offered for %2 (%3). Add your public key to the remote "
                  "user's authorized_keys, load it into your SSH agent, or set the identity file.")
            .arg(endpoint.host, endpoint.user, lastLine);
    if (said.contains("Connection refused") || said.contains("Connection timed out") || said.contains("No route")
        || said.contains("Network is unreachable"))
        return tr("SSH connection: %1 port %2 cannot be reached (%3).")
            .arg(endpoint.host)
            .arg(endpoint.port)
            .arg(lastLine);
    if (said.contains("open failed"))
        return tr("Remote socket: the SSH connection to %1 works, but no engine answers on %2 there (%3). Start "
                  "the engine's service on that host (podman system service, or Docker), or correct the socket path "
                  "in the endpoint.")
            .arg(endpoint.host, endpoint.socketPath, lastLine);
    return {};
}

Result<std::unique_ptr<SshTunnel>> SshTunnel::open(const SshEndpoint &endpoint, const Options &options,
                                                   const QString &folder, int timeoutMs)
{
    const QString ssh = QStandardPaths::findExecutable(QStringLiteral("ssh"));
    if (ssh.isEmpty())
        return Error{ QStringLiteral("endpoint"),
                      tr("The endpoint %1 needs the ssh program (OpenSSH's client), which is not installed here.")
                          .arg(endpoint.text()),
                      {} };
    const QString unique = QUuid::createUuid().toString(QUuid::Id128).left(12);
    const QString socket = QDir(folder).filePath(QStringLiteral("docker-ssh-%1.sock").arg(unique));
    const QString log = QDir(folder).filePath(QStringLiteral("docker-ssh-%1.log").arg(unique));
    const QString control = QDir(folder).filePath(QStringLiteral("docker-ssh-%1.ctl").arg(unique));
    // ssh binds the control socket under a name 17 characters longer, then renames it.
    constexpr qsizetype controlSuffix = 17;
    if (QFile::encodeName(socket).size() >= qsizetype(sizeof(sockaddr_un::sun_path))
        || QFile::encodeName(control).size() + controlSuffix >= qsizetype(sizeof(sockaddr_un::sun_path)))
        return Error{ folder, tr("The folder %1 has too long a path for a socket.").arg(folder), {} };

    QStringList arguments{
        QStringLiteral("-N"), QStringLiteral("-T"),
        // Never a question (no password, no host key prompt), always checked.
        QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
        QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("ExitOnForwardFailure=yes"),
        QStringLiteral("-o"), QStringLiteral("StreamLocalBindMask=0177"), QStringLiteral("-o"),
        QStringLiteral("StreamLocalBindUnlink=yes"),
        // A control socket of this connection's own, in the engine's owner-only folder: a
        // connection shared with the user's other sessions would outlive this one's settings.
        QStringLiteral("-o"), QStringLiteral("ControlMaster=yes"), QStringLiteral("-o"),
        QStringLiteral("ControlPath=") + QString(control).replace(QLatin1Char('%'), QStringLiteral("%%")),
        QStringLiteral("-o"), QStringLiteral("ControlPersist=no"), QStringLiteral("-o"),
        QStringLiteral("ConnectTimeout=%1").arg(qMax(1, timeoutMs / 1000)), QStringLiteral("-o"),
        QStringLiteral("ServerAliveInterval=15"), QStringLiteral("-o"), QStringLiteral("ServerAliveCountMax=3"),
        QStringLiteral("-p"), QString::number(endpoint.port), QStringLiteral("-l"), endpoint.user, QStringLiteral("-L"),
        socket + QLatin1Char(':') + endpoint.socketPath
    };
    if (!options.identityFile.isEmpty())
        arguments << QStringLiteral("-i") << options.identityFile << QStringLiteral("-o")
                  << QStringLiteral("IdentitiesOnly=yes");
    if (!options.knownHostsFile.isEmpty())
        arguments << QStringLiteral("-o") << QStringLiteral("UserKnownHostsFile=") + options.knownHostsFile;
    arguments << QStringLiteral("--") << endpoint.host;

    ArgumentVector argv(QStringList{ ssh } + arguments);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const QByteArray logPath = QFile::encodeName(log);
    posix_spawn_file_actions_addopen(&actions, 2, logPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, argv.program(), &actions, nullptr, argv.argv(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return Error{ QStringLiteral("endpoint"),
                      tr("ssh could not be started: %1").arg(QString::fromLocal8Bit(std::strerror(spawned))),
                      {} };
    std::unique_ptr<SshTunnel> tunnel(new SshTunnel(endpoint, socket, control, log, pid));

    // ssh binds the local socket once it is connected and authenticated, and its control
    // socket right after.
    const QDeadlineTimer deadline(timeoutMs);
    while (!accepts(socket) || !accepts(control)) {
        if (!tunnel->isRunning())
            return Error{ QStringLiteral("endpoint"),
                          tunnel->explain(tr("ssh to %1 ended without saying why.").arg(endpoint.host)),
                          {} };
        if (deadline.hasExpired())
            return Error{ QStringLiteral("endpoint"),
                          tunnel->explain(tr("SSH connection: %1 port %2 did not answer within %3 seconds.")
                                              .arg(endpoint.host)
                                              .arg(endpoint.port)
                                              .arg(timeoutMs / 1000)),
                          {} };
        QThread::msleep(20);
    }
    return tunnel;
}

} // namespace sandbox::power
