#include "BaselineLease.h"

#include <QFile>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sandbox {

namespace {

QString leasePath(const QString &directory)
{
    return directory + QStringLiteral("/lease");
}

// Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces).
QByteArray startTime(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return {};
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    return fields.size() > 19 ? fields.at(19) : QByteArray();
}

bool alive(qint64 pid, const QByteArray &started)
{
    if (pid <= 0)
        return false;
    if (::kill(pid_t(pid), 0) != 0 && errno != EPERM)
        return false;
    const QByteArray now = startTime(pid);
    return now.isEmpty() || started.isEmpty() || now == started;
}

// The holder written in a lease file: "<pid> <start time>".
std::pair<qint64, QByteArray> readHolder(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return { 0, {} };
    const QList<QByteArray> fields = file.read(128).trimmed().split(' ');
    return { fields.value(0).toLongLong(), fields.value(1) };
}

} // namespace

BaselineLease::BaselineLease(QString directory)
    : m_directory(std::move(directory))
{ }

BaselineLease::~BaselineLease()
{
    release();
}

void BaselineLease::release()
{
    if (!std::exchange(m_held, false))
        return;
    // Only our own lease goes: a reclaimed one (this process was presumed dead) stays.
    const auto [pid, started] = readHolder(leasePath(m_directory));
    if (pid == qint64(::getpid()))
        QFile::remove(leasePath(m_directory));
}

qint64 BaselineLease::liveHolder(const QString &directory)
{
    const auto [pid, started] = readHolder(leasePath(directory));
    return alive(pid, started) ? pid : 0;
}

BaselineLease::Attempt BaselineLease::acquire(const QString &directory)
{
    const QByteArray path = QFile::encodeName(leasePath(directory));
    const qint64 self = ::getpid();
    const QByteArray holder = QByteArray::number(self) + ' ' + startTime(self) + '\n';
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0) {
            const bool written = ::write(fd, holder.constData(), size_t(holder.size())) == holder.size();
            ::close(fd);
            if (!written) {
                ::unlink(path.constData());
                return { nullptr, 0, tr("cannot write the lease in %1").arg(directory) };
            }
            return { std::unique_ptr<BaselineLease>(new BaselineLease(directory)), 0, QString() };
        }
        if (errno != EEXIST)
            return {
                nullptr, 0,
                tr("cannot take the lease in %1: %2").arg(directory, QString::fromLocal8Bit(std::strerror(errno)))
            };
        const auto [pid, started] = readHolder(leasePath(directory));
        if (alive(pid, started))
            return { nullptr, pid, tr("baseline leased by running process %1").arg(pid) };
        // The holder is gone: its lease is reclaimed.
        ::unlink(path.constData());
    }
    return { nullptr, 0, tr("the lease in %1 changed hands while it was being reclaimed").arg(directory) };
}

} // namespace sandbox
