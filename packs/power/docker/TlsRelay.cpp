#include "TlsRelay.h"

#include "TlsTunnel.h"

#include <QDeadlineTimer>
#include <QHostAddress>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandbox::power {

namespace {

// Each direction of a connection holds at most this much; a full buffer stops reading its side.
constexpr std::size_t bufferLimit = 64 * 1024;
constexpr std::size_t maxConnections = 64;

QString lastTlsError()
{
    char text[256] = {};
    ERR_error_string_n(ERR_peek_last_error(), text, sizeof text);
    return QString::fromLatin1(text);
}

bool isPeerCertificateAlert(int reason)
{
    switch (reason) {
    case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED:
    case SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE:
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
    case SSL_R_TLSV1_ALERT_ACCESS_DENIED:
        return true;
    default:
        return false;
    }
}

void consume(std::vector<char> &buffer, std::size_t count)
{
    buffer.erase(buffer.begin(), buffer.begin() + std::ptrdiff_t(count));
}

} // namespace

TlsRelay::TlsRelay(Settings settings, int listenFd, ssl_ctx_st *context, TlsTunnel &tunnel)
    : m_settings(std::move(settings))
    , m_listen(listenFd)
    , m_context(context)
    , m_tunnel(tunnel)
{ }

TlsRelay::~TlsRelay()
{
    m_stopping = true;
    if (m_stop >= 0) {
        const std::uint64_t one = 1;
        // Level-triggered and never read: every thread's poll() sees it from now on.
        [[maybe_unused]] const ssize_t written = ::write(m_stop, &one, sizeof one);
    }
    if (m_acceptor.joinable())
        m_acceptor.join();
    for (const std::unique_ptr<Connection> &connection : m_connections)
        connection->thread.join();
    if (m_listen >= 0)
        ::close(m_listen);
    if (m_stop >= 0)
        ::close(m_stop);
    if (m_context)
        SSL_CTX_free(m_context);
}

bool TlsRelay::start()
{
    m_stop = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_stop < 0)
        return false;
    m_acceptor = std::thread([this] { acceptLoop(); });
    return true;
}

void TlsRelay::fail(const Failure &failure)
{
    if (!m_stopping)
        m_tunnel.recordFailure(failure.field, failure.message);
}

void TlsRelay::acceptLoop()
{
    for (;;) {
        pollfd fds[2] = { { m_listen, POLLIN, 0 }, { m_stop, POLLIN, 0 } };
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (fds[1].revents != 0)
            return;
        const int local = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (local < 0)
            continue;
        std::erase_if(m_connections, [](const std::unique_ptr<Connection> &connection) {
            if (!connection->done)
                return false;
            connection->thread.join();
            return true;
        });
        if (m_connections.size() >= maxConnections) {
            ::close(local);
            continue;
        }
        auto connection = std::make_unique<Connection>();
        Connection *held = connection.get();
        held->thread = std::thread([this, local, held] {
            serve(local);
            held->done = true;
        });
        m_connections.push_back(std::move(connection));
    }
}

int TlsRelay::waitFor(int fd, short events, qint64 deadlineMs) const
{
    const QDeadlineTimer deadline(deadlineMs);
    for (;;) {
        pollfd fds[2] = { { fd, events, 0 }, { m_stop, POLLIN, 0 } };
        const int polled = ::poll(fds, 2, int(deadline.remainingTime()));
        if (polled < 0 && errno == EINTR)
            continue;
        if (fds[1].revents != 0)
            return -1;
        return polled > 0 ? 1 : 0;
    }
}

int TlsRelay::connectEngine(Failure &failure) const
{
    const TcpEndpoint &endpoint = m_settings.endpoint;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const int looked = ::getaddrinfo(endpoint.host.toUtf8().constData(), QByteArray::number(endpoint.port).constData(),
                                     &hints, &found);
    if (looked != 0) {
        failure = { QStringLiteral("endpoint"),
                    tr("DNS: the host name %1 could not be resolved (%2). Check the host in the endpoint.")
                        .arg(endpoint.host, QString::fromLocal8Bit(::gai_strerror(looked))) };
        return -1;
    }
    int lastError = 0;
    for (const addrinfo *address = found; address; address = address->ai_next) {
        const int fd
            = ::socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, address->ai_protocol);
        if (fd < 0) {
            lastError = errno;
            continue;
        }
        if (::connect(fd, address->ai_addr, address->ai_addrlen) == 0) {
            ::freeaddrinfo(found);
            return fd;
        }
        lastError = errno;
        if (lastError == EINPROGRESS) {
            const int waited = waitFor(fd, POLLOUT, m_settings.timeoutMs);
            if (waited < 0) {
                ::close(fd);
                ::freeaddrinfo(found);
                failure = { QStringLiteral("endpoint"), tr("The connection was closed.") };
                return -1;
            }
            int error = 0;
            socklen_t length = sizeof error;
            ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
            if (waited == 1 && error == 0) {
                ::freeaddrinfo(found);
                return fd;
            }
            lastError = waited == 0 ? ETIMEDOUT : error;
        }
        ::close(fd);
    }
    ::freeaddrinfo(found);
    if (lastError == ECONNREFUSED)
        failure = { QStringLiteral("endpoint"),
                    tr("Connection refused: nothing listens on %1 port %2. Start the engine's TLS service there "
                       "(or correct the port in the endpoint).")
                        .arg(endpoint.host)
                        .arg(endpoint.port) };
    else if (lastError == ETIMEDOUT)
        failure = { QStringLiteral("endpoint"),
                    tr("Connection: %1 port %2 did not answer within %3 seconds.")
                        .arg(endpoint.host)
                        .arg(endpoint.port)
                        .arg(m_settings.timeoutMs / 1000) };
    else
        failure = { QStringLiteral("endpoint"),
                    tr("Connection: %1 port %2 cannot be reached (%3).")
                        .arg(endpoint.host)
                        .arg(endpoint.port)
                        .arg(QString::fromLocal8Bit(std::strerror(lastError))) };
    return -1;
}

TlsRelay::Failure TlsRelay::tlsFailure(ssl_st *ssl, bool handshaking) const
{
    const QString engine = m_settings.endpoint.text();
    const long verified = SSL_get_verify_result(ssl);
    if (handshaking && verified != X509_V_OK) {
        const QString why = QString::fromLatin1(X509_verify_cert_error_string(verified));
        switch (verified) {
        case X509_V_ERR_HOSTNAME_MISMATCH:
        case X509_V_ERR_IP_ADDRESS_MISMATCH:
            return { QStringLiteral("endpoint"),
                     tr("TLS verification: the certificate the engine at %1 presents does not name %2, the host in "
                        "the endpoint, and host names are always checked. Use the name the certificate is made for, "
                        "or have one made that names this host.")
                         .arg(engine, m_settings.endpoint.host) };
        case X509_V_ERR_CERT_HAS_EXPIRED:
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return { QStringLiteral("endpoint"),
                     tr("TLS verification: the certificate the engine at %1 presents is not valid now (%2). Renew "
                        "it on the engine's host.")
                         .arg(engine, why) };
        default:
            return { QStringLiteral("tlsCaCert"),
                     tr("TLS verification: the certificate the engine at %1 presents is not signed by the CA in "
                        "tlsCaCert (%2): %3. Set tlsCaCert to the CA the engine's certificate was made with.")
                         .arg(engine, m_settings.caFile, why) };
        }
    }
    if (isPeerCertificateAlert(ERR_GET_REASON(ERR_peek_last_error()))) {
        if (!m_settings.clientCertificate)
            return { QStringLiteral("tlsCert"),
                     tr("TLS client certificate: the engine at %1 asks for a client certificate and none is set "
                        "(%2). Set tlsCert, and store its key as the secret tlsKey.")
                         .arg(engine, lastTlsError()) };
        return { QStringLiteral("tlsCert"),
                 tr("TLS client certificate: the engine at %1 refused the client certificate in tlsCert (%2). It "
                    "must be made with a CA the engine trusts, and be valid.")
                     .arg(engine, lastTlsError()) };
    }
    return { QStringLiteral("endpoint"),
             tr("TLS: the connection to the engine at %1 failed (%2).")
                 .arg(engine, ERR_peek_last_error() ? lastTlsError() : QString::fromLocal8Bit(std::strerror(errno))) };
}

TlsRelay::Failure TlsRelay::relayFailure(ssl_st *ssl, bool heard) const
{
    const int failedWith = errno;
    // The engine's alert may wait behind a failed write: it tells more than the write's error.
    if (!isPeerCertificateAlert(ERR_GET_REASON(ERR_peek_last_error()))) {
        char ignored[256];
        ERR_clear_error();
        const int got = SSL_read(ssl, ignored, sizeof ignored);
        if (got <= 0 && SSL_get_error(ssl, got) == SSL_ERROR_SSL
            && isPeerCertificateAlert(ERR_GET_REASON(ERR_peek_last_error())))
            return tlsFailure(ssl, false);
        ERR_clear_error();
        // Under TLS 1.3 the engine judges our certificate after the handshake has ended for us,
        // and when it refuses it while our request is on its way, the connection is reset with
        // the alert unread.
        if (!heard && SSL_version(ssl) == TLS1_3_VERSION)
            return { QStringLiteral("tlsCert"),
                     (m_settings.clientCertificate
                          ? tr("TLS client certificate: the engine at %1 ended the connection right after the "
                               "handshake, before answering (%2): it most likely refused the client certificate in "
                               "tlsCert, which must be made with a CA the engine trusts, and be valid.")
                          : tr("TLS client certificate: the engine at %1 ended the connection right after the "
                               "handshake, before answering (%2): it most likely asks for a client certificate, and "
                               "none is set. Set tlsCert, and store its key as the secret tlsKey."))
                         .arg(m_settings.endpoint.text(), QString::fromLocal8Bit(std::strerror(failedWith))) };
        errno = failedWith;
    }
    return tlsFailure(ssl, false);
}

bool TlsRelay::handshake(ssl_st *ssl, int remote, Failure &failure) const
{
    const QByteArray host = m_settings.endpoint.host.toUtf8();
    SSL_set_fd(ssl, remote);
    // The engine's certificate must name the host of the endpoint: its address, or its name.
    if (!QHostAddress(m_settings.endpoint.host).isNull()) {
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.constData());
    } else {
        SSL_set_tlsext_host_name(ssl, host.constData());
        SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        SSL_set1_host(ssl, host.constData());
    }
    const QDeadlineTimer deadline(m_settings.timeoutMs);
    for (;;) {
        ERR_clear_error();
        const int connected = SSL_connect(ssl);
        if (connected == 1)
            return true;
        const int error = SSL_get_error(ssl, connected);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) {
            failure = tlsFailure(ssl, true);
            return false;
        }
        const int waited = waitFor(remote, error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline.remainingTime());
        if (waited <= 0) {
            failure = { QStringLiteral("endpoint"),
                        tr("TLS: the engine at %1 did not finish the handshake within %2 seconds.")
                            .arg(m_settings.endpoint.text())
                            .arg(m_settings.timeoutMs / 1000) };
            return false;
        }
    }
}

void TlsRelay::serve(int local)
{
    Failure failure;
    const int remote = connectEngine(failure);
    if (remote < 0) {
        fail(failure);
        ::close(local);
        return;
    }
    ssl_st *ssl = m_context ? SSL_new(m_context) : nullptr;
    if (m_context && (!ssl || !handshake(ssl, remote, failure))) {
        fail(ssl ? failure : Failure{ QStringLiteral("endpoint"), lastTlsError() });
    } else {
        relay(local, remote, ssl);
    }
    if (ssl)
        SSL_free(ssl);
    ::close(remote);
    ::close(local);
}

void TlsRelay::relay(int local, int remote, ssl_st *ssl)
{
    std::vector<char> up; // from the local client, to the engine
    std::vector<char> down; // from the engine, to the local client
    std::vector<char> chunk(bufferLimit);
    bool localEnded = false;
    bool remoteEnded = false;
    bool upClosed = false;
    bool downClosed = false;
    bool heard = false;
    short writeWants = POLLOUT;
    short readWants = POLLIN;
    for (;;) {
        bool moved = false;
        if (!localEnded && up.size() < bufferLimit) {
            const ssize_t got = ::read(local, chunk.data(), bufferLimit - up.size());
            if (got > 0) {
                up.insert(up.end(), chunk.data(), chunk.data() + got);
                moved = true;
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                localEnded = true;
                moved = true;
            }
        }
        if (!up.empty()) {
            if (ssl) {
                ERR_clear_error();
                const int sent = SSL_write(ssl, up.data(), int(up.size()));
                if (sent > 0) {
                    consume(up, std::size_t(sent));
                    moved = true;
                } else {
                    const int error = SSL_get_error(ssl, sent);
                    if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE)
                        return fail(relayFailure(ssl, heard));
                    writeWants = error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
                }
            } else {
                const ssize_t sent = ::send(remote, up.data(), up.size(), MSG_NOSIGNAL);
                if (sent > 0) {
                    consume(up, std::size_t(sent));
                    moved = true;
                } else if (errno != EAGAIN && errno != EINTR) {
                    return fail({ QStringLiteral("endpoint"),
                                  tr("The connection to the engine at %1 broke: %2")
                                      .arg(m_settings.endpoint.text(), QString::fromLocal8Bit(std::strerror(errno))) });
                }
            }
        }
        // The client has said all it will (a command's stdin closed): so the engine hears.
        if (localEnded && up.empty() && !upClosed) {
            if (ssl) {
                ERR_clear_error();
                const int shut = SSL_shutdown(ssl);
                upClosed = shut >= 0 || SSL_get_error(ssl, shut) != SSL_ERROR_WANT_WRITE;
            } else {
                ::shutdown(remote, SHUT_WR);
                upClosed = true;
            }
            moved = moved || upClosed;
        }
        if (!remoteEnded && down.size() < bufferLimit) {
            if (ssl) {
                ERR_clear_error();
                errno = 0;
                const int got = SSL_read(ssl, chunk.data(), int(bufferLimit - down.size()));
                if (got > 0) {
                    down.insert(down.end(), chunk.data(), chunk.data() + got);
                    moved = true;
                } else {
                    const int failedWith = errno;
                    const int error = SSL_get_error(ssl, got);
                    // The engine's close_notify; or, once it has answered, its end without one (the
                    // HTTP layer above checks that what it said is whole).
                    const bool ended = error == SSL_ERROR_ZERO_RETURN
                        || (heard && error == SSL_ERROR_SSL
                            && ERR_GET_REASON(ERR_peek_error()) == SSL_R_UNEXPECTED_EOF_WHILE_READING)
                        || (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 && failedWith == 0);
                    if (ended) {
                        remoteEnded = true;
                        moved = true;
                    } else if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
                        readWants = error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
                    } else {
                        return fail(relayFailure(ssl, heard));
                    }
                }
            } else {
                const ssize_t got = ::recv(remote, chunk.data(), bufferLimit - down.size(), 0);
                if (got > 0) {
                    down.insert(down.end(), chunk.data(), chunk.data() + got);
                    moved = true;
                } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                    remoteEnded = true;
                    moved = true;
                }
            }
            if (!down.empty() && !heard) {
                heard = true;
                m_tunnel.recordSuccess();
            }
        }
        if (!down.empty()) {
            const ssize_t sent = ::send(local, down.data(), down.size(), MSG_NOSIGNAL);
            if (sent > 0) {
                consume(down, std::size_t(sent));
                moved = true;
            } else if (errno != EAGAIN && errno != EINTR) {
                return; // the client has gone
            }
        }
        if (remoteEnded && down.empty() && !downClosed) {
            ::shutdown(local, SHUT_WR);
            downClosed = true;
            moved = true;
        }
        if (downClosed && (upClosed || localEnded))
            return;
        if (moved)
            continue;

        short remoteEvents = 0;
        if (!up.empty() || (localEnded && !upClosed))
            remoteEvents |= ssl ? writeWants : short(POLLOUT);
        if (!remoteEnded && down.size() < bufferLimit)
            remoteEvents |= ssl ? readWants : short(POLLIN);
        const short localEvents
            = short((!localEnded && up.size() < bufferLimit ? POLLIN : 0) | (!down.empty() ? POLLOUT : 0));
        pollfd fds[3] = { { local, localEvents, 0 }, { remote, remoteEvents, 0 }, { m_stop, POLLIN, 0 } };
        if (::poll(fds, 3, -1) < 0 && errno != EINTR)
            return;
        if (fds[2].revents != 0)
            return;
        // Hung up with nothing left to read: the client has gone, or the engine's side has.
        if ((fds[0].revents & (POLLHUP | POLLERR)) && !(fds[0].revents & POLLIN))
            return;
        if ((fds[1].revents & (POLLHUP | POLLERR)) && !(fds[1].revents & POLLIN)) {
            remoteEnded = true;
            up.clear();
            upClosed = true;
        }
    }
}

} // namespace sandbox::power
