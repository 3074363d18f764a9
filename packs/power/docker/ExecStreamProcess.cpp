#include "ExecStreamProcess.h"

#include <cerrno>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandbox::power {

ExecStreamProcess::ExecStreamProcess()
    : m_wakeFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{ }

ExecStreamProcess::~ExecStreamProcess()
{
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

void ExecStreamProcess::stopWorker()
{
    if (m_worker.joinable()) {
        kill();
        m_worker.join();
    }
}

bool ExecStreamProcess::isRunning() const
{
    QMutexLocker locker(&m_mutex);
    return m_running;
}

ExitStatus ExecStreamProcess::exitStatus() const
{
    QMutexLocker locker(&m_mutex);
    return m_exit;
}

void ExecStreamProcess::wake()
{
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(m_wakeFd, &one, sizeof one);
}

void ExecStreamProcess::drainWake()
{
    uint64_t count = 0;
    [[maybe_unused]] const ssize_t drained = ::read(m_wakeFd, &count, sizeof count);
}

void ExecStreamProcess::writeStdin(const QByteArray &data)
{
    {
        QMutexLocker locker(&m_mutex);
        if (m_closeStdin)
            return;
        m_stdin.append(data);
    }
    wake();
}

void ExecStreamProcess::closeStdin()
{
    {
        QMutexLocker locker(&m_mutex);
        m_closeStdin = true;
    }
    wake();
}

void ExecStreamProcess::terminate()
{
    {
        QMutexLocker locker(&m_mutex);
        if (m_signal == Signal::None)
            m_signal = Signal::Term;
    }
    wake();
}

void ExecStreamProcess::kill()
{
    {
        QMutexLocker locker(&m_mutex);
        m_signal = Signal::Kill;
    }
    wake();
}

ExecStreamProcess::Requests ExecStreamProcess::takeRequests()
{
    Requests requests;
    QMutexLocker locker(&m_mutex);
    requests.input.swap(m_stdin);
    requests.closeStdin = m_closeStdin;
    requests.signal = m_signal;
    return requests;
}

void ExecStreamProcess::emitFrames(QByteArray &pending)
{
    // Demultiplex: [stream, 0, 0, 0, size (big-endian 32 bits)] then size bytes.
    while (pending.size() >= 8) {
        const auto *header = reinterpret_cast<const uchar *>(pending.constData());
        const quint32 size
            = (quint32(header[4]) << 24) | (quint32(header[5]) << 16) | (quint32(header[6]) << 8) | quint32(header[7]);
        if (pending.size() < qsizetype(8 + size))
            break;
        const QByteArray payload = pending.mid(8, size);
        const uchar kind = header[0];
        pending.remove(0, 8 + size);
        if (payload.isEmpty())
            continue;
        QMetaObject::invokeMethod(
            this,
            [this, kind, payload] {
                if (kind == 2)
                    emit stderrReady(payload);
                else
                    emit stdoutReady(payload);
            },
            Qt::QueuedConnection);
    }
}

void ExecStreamProcess::passInput(int fd, const Requests &requests, bool &stdinOpen)
{
    if (stdinOpen && !requests.input.isEmpty()) {
        const QByteArray &input = requests.input;
        qsizetype done = 0;
        while (done < input.size()) {
            const ssize_t n = ::send(fd, input.constData() + done, size_t(input.size() - done), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EAGAIN) {
                pollfd out{ fd, POLLOUT, 0 };
                ::poll(&out, 1, 100);
                continue;
            }
            if (n <= 0)
                break;
            done += n;
        }
    }
    if (stdinOpen && requests.closeStdin) {
        ::shutdown(fd, SHUT_WR);
        stdinOpen = false;
    }
}

bool ExecStreamProcess::receive(int fd, QByteArray &pending)
{
    char chunk[65536];
    const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (got <= 0)
        return false;
    pending.append(chunk, got);
    return true;
}

} // namespace sandbox::power
