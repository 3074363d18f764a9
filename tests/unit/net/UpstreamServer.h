#pragma once

#include <QByteArray>
#include <QObject>
#include <QThread>

#include <atomic>

class QTcpServer;

namespace sandbox::test {

// A real HTTP server on 127.0.0.1 (its own thread, so tests may block on their client
// sockets). Every response body starts with "upstream-ok" and echoes the request head it
// received, so tests can see what the proxy forwarded; `GET /large` adds kLargeBodyBytes.
class UpstreamServer final : public QObject
{
    Q_OBJECT

public:
    static constexpr qsizetype kLargeBodyBytes = 8 * 1024 * 1024;

    UpstreamServer();
    ~UpstreamServer() override;

    bool start();
    quint16 port() const { return m_port; }
    int requests() const { return m_requests.load(); }
    int connections() const { return m_connections.load(); }

private:
    void listenOnThread();

    QThread m_thread;
    QObject m_context; // lives on m_thread
    QTcpServer *m_server = nullptr;
    quint16 m_port = 0;
    std::atomic<int> m_requests{ 0 };
    std::atomic<int> m_connections{ 0 };
};

} // namespace sandbox::test
