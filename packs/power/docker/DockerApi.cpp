#include "DockerApi.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::power {

namespace {

constexpr qsizetype maxResponseSize = 16 * 1024 * 1024;

int remainingMs(qint64 deadline)
{
    return int(qMax<qint64>(0, deadline - QDeadlineTimer::current().deadline()));
}

bool waitFor(int fd, short events, qint64 deadline)
{
    for (;;) {
        pollfd p{ fd, events, 0 };
        const int n = ::poll(&p, 1, remainingMs(deadline));
        if (n > 0)
            return true;
        if (n == 0 || errno != EINTR)
            return false;
    }
}

bool writeAll(int fd, const QByteArray &data, qint64 deadline)
{
    qsizetype done = 0;
    while (done < data.size()) {
        if (!waitFor(fd, POLLOUT, deadline))
            return false;
        const ssize_t n = ::send(fd, data.constData() + done, size_t(data.size() - done), MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

// Reads until `complete` says the buffer holds a whole response, EOF or the deadline.
enum class ReadEnd { Complete, Eof, Timeout, Failed };

ReadEnd readUntil(int fd, QByteArray &buffer, qint64 deadline, const std::function<bool(const QByteArray &)> &complete)
{
    char chunk[65536];
    while (!complete(buffer)) {
        if (buffer.size() > maxResponseSize)
            return ReadEnd::Failed;
        if (!waitFor(fd, POLLIN, deadline))
            return ReadEnd::Timeout;
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0)
            return ReadEnd::Failed;
        if (n == 0)
            return ReadEnd::Eof;
        buffer.append(chunk, n);
    }
    return ReadEnd::Complete;
}

struct Head
{
    int status = 0;
    qsizetype bodyStart = -1;
    qint64 contentLength = -1;
    bool chunked = false;
};

Head parseHead(const QByteArray &buffer)
{
    Head head;
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return head;
    head.bodyStart = end + 4;
    const QList<QByteArray> lines = buffer.left(end).split('\n');
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    head.status = statusLine.value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length")
            head.contentLength = value.toLongLong();
        else if (name == "transfer-encoding" && value.toLower().contains("chunked"))
            head.chunked = true;
    }
    return head;
}

// Decodes a chunked body; false while it is incomplete.
bool dechunk(const QByteArray &raw, QByteArray *body)
{
    QByteArray out;
    qsizetype pos = 0;
    for (;;) {
        const qsizetype lineEnd = raw.indexOf("\r\n", pos);
        if (lineEnd < 0)
            return false;
        bool ok = false;
        const qint64 size = raw.mid(pos, lineEnd - pos).split(';').value(0).trimmed().toLongLong(&ok, 16);
        if (!ok)
            return false;
        pos = lineEnd + 2;
        if (size == 0) {
            if (body)
                *body = out;
            return true;
        }
        if (raw.size() < pos + size + 2)
            return false;
        out.append(raw.mid(pos, size));
        pos += size + 2;
    }
}

} // namespace

QJsonObject DockerApi::Response::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString DockerApi::Response::message() const
{
    const QString message = json().value(QStringLiteral("message")).toString().trimmed();
    if (!message.isEmpty())
        return message.left(500);
    return tr("HTTP status %1").arg(status);
}

DockerApi::DockerApi(QString socketPath)
    : m_socketPath(std::move(socketPath))
{ }

Result<int> DockerApi::connectSocket(qint64 deadline) const
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray path = m_socketPath.toLocal8Bit();
    if (path.size() >= qsizetype(sizeof address.sun_path))
        return Error{ m_socketPath, tr("the socket path is too long"), {} };
    std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return Error{ m_socketPath,
                      tr("cannot create a socket: %1").arg(QString::fromLocal8Bit(std::strerror(errno))),
                      {} };
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        const int error = errno;
        if (error != EINPROGRESS && error != EAGAIN) {
            ::close(fd);
            return Error{ m_socketPath,
                          tr("no Docker-compatible runtime answers at %1 (%2)")
                              .arg(m_socketPath, QString::fromLocal8Bit(std::strerror(error))),
                          {} };
        }
        if (!waitFor(fd, POLLOUT, deadline)) {
            ::close(fd);
            return Error{ m_socketPath,
                          tr("no Docker-compatible runtime answered at %1 in time").arg(m_socketPath),
                          {} };
        }
    }
    return fd;
}

Result<DockerApi::Response> DockerApi::request(const QByteArray &method, const QString &path, const QByteArray &body,
                                               int timeoutMs) const
{
    const qint64 deadline = QDeadlineTimer(timeoutMs).deadline();
    Result<int> connected = connectSocket(deadline);
    if (!connected.ok())
        return connected.error();
    const int fd = connected.value();
    QByteArray head
        = method + ' ' + '/' + apiVersion + path.toUtf8() + " HTTP/1.1\r\nHost: docker\r\n" + "Connection: close\r\n";
    if (!body.isNull())
        head += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    head += "\r\n";
    if (!writeAll(fd, head + body, deadline)) {
        ::close(fd);
        return Error{ m_socketPath, tr("the runtime at %1 did not take the request").arg(m_socketPath), {} };
    }
    return readResponse(fd, method, path, deadline, timeoutMs);
}

Result<DockerApi::Response> DockerApi::readResponse(int fd, const QByteArray &method, const QString &path,
                                                    qint64 deadline, int timeoutMs) const
{
    QByteArray buffer;
    const ReadEnd end = readUntil(fd, buffer, deadline, [](const QByteArray &data) {
        const Head h = parseHead(data);
        if (h.bodyStart < 0)
            return false;
        if (h.chunked)
            return dechunk(data.mid(h.bodyStart), nullptr);
        if (h.contentLength >= 0)
            return data.size() >= h.bodyStart + h.contentLength;
        return h.status == 204 || h.status == 304;
    });
    ::close(fd);
    const Head h = parseHead(buffer);
    if (end == ReadEnd::Timeout)
        return Error{ m_socketPath,
                      tr("the runtime at %1 did not answer %2 %3 within %4 s")
                          .arg(m_socketPath, QString::fromLatin1(method), path)
                          .arg(timeoutMs / 1000.0),
                      {} };
    if (h.bodyStart < 0 || end == ReadEnd::Failed)
        return Error{ m_socketPath, tr("the runtime at %1 sent no valid HTTP response").arg(m_socketPath), {} };
    Response response;
    response.status = h.status;
    if (h.chunked)
        dechunk(buffer.mid(h.bodyStart), &response.body);
    else
        response.body = h.contentLength >= 0 ? buffer.mid(h.bodyStart, h.contentLength) : buffer.mid(h.bodyStart);
    return response;
}

Result<DockerApi::Response> DockerApi::putArchive(const QString &path, const QString &archive,
                                                  const std::function<void(qint64)> &progress, int timeoutMs) const
{
    QFile file(archive);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ archive, tr("cannot read %1: %2").arg(archive, file.errorString()), {} };
    const qint64 deadline = QDeadlineTimer(timeoutMs).deadline();
    Result<int> connected = connectSocket(deadline);
    if (!connected.ok())
        return connected.error();
    const int fd = connected.value();
    const QByteArray head = QByteArray("PUT /") + apiVersion + path.toUtf8()
        + " HTTP/1.1\r\nHost: docker\r\nConnection: close\r\nContent-Type: application/x-tar\r\nContent-Length: "
        + QByteArray::number(file.size()) + "\r\n\r\n";
    bool sent = writeAll(fd, head, deadline);
    qint64 total = 0;
    while (sent && !file.atEnd()) {
        const QByteArray chunk = file.read(256 * 1024);
        sent = !chunk.isEmpty() && writeAll(fd, chunk, deadline);
        total += chunk.size();
        if (sent && progress)
            progress(total);
    }
    if (!sent) {
        // The runtime may have answered early (a refusal) and closed: its answer says why.
        Result<Response> early = readResponse(fd, "PUT", path, QDeadlineTimer(2000).deadline(), 2000);
        if (early.ok() && early.value().status != 200)
            return early;
        return Error{ m_socketPath, tr("the runtime at %1 did not take the archive").arg(m_socketPath), {} };
    }
    return readResponse(fd, "PUT", path, deadline, timeoutMs);
}

Status DockerApi::getArchive(const QString &path, const std::function<bool(const QByteArray &)> &sink,
                             int timeoutMs) const
{
    const qint64 deadline = QDeadlineTimer(timeoutMs).deadline();
    Result<int> connected = connectSocket(deadline);
    if (!connected.ok())
        return connected.error();
    const int fd = connected.value();
    const QByteArray head
        = QByteArray("GET /") + apiVersion + path.toUtf8() + " HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n";
    if (!writeAll(fd, head, deadline)) {
        ::close(fd);
        return Error{ m_socketPath, tr("the runtime at %1 did not take the request").arg(m_socketPath), {} };
    }
    QByteArray buffer;
    const ReadEnd headEnd
        = readUntil(fd, buffer, deadline, [](const QByteArray &data) { return data.contains("\r\n\r\n"); });
    const Head h = parseHead(buffer);
    if (headEnd != ReadEnd::Complete || h.bodyStart < 0) {
        ::close(fd);
        return Error{ m_socketPath, tr("the runtime at %1 sent no valid HTTP response").arg(m_socketPath), {} };
    }
    if (h.status != 200) {
        readUntil(fd, buffer, deadline, [](const QByteArray &) { return false; });
        ::close(fd);
        Response response;
        response.status = h.status;
        response.body = buffer.mid(h.bodyStart);
        if (h.chunked)
            dechunk(buffer.mid(h.bodyStart), &response.body);
        return Error{ path, response.message(), {} };
    }
    // The body, passed on as it comes: chunk by chunk when chunked, else to its length or EOF.
    QByteArray raw = buffer.mid(h.bodyStart);
    qint64 left = h.contentLength; // not chunked: -1 reads to EOF
    qint64 inChunk = 0;
    bool crlfDue = false;
    bool done = false;
    char chunk[65536];
    for (;;) {
        QByteArray data;
        if (h.chunked) {
            for (;;) {
                if (inChunk > 0) {
                    const qsizetype n = qsizetype(qMin<qint64>(inChunk, raw.size()));
                    if (n == 0)
                        break;
                    data += raw.left(n);
                    raw.remove(0, n);
                    inChunk -= n;
                    crlfDue = inChunk == 0;
                    continue;
                }
                if (crlfDue) {
                    if (raw.size() < 2)
                        break;
                    raw.remove(0, 2);
                    crlfDue = false;
                }
                const qsizetype lineEnd = raw.indexOf("\r\n");
                if (lineEnd < 0)
                    break;
                bool ok = false;
                inChunk = raw.left(lineEnd).split(';').value(0).trimmed().toLongLong(&ok, 16);
                raw.remove(0, lineEnd + 2);
                if (!ok || inChunk < 0) {
                    ::close(fd);
                    return Error{ m_socketPath, tr("the runtime at %1 sent a malformed body").arg(m_socketPath), {} };
                }
                if (inChunk == 0) {
                    done = true;
                    break;
                }
            }
        } else {
            data = left >= 0 ? raw.left(qsizetype(qMin<qint64>(left, raw.size()))) : raw;
            if (left >= 0)
                left -= data.size();
            raw.clear();
            done = left == 0;
        }
        if (!data.isEmpty() && !sink(data)) {
            ::close(fd);
            return Error{ path, tr("the archive was not taken in whole"), {} };
        }
        if (done)
            break;
        if (!waitFor(fd, POLLIN, deadline)) {
            ::close(fd);
            return Error{
                m_socketPath,
                tr("the runtime at %1 did not send the archive within %2 s").arg(m_socketPath).arg(timeoutMs / 1000),
                {}
            };
        }
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0) {
            ::close(fd);
            return Error{ m_socketPath,
                          tr("reading the archive from %1 failed: %2")
                              .arg(m_socketPath, QString::fromLocal8Bit(std::strerror(errno))),
                          {} };
        }
        if (n == 0) {
            ::close(fd);
            if (!h.chunked && left < 0)
                return {};
            return Error{ m_socketPath, tr("the runtime at %1 ended the archive early").arg(m_socketPath), {} };
        }
        raw.append(chunk, n);
    }
    ::close(fd);
    return {};
}

Result<DockerApi::Response> DockerApi::get(const QString &path, int timeoutMs) const
{
    return request("GET", path, QByteArray(), timeoutMs);
}

Result<DockerApi::Response> DockerApi::post(const QString &path, const QJsonObject &body, int timeoutMs) const
{
    return request("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact), timeoutMs);
}

Result<DockerApi::Response> DockerApi::remove(const QString &path, int timeoutMs) const
{
    return request("DELETE", path, QByteArray(), timeoutMs);
}

Result<DockerApi::Stream> DockerApi::startExec(const QString &execId, int timeoutMs) const
{
    const qint64 deadline = QDeadlineTimer(timeoutMs).deadline();
    Result<int> connected = connectSocket(deadline);
    if (!connected.ok())
        return connected.error();
    const int fd = connected.value();
    const QByteArray body = R"({"Detach":false,"Tty":false})";
    const QByteArray head = QByteArray("POST /") + apiVersion + "/exec/" + execId.toUtf8()
        + "/start HTTP/1.1\r\nHost: docker\r\nContent-Type: application/json\r\nConnection: Upgrade\r\n"
          "Upgrade: tcp\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n\r\n";
    if (!writeAll(fd, head + body, deadline)) {
        ::close(fd);
        return Error{ execId, tr("the runtime did not take the exec start request"), {} };
    }
    QByteArray buffer;
    readUntil(fd, buffer, deadline, [](const QByteArray &data) { return data.contains("\r\n\r\n"); });
    const Head h = parseHead(buffer);
    if (h.bodyStart < 0 || (h.status != 101 && h.status != 200)) {
        ::close(fd);
        Response response;
        response.status = h.status;
        response.body = h.bodyStart >= 0 ? buffer.mid(h.bodyStart) : QByteArray();
        return Error{ execId, tr("the runtime refused to start the command: %1").arg(response.message()), {} };
    }
    Stream stream;
    stream.fd = fd;
    stream.pending = buffer.mid(h.bodyStart);
    return stream;
}

} // namespace sandbox::power
