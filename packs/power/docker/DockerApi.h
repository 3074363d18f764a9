#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <functional>

namespace sandbox::power {

// The Docker Engine API over a unix socket (Docker Engine, or Podman's Docker-compatible
// service). Each request uses its own connection and a deadline: nothing here waits
// longer than it is told to. Thread-safe (no shared state but the socket path).
class DockerApi final
{
    Q_DECLARE_TR_FUNCTIONS(DockerApi)

public:
    // The API version every request names; Docker Engine 20.10+ and Podman 4 serve it.
    static constexpr const char *apiVersion = "v1.41";

    struct Response
    {
        int status = 0;
        QByteArray body;
        QJsonObject json() const;
        // The daemon's own explanation ({"message": ...}), or the status line.
        QString message() const;
    };

    // A connection given over to an exec's multiplexed stdin/stdout/stderr stream.
    struct Stream
    {
        int fd = -1;
        QByteArray pending; // stream bytes that arrived with the response head
    };

    explicit DockerApi(QString socketPath);

    QString socketPath() const { return m_socketPath; }

    Result<Response> get(const QString &path, int timeoutMs) const;
    Result<Response> post(const QString &path, const QJsonObject &body, int timeoutMs) const;
    Result<Response> remove(const QString &path, int timeoutMs) const;
    // POST /exec/<id>/start, attached: the connection becomes the exec's stream.
    Result<Stream> startExec(const QString &execId, int timeoutMs) const;
    // PUT `path` (/containers/<id>/archive?path=...) with the tar file `archive` as its body,
    // sent from the file as it is read; `progress` gets the bytes sent so far.
    Result<Response> putArchive(const QString &path, const QString &archive,
                                const std::function<void(qint64)> &progress, int timeoutMs) const;
    // GET `path` (/containers/<id>/archive?path=...): the body handed to `sink` as it arrives,
    // never held whole; `sink` returning false stops it. An Error when the status is not 200.
    Status getArchive(const QString &path, const std::function<bool(const QByteArray &)> &sink, int timeoutMs) const;

private:
    Result<Response> readResponse(int fd, const QByteArray &method, const QString &path, qint64 deadline,
                                  int timeoutMs) const;
    Result<int> connectSocket(qint64 deadline) const;
    Result<Response> request(const QByteArray &method, const QString &path, const QByteArray &body,
                             int timeoutMs) const;

    QString m_socketPath;
};

} // namespace sandbox::power
