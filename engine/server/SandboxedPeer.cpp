#include "SandboxedPeer.h"

#include <QFile>
#include <QFileInfo>

#if defined(Q_OS_LINUX)
#include <csignal>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sandbox {

namespace {

#if defined(Q_OS_LINUX)
constexpr int kSoPeerPidfd = 77; // SO_PEERPIDFD, Linux 6.5

// The parent pid from /proc/PID/stat (the field after the parenthesised name), or -1.
qint64 parentOf(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const qsizetype paren = text.lastIndexOf(')');
    if (paren < 0)
        return -1;
    const QList<QByteArray> fields = text.mid(paren + 2).split(' ');
    bool ok = false;
    const qint64 parent = fields.value(1).toLongLong(&ok);
    return ok ? parent : -1;
}

bool isSandboxInit(qint64 pid)
{
    QString exe = QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid));
    if (exe.endsWith(QLatin1String(" (deleted)")))
        exe.chop(10);
    return QFileInfo(exe).fileName() == QLatin1String("sandbox-init");
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
