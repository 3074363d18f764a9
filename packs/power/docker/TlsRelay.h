#pragma once

#include "TcpEndpoint.h"

#include <QCoreApplication>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

struct ssl_ctx_st;
struct ssl_st;

namespace sandbox::power {

class TlsTunnel;

// TlsTunnel's threads: one accepting on the listening socket, one per connection relaying it
// to the engine (TLS when a context is given, else plain TCP). All end when this object does.
// TlsRelayConnect.cpp holds the way to the engine (connecting, the handshake, what failures
// mean); TlsRelay.cpp the threads and the relaying.
class TlsRelay final
{
    Q_DECLARE_TR_FUNCTIONS(TlsRelay)

public:
    struct Settings
    {
        TcpEndpoint endpoint;
        QString caFile; // for messages
        bool clientCertificate = false;
        int timeoutMs = 10000;
    };

    // Takes `listenFd` and `context` (null: plain TCP); `tunnel` hears what fails.
    TlsRelay(Settings settings, int listenFd, ssl_ctx_st *context, TlsTunnel &tunnel);
    ~TlsRelay();
    TlsRelay(const TlsRelay &) = delete;
    TlsRelay &operator=(const TlsRelay &) = delete;

    bool start();

private:
    struct Failure
    {
        QString field;
        QString message;
    };
    struct Connection
    {
        std::thread thread;
        std::atomic<bool> done{ false };
    };

    void acceptLoop();
    void serve(int local);
    // A connected socket to the engine, or -1 with `failure` set.
    int connectEngine(Failure &failure) const;
    bool handshake(ssl_st *ssl, int remote, Failure &failure) const;
    // What a failed TLS call means; `handshaking`: the engine's certificate may be at fault.
    Failure tlsFailure(ssl_st *ssl, bool handshaking) const;
    // What a failed read or write of a relayed connection means; `heard`: the engine has
    // answered on it.
    Failure relayFailure(ssl_st *ssl, bool heard) const;
    // 1 when `fd` is ready for `events`, 0 at the deadline, -1 when stopping.
    int waitFor(int fd, short events, qint64 deadlineMs) const;
    void relay(int local, int remote, ssl_st *ssl);
    // Tells the tunnel; `established`: the engine had answered on the connection.
    void fail(const Failure &failure, bool established = false);

    Settings m_settings;
    int m_listen = -1;
    int m_stop = -1;
    ssl_ctx_st *m_context = nullptr;
    TlsTunnel &m_tunnel;
    std::atomic<bool> m_stopping{ false };
    std::thread m_acceptor;
    std::vector<std::unique_ptr<Connection>> m_connections; // the acceptor's own
};

} // namespace sandbox::power
