#include "SandboxedPeer.h"

#if defined(Q_OS_LINUX)
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sandbox {

namespace {

#if defined(Q_OS_LINUX)
constexpr int kSoPeerPidfd = 77; // SO_PEERPIDFD, Linux 6.5

// The parent pid from /proc/PID/stat (the field after the parenthesised name), or -1.
// Plain system calls: this runs for every ancestor of every client that connects.
qint64 parentOf(qint64 pid)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%lld/stat", static_cast<long long>(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char text[4096]; // the whole line: a name of at most 15 bytes, then numbers
    size_t used = 0;
    for (;;) {
        const ssize_t n = ::read(fd, text + used, sizeof text - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += size_t(n);
        if (used == sizeof text - 1)
            break;
    }
    ::close(fd);
    text[used] = '\0';
    const char *paren = std::strrchr(text, ')');
    // ") S PPID ...": the state, then the parent.
    if (!paren || paren[1] != ' ' || paren[2] == '\0' || paren[3] != ' ')
        return -1;
    const char *digits = paren + 4;
    qint64 parent = 0;
    const char *end = digits;
    for (; *end >= '0' && *end <= '9' && end - digits < 19; ++end)
        parent = parent * 10 + (*end - '0');
    if (end == digits || (*end != ' ' && *end != '\n' && *end != '\0'))
        return -1;
    return parent;
}

bool isSandboxInit(qint64 pid)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%lld/exe", static_cast<long long>(pid));
    char target[PATH_MAX];
    const ssize_t length = ::readlink(path, target, sizeof target - 1);
    if (length <= 0)
        return false;
    std::string exe(target, size_t(length));
    const std::string deleted = " (deleted)";
    if (exe.size() >= deleted.size() && exe.compare(exe.size() - deleted.size(), deleted.size(), deleted) == 0)
        exe.resize(exe.size() - deleted.size());
    return exe.substr(exe.rfind('/') + 1) == "sandbox-init";
}
#endif

} // namespace

bool SandboxedPeer::check(qintptr socketDescriptor, qint64 pid, QString *why)
{
#if defined(Q_OS_LINUX)
    if (pid <= 0) {
        *why = QStringLiteral("the kernel did not name the peer process");
        return true;
    }
    int pidfd = -1;
    socklen_t length = sizeof pidfd;
    if (::getsockopt(int(socketDescriptor), SOL_SOCKET, kSoPeerPidfd, &pidfd, &length) != 0)
        pidfd = -1;
    bool sandboxed = false;
    const qint64 self = ::getpid();
    for (qint64 current = pid; current > 1 && current != self;) {
        if (isSandboxInit(current)) {
            *why = QStringLiteral("pid %1 descends from sandbox-init (pid %2)").arg(pid).arg(current);
            sandboxed = true;
            break;
        }
        const qint64 parent = parentOf(current);
        if (parent < 0) {
            *why = QStringLiteral("the ancestry of pid %1 cannot be read (pid %2 is gone)").arg(pid).arg(current);
            sandboxed = true;
            break;
        }
        current = parent;
    }
    // What was read must have been the peer itself: still alive under the pinned pidfd.
    if (pidfd >= 0) {
        if (!sandboxed && ::syscall(SYS_pidfd_send_signal, pidfd, 0, nullptr, 0) != 0) {
            *why = QStringLiteral("pid %1 exited while it was examined").arg(pid);
            sandboxed = true;
        }
        ::close(pidfd);
    }
    return sandboxed;
#else
    Q_UNUSED(socketDescriptor);
    Q_UNUSED(pid);
    Q_UNUSED(why);
    return false;
#endif
}

} // namespace sandbox
