#include "SshReverseForward.h"

#include "ArgumentVector.h"
#include "SshTunnel.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace sandbox::power {

namespace {

// The remote session that keeps the folder: it makes it owner-only, says who owns it and where
// it is, and removes it once its input ends (closed by the engine, or by sshd when the
// connection dies), or when it is told to end. It writes nothing after its first line, so a
// closed output does not keep it from cleaning up.
const char *const keeperScript
    = "sh -c 'umask 077; d=$(mktemp -d \"${TMPDIR:-/tmp}/sandbox-studio-proxy.XXXXXXXXXX\") || exit 1; "
      "trap \"rm -rf -- \\\"\\$d\\\" 2>/dev/null; exit 0\" HUP INT TERM PIPE; "
      "echo \"$(id -u) $(id -g) $d\"; read line; rm -rf -- \"$d\" 2>/dev/null'";

// A remote path this forward can name: absolute, plain characters only (no ':' that ssh's
// forward specification or Docker's bind syntax would split on), short enough for a socket.
// And only what the keeper makes: mktemp's sandbox-studio-proxy.XXXXXXXXXX in a folder, with
// no "." or ".." component, so a remote login's stray output or a hostile account cannot make
// the engine mount another folder of that host (its root, its engine's socket) into a container.
bool plainPath(const QString &path)
{
    static const QRegularExpression plain(QStringLiteral("^/[A-Za-z0-9._/-]+$"));
    static const QRegularExpression made(QStringLiteral("/sandbox-studio-proxy\\.[A-Za-z0-9]{10}$"));
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.contains(QStringLiteral(".")) || parts.contains(QStringLiteral("..")) || !made.match(path).hasMatch())
        return false;
    return plain.match(path).hasMatch()
        && QFile::encodeName(path).size() + 1 + qsizetype(std::strlen(SshReverseForward::socketName))
        < qsizetype(sizeof(sockaddr_un::sun_path));
}

// Starts `arguments` (the program first) with stdin from `input` (-1: /dev/null) and stdout
// and stderr into `output`; -1 when it could not start.
pid_t spawn(const QStringList &arguments, int input, int output)
{
    ArgumentVector argv(arguments);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (input >= 0)
        posix_spawn_file_actions_adddup2(&actions, input, 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output, 1);
    posix_spawn_file_actions_adddup2(&actions, output, 2);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, argv.program(), &actions, nullptr, argv.argv(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return spawned == 0 ? pid : -1;
}

// Reads `fd` until a line ends (`line`), or until it ends (the rest), or the deadline passes.
QByteArray readUntil(int fd, const QDeadlineTimer &deadline, bool line)
{
    QByteArray read;
    char buffer[4096];
    while (!(line && read.contains('\n')) && read.size() < 64 * 1024) {
        pollfd ready{ fd, POLLIN, 0 };
        const int polled = ::poll(&ready, 1, int(qMax<qint64>(0, deadline.remainingTime())));
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0)
            break;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        read.append(buffer, n);
    }
    return read;
}

// Waits up to `timeoutMs` for `pid` to end, then kills it; its exit code, -1 when killed.
int reap(pid_t pid, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (done < 0 && errno != EINTR)
            return -1;
        if (deadline.hasExpired())
            break;
        QThread::msleep(5);
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return -1;
}

} // namespace

SshReverseForward::SshReverseForward(std::weak_ptr<SshTunnel> tunnel, QString localSocket, pid_t keeper,
                                     int keeperInput)
    : m_tunnel(std::move(tunnel))
    , m_localSocket(std::move(localSocket))
    , m_keeper(keeper)
    , m_keeperInput(keeperInput)
{ }

SshReverseForward::~SshReverseForward()
{
    constexpr int cleanupMs = 5000;
    if (m_watch.joinable()) {
        const char stop = 1;
        [[maybe_unused]] const ssize_t told = ::write(m_stop[1], &stop, 1);
        m_watch.join();
    }
    for (const int fd : m_stop) {
        if (fd >= 0)
            ::close(fd);
    }
    // The listener goes first (sshd keeps it until told, or until the connection ends) ...
    if (m_forwarded && !m_cancelled && !m_tunnel.expired())
        control("cancel", cleanupMs);
    // ... then the folder with the socket's name in it: the keeper removes it at the end of
    // its input.
    if (m_keeperInput >= 0)
        ::close(m_keeperInput);
    if (m_keeper > 0 && !m_ended)
        reap(m_keeper, cleanupMs);
    if (m_keeperOutput >= 0)
        ::close(m_keeperOutput);
}

bool SshReverseForward::isHolding() const
{
    QMutexLocker locker(&m_mutex);
    if (m_ended)
        return false;
    if (::waitpid(m_keeper, nullptr, WNOHANG) == m_keeper)
        m_ended = true;
    return !m_ended;
}

QString SshReverseForward::control(const char *operation, int timeoutMs) const
{
    const std::shared_ptr<SshTunnel> tunnel = m_tunnel.lock();
    if (!tunnel)
        return tr("the SSH connection was closed");
    const QString ssh = QStandardPaths::findExecutable(QStringLiteral("ssh"));
    int output[2];
    if (ssh.isEmpty() || ::pipe2(output, O_CLOEXEC) != 0)
        return tr("ssh could not be started");
    const QStringList arguments = QStringList{ ssh } + tunnel->controlArguments()
        + QStringList{ QStringLiteral("-O"), QString::fromLatin1(operation), QStringLiteral("-R"),
                       m_folder + QLatin1Char('/') + QString::fromLatin1(socketName) + QLatin1Char(':')
                           + m_localSocket }
        + tunnel->destinationArguments();
    const pid_t pid = spawn(arguments, -1, output[1]);
    ::close(output[1]);
    if (pid < 0) {
        ::close(output[0]);
        return tr("ssh could not be started");
    }
    const QByteArray said = readUntil(output[0], QDeadlineTimer(timeoutMs), false);
    ::close(output[0]);
    const int code = reap(pid, timeoutMs);
    if (code == 0)
        return {};
    const QString words = QString::fromLocal8Bit(said).trimmed();
    return words.isEmpty() ? tr("ssh -O %1 did not succeed").arg(QString::fromLatin1(operation)) : words;
}

Result<std::unique_ptr<SshReverseForward>> SshReverseForward::open(const std::shared_ptr<SshTunnel> &tunnel,
                                                                   const QString &localSocket, int timeoutMs)
{
    const QString field = QStringLiteral("endpoint");
    if (!tunnel || !tunnel->isRunning())
        return Error{ field, tr("The SSH connection to the engine has ended."), {} };
    // ssh's forward specification splits on ':'.
    if (!localSocket.startsWith(QLatin1Char('/')) || localSocket.contains(QLatin1Char(':')))
        return Error{ localSocket, tr("The proxy's socket %1 cannot be forwarded over SSH.").arg(localSocket), {} };
    const QString ssh = QStandardPaths::findExecutable(QStringLiteral("ssh"));
    if (ssh.isEmpty())
        return Error{ field, tr("The ssh program (OpenSSH's client) is not installed here."), {} };
    int input[2];
    int output[2];
    if (::pipe2(input, O_CLOEXEC) != 0)
        return Error{ field, tr("No pipe for ssh: %1").arg(QString::fromLocal8Bit(std::strerror(errno))), {} };
    if (::pipe2(output, O_CLOEXEC) != 0) {
        ::close(input[0]);
        ::close(input[1]);
        return Error{ field, tr("No pipe for ssh: %1").arg(QString::fromLocal8Bit(std::strerror(errno))), {} };
    }
    const QStringList arguments = QStringList{ ssh } + tunnel->controlArguments() + QStringList{ QStringLiteral("-T") }
        + tunnel->destinationArguments() + QStringList{ QString::fromLatin1(keeperScript) };
    const pid_t keeper = spawn(arguments, input[0], output[1]);
    ::close(input[0]);
    ::close(output[1]);
    if (keeper < 0) {
        ::close(input[1]);
        ::close(output[0]);
        return Error{ field, tr("ssh could not be started."), {} };
    }
    std::unique_ptr<SshReverseForward> forward(new SshReverseForward(tunnel, localSocket, keeper, input[1]));
    const QDeadlineTimer deadline(timeoutMs);
    const QByteArray said = readUntil(output[0], deadline, true);
    // Kept open but not read again (the keeper writes nothing after its first line): ssh's own
    // last words must not meet a closed pipe and end it before the folder is removed.
    forward->m_keeperOutput = output[0];
    const QByteArray first = said.left(said.indexOf('\n')).trimmed();
    const QList<QByteArray> parts = first.split(' ');
    const QString folder = QString::fromLocal8Bit(parts.value(2));
    bool uidOk = false;
    bool gidOk = false;
    const uint uid = parts.value(0).toUInt(&uidOk);
    const uint gid = parts.value(1).toUInt(&gidOk);
    if (!said.contains('\n') || parts.size() != 3 || !uidOk || !gidOk || !plainPath(folder))
        return Error{ field,
                      tunnel->explain(
                          tr("The remote host did not make a private folder for the filtering proxy's socket (mktemp "
                             "-d under umask 077 over SSH): %1")
                              .arg(said.isEmpty() ? tr("no answer") : QString::fromLocal8Bit(said).trimmed())),
                      {} };
    forward->m_folder = folder;
    forward->m_user = QStringLiteral("%1:%2").arg(uid).arg(gid);
    if (const QString failed = forward->control("forward", int(qMax<qint64>(1000, deadline.remainingTime())));
        !failed.isEmpty())
        return Error{ field,
                      tunnel->explain(tr("The remote host's sshd did not forward the filtering proxy's socket (remote "
                                         "stream-local forwarding, which sshd_config's AllowStreamLocalForwarding "
                                         "and DisableForwarding govern): %1")
                                          .arg(failed)),
                      {} };
    forward->m_forwarded = true;
    if (!forward->watchKeeper())
        return Error{ field, tr("No thread to watch the filtering proxy's forward: %1").arg(forward->m_folder), {} };
    return forward;
}

bool SshReverseForward::watchKeeper()
{
    if (::pipe2(m_stop, O_CLOEXEC) != 0)
        return false;
    m_watch = std::thread([this] {
        pollfd fds[2] = { { m_keeperOutput, POLLIN, 0 }, { m_stop[0], POLLIN, 0 } };
        char buffer[512];
        for (;;) {
            if (::poll(fds, 2, -1) < 0) {
                if (errno == EINTR)
                    continue;
                return;
            }
            if (fds[1].revents)
                return;
            if (!fds[0].revents)
                continue;
            const ssize_t n = ::read(m_keeperOutput, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n > 0)
                continue;
            // The keeper ended (killed on the remote host, or its session refused): its folder is
            // gone, but sshd would keep listening on the socket, which the container's bridge
            // still holds open. Cancelled now, the proxy is out of the container's reach at once.
            control("cancel", 5000);
            m_cancelled = true;
            return;
        }
    });
    return true;
}

} // namespace sandbox::power
