#include "TlsRelay.h"

#include <QDeadlineTimer>
#include <QHostAddress>

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

// TlsRelay's way to the engine: connecting, the handshake, and what a failure means to the
// user; then the connection is relayed (TlsRelay.cpp).
namespace sandbox::power {

namespace {

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

} // namespace

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

} // namespace sandbox::power
