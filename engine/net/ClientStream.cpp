#include "ClientStream.h"

#include <QSocketNotifier>

#include <cerrno>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace sandbox {

ClientStream::ClientStream(int fd, QObject *parent)
    : QObject(parent)
    , m_fd(fd)
{
    const int flags = fcntl(m_fd, F_GETFL);
    if (flags < 0 || fcntl(m_fd, F_SETFL, flags | O_NONBLOCK) != 0 || fcntl(m_fd, F_SETFD, FD_CLOEXEC) != 0) {
        closeDescriptor();
        m_inputEnded = true;
        return;
    }
    m_readNotifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Read, this);
    m_writeNotifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &ClientStream::onReadable);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &ClientStream::flush);
}

ClientStream::~ClientStream()
{
    closeDescriptor();
}

QByteArray ClientStream::readAll()
{
    return std::exchange(m_input, {});
}

void ClientStream::setReading(bool reading)
{
    m_reading = reading;
    if (m_readNotifier)
        m_readNotifier->setEnabled(reading && !m_inputEnded);
}

void ClientStream::write(const QByteArray &data)
{
    if (m_fd < 0 || m_closing || data.isEmpty())
        return;
    m_output += data;
    flush();
}

void ClientStream::closeAfterWriting()
{
    if (m_fd < 0)
        return;
    m_closing = true;
    m_readNotifier->setEnabled(false);
    flush();
}

void ClientStream::abort()
{
    m_output.clear();
    m_inputEnded = true;
    closeDescriptor();
}

void ClientStream::onReadable()
{
    if (m_fd < 0)
        return;
    char buffer[kReadChunkBytes];
    const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n > 0) {
        m_input.append(buffer, n);
        emit readyRead();
        return;
    }
    // End of the client's input (n == 0), or a broken connection.
    const bool broken = n < 0;
    m_inputEnded = true;
    if (m_readNotifier)
        m_readNotifier->setEnabled(false);
    if (broken) {
        m_output.clear();
        closeDescriptor();
        emit inputEnded();
        emit closed();
        return;
    }
    emit inputEnded();
}

void ClientStream::flush()
{
    if (m_fd < 0)
        return;
    const qsizetype before = m_output.size();
    while (!m_output.isEmpty()) {
        const ssize_t n = ::send(m_fd, m_output.constData(), size_t(m_output.size()), MSG_NOSIGNAL);
        if (n > 0) {
            m_output.remove(0, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            m_writeNotifier->setEnabled(true);
            if (m_output.size() != before)
                emit bytesWritten();
            return;
        }
        // The client is gone (EPIPE, ECONNRESET): nothing more can reach it.
        m_output.clear();
        m_inputEnded = true;
        closeDescriptor();
        emit closed();
        return;
    }
    m_writeNotifier->setEnabled(false);
    if (before != 0)
        emit bytesWritten();
    if (m_closing && m_fd >= 0) {
        closeDescriptor();
        emit closed();
    }
}

void ClientStream::closeDescriptor()
{
    // Deferred: this can run inside a notifier's own activated() signal.
    for (QSocketNotifier **notifier : { &m_readNotifier, &m_writeNotifier }) {
        if (*notifier) {
            (*notifier)->setEnabled(false);
            (*notifier)->deleteLater();
            *notifier = nullptr;
        }
    }
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

} // namespace sandbox
