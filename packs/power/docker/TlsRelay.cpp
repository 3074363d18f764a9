#include "TlsRelay.h"

#include "TlsTunnel.h"

#include <QDeadlineTimer>

#include <cerrno>
#include <cstring>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandbox::power {

namespace {

// Each direction of a connection holds at most this much; a full buffer stops reading its side.
constexpr std::size_t bufferLimit = 64 * 1024;
constexpr std::size_t maxConnections = 64;

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

void TlsRelay::fail(const Failure &failure, bool established)
{
    if (!m_stopping)
        m_tunnel.recordFailure(failure.field, failure.message, established);
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
                        return fail(relayFailure(ssl, heard), heard);
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
                                      .arg(m_settings.endpoint.text(), QString::fromLocal8Bit(std::strerror(errno))) },
                                heard);
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
                        return fail(relayFailure(ssl, heard), heard);
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
