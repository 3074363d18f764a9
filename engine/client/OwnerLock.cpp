#include "client/OwnerLock.h"

#include <QCoreApplication>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace sandbox {

OwnerLock::OwnerLock(QString path)
    : m_path(std::move(path))
{ }

OwnerLock::~OwnerLock()
{
    release();
}

Result<bool> OwnerLock::tryAcquire()
{
    if (isHeld())
        return true;
    if (m_fd < 0) {
        m_fd = ::open(QFile::encodeName(m_path).constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (m_fd < 0)
            return Error{ m_path,
                          QCoreApplication::translate("sandbox::OwnerLock", "cannot open the engine lock file: %1")
                              .arg(QString::fromLocal8Bit(std::strerror(errno))),
                          {} };
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            return false;
        return Error{ m_path,
                      QCoreApplication::translate("sandbox::OwnerLock", "cannot lock the engine lock file: %1")
                          .arg(QString::fromLocal8Bit(std::strerror(errno))),
                      {} };
    }
    m_held = true;
    // The pid is informational only (messages); the lock itself is the truth.
    const QByteArray pid = QByteArray::number(QCoreApplication::applicationPid()) + '\n';
    if (::ftruncate(m_fd, 0) == 0 && ::pwrite(m_fd, pid.constData(), size_t(pid.size()), 0) < 0) {
        // Not fatal: only messages use the pid.
    }
    return true;
}

void OwnerLock::release()
{
    if (m_fd < 0)
        return;
    if (m_held)
        (void)::ftruncate(m_fd, 0);
    ::close(m_fd); // closing drops the flock
    m_fd = -1;
    m_held = false;
}

qint64 OwnerLock::ownerPid() const
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readLine(32).trimmed().toLongLong();
}

} // namespace sandbox
