#include "QmpClient.h"

#include "fdio/FdIo.h"

#include <QJsonDocument>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox {

namespace {

int remaining(const QElapsedTimer &clock, int timeoutMs)
{
    return int(qMax<qint64>(0, timeoutMs - clock.elapsed()));
}

} // namespace

QmpClient::QmpClient(QString socketPath)
    : m_socketPath(std::move(socketPath))
{ }

QmpClient::~QmpClient()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

Error QmpClient::failure(const QString &message) const
{
    return Error{ QStringLiteral("builtin:vm.driver"), tr("QEMU monitor %1: %2").arg(m_socketPath, message), {} };
}

Status QmpClient::open(int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    const QByteArray path = m_socketPath.toLocal8Bit();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (size_t(path.size()) >= sizeof address.sun_path)
        return failure(tr("the socket path is too long"));
    std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
    for (;;) {
        m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            return failure(QString::fromLocal8Bit(std::strerror(errno)));
        if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0)
            break;
        const int error = errno;
        ::close(m_fd);
        m_fd = -1;
        if ((error != ENOENT && error != ECONNREFUSED) || clock.elapsed() >= timeoutMs)
            return failure(tr("cannot connect: %1").arg(QString::fromLocal8Bit(std::strerror(error))));
        QThread::msleep(5);
    }
    const Result<QJsonObject> greeting = readMessage(clock, timeoutMs);
    if (!greeting.ok())
        return greeting.error();
    if (!greeting.value().contains(QStringLiteral("QMP")))
        return failure(tr("the greeting is not QMP's"));
    const Result<QJsonObject> negotiated
        = execute(QStringLiteral("qmp_capabilities"), {}, -1, qMax(1000, remaining(clock, timeoutMs)));
    if (!negotiated.ok())
        return negotiated.error();
    return Status::success();
}

Status QmpClient::sendLine(const QByteArray &line, int passFd, const QElapsedTimer &clock, int timeoutMs)
{
    qsizetype sent = 0;
    while (sent < line.size()) {
        pollfd wait{ m_fd, POLLOUT, 0 };
        if (::poll(&wait, 1, remaining(clock, timeoutMs)) <= 0)
            return failure(tr("timed out sending a command"));
        iovec chunk{ const_cast<char *>(line.constData() + sent), size_t(line.size() - sent) };
        msghdr message{};
        message.msg_iov = &chunk;
        message.msg_iovlen = 1;
        fdio::DescriptorControl control;
        if (passFd >= 0 && sent == 0)
            fdio::attachDescriptor(message, control, passFd);
        const ssize_t written = ::sendmsg(m_fd, &message, MSG_NOSIGNAL);
        if (written < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return failure(tr("the connection broke: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        }
        sent += written;
    }
    return Status::success();
}

Result<QJsonObject> QmpClient::readMessage(const QElapsedTimer &clock, int timeoutMs)
{
    for (;;) {
        const qsizetype newline = m_input.indexOf('\n');
        if (newline >= 0) {
            const QByteArray line = m_input.left(newline);
            m_input.remove(0, newline + 1);
            QJsonParseError parseError;
            const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
            if (!document.isObject())
                return failure(tr("an answer is not a JSON object: %1").arg(parseError.errorString()));
            return document.object();
        }
        pollfd wait{ m_fd, POLLIN, 0 };
        const int ready = ::poll(&wait, 1, remaining(clock, timeoutMs));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return failure(tr("no answer within %1 s").arg(timeoutMs / 1000.0, 0, 'f', 1));
        char buffer[4096];
        const ssize_t got = ::read(m_fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return failure(tr("QEMU closed the monitor"));
        m_input.append(buffer, got);
        if (m_input.size() > (1 << 22))
            return failure(tr("an answer is larger than 4 MiB"));
    }
}

Result<QJsonObject> QmpClient::execute(const QString &command, const QJsonObject &arguments, int passFd, int timeoutMs)
{
    if (m_fd < 0)
        return failure(tr("not connected"));
    QElapsedTimer clock;
    clock.start();
    QJsonObject request{ { QStringLiteral("execute"), command } };
    if (!arguments.isEmpty())
        request.insert(QStringLiteral("arguments"), arguments);
    if (const Status sent
        = sendLine(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n', passFd, clock, timeoutMs);
        !sent)
        return sent.error();
    for (;;) {
        const Result<QJsonObject> message = readMessage(clock, timeoutMs);
        if (!message.ok())
            return message;
        const QJsonObject &object = message.value();
        if (object.contains(QStringLiteral("event")))
            continue;
        if (object.contains(QStringLiteral("error"))) {
            const QJsonObject error = object.value(QStringLiteral("error")).toObject();
            return failure(tr("%1 failed: %2").arg(command, error.value(QStringLiteral("desc")).toString()));
        }
        if (object.contains(QStringLiteral("return"))) {
            const QJsonValue value = object.value(QStringLiteral("return"));
            return value.isObject() ? value.toObject() : QJsonObject{ { QStringLiteral("value"), value } };
        }
        return failure(tr("an answer to %1 has neither return nor error").arg(command));
    }
}

} // namespace sandbox
