#include "TlsTunnel.h"

#include "TlsRelay.h"

#include <QDir>
#include <QFile>
#include <QUuid>

#include <cstring>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::power {

namespace {

struct ContextDeleter
{
    void operator()(SSL_CTX *context) const { SSL_CTX_free(context); }
};
using Context = std::unique_ptr<SSL_CTX, ContextDeleter>;

struct BioDeleter
{
    void operator()(BIO *bio) const { BIO_free(bio); }
};

// The certificates of a PEM file, read whole; an Error naming `field` when the file cannot be
// read or holds none.
Result<std::vector<X509 *>> certificates(const QString &field, const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{
            field,
            TlsTunnel::tr("The %1 file %2 (%3) cannot be read: %4").arg(what, path, field, file.errorString()),
            {}
        };
    const QByteArray pem = file.read(1024 * 1024);
    std::unique_ptr<BIO, BioDeleter> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    std::vector<X509 *> found;
    while (X509 *certificate = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr))
        found.push_back(certificate);
    ERR_clear_error();
    if (found.empty())
        return Error{ field,
                      TlsTunnel::tr("The %1 file %2 (%3) holds no PEM certificate.").arg(what, path, field),
                      {} };
    return found;
}

int noPassphrase(char *, int, int, void *)
{
    return 0;
}

// The client context: TLS 1.2 or later, the engine's certificate checked against `caFile`'s
// CAs only (not the system's), our certificate and key when given.
Result<Context> clientContext(const TlsTunnel::Options &options)
{
    Context context(SSL_CTX_new(TLS_client_method()));
    if (!context)
        return Error{ QStringLiteral("endpoint"), TlsTunnel::tr("TLS cannot be set up here (OpenSSL)."), {} };
    SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);
    SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_mode(context.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    Result<std::vector<X509 *>> authorities
        = certificates(QStringLiteral("tlsCaCert"), options.caFile, TlsTunnel::tr("CA certificate"));
    if (!authorities.ok())
        return authorities.error();
    X509_STORE *store = SSL_CTX_get_cert_store(context.get());
    for (X509 *authority : authorities.value()) {
        X509_STORE_add_cert(store, authority);
        X509_free(authority);
    }
    if (options.certFile.isEmpty())
        return context;
    Result<std::vector<X509 *>> chain
        = certificates(QStringLiteral("tlsCert"), options.certFile, TlsTunnel::tr("client certificate"));
    if (!chain.ok())
        return chain.error();
    SSL_CTX_use_certificate(context.get(), chain.value().front());
    X509_free(chain.value().front());
    for (std::size_t i = 1; i < chain.value().size(); ++i)
        SSL_CTX_add0_chain_cert(context.get(), chain.value()[i]);
    if (options.keyPem.isEmpty())
        return Error{ QStringLiteral("tlsKey"),
                      options.keyUnread.isEmpty()
                          ? TlsTunnel::tr(
                              "The client certificate's key (the secret tlsKey) is not stored. Store its "
                              "PEM text: sandboxctl secret set atom-pack:power-pack:docker tlsKey < key.pem")
                          : TlsTunnel::tr("The client certificate's key (the secret tlsKey) could not be read: %1")
                                .arg(options.keyUnread),
                      {} };
    const QByteArray pem = options.keyPem.toUtf8();
    std::unique_ptr<BIO, BioDeleter> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio.get(), nullptr, noPassphrase, nullptr);
    ERR_clear_error();
    if (!key)
        return Error{ QStringLiteral("tlsKey"),
                      TlsTunnel::tr("The secret tlsKey is not a private key in PEM form without a passphrase."),
                      {} };
    const bool used = SSL_CTX_use_PrivateKey(context.get(), key) == 1 && SSL_CTX_check_private_key(context.get()) == 1;
    EVP_PKEY_free(key);
    ERR_clear_error();
    if (!used)
        return Error{ QStringLiteral("tlsKey"),
                      TlsTunnel::tr("The secret tlsKey is not the key of the client certificate in %1 (tlsCert).")
                          .arg(options.certFile),
                      {} };
    return context;
}

} // namespace

Result<std::unique_ptr<TlsTunnel>> TlsTunnel::open(const TcpEndpoint &endpoint, const Options &options,
                                                   const QString &folder, int timeoutMs)
{
    Context context;
    if (!options.caFile.isEmpty()) {
        Result<Context> made = clientContext(options);
        if (!made.ok())
            return made.error();
        context = std::move(made).value();
    }
    const QString socket = QDir(folder).filePath(
        QStringLiteral("docker-tls-%1.sock").arg(QUuid::createUuid().toString(QUuid::Id128).left(12)));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray path = QFile::encodeName(socket);
    if (path.size() >= qsizetype(sizeof address.sun_path))
        return Error{ folder, tr("The folder %1 has too long a path for a socket.").arg(folder), {} };
    std::memcpy(address.sun_path, path.constData(), std::size_t(path.size()));
    const int listening = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    // The folder is the owner's alone; the socket is too.
    if (listening < 0 || ::bind(listening, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0
        || ::chmod(path.constData(), 0600) != 0 || ::listen(listening, 64) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        if (listening >= 0)
            ::close(listening);
        QFile::remove(socket);
        return Error{ folder, tr("Cannot listen on %1: %2").arg(socket, why), {} };
    }
    std::unique_ptr<TlsTunnel> tunnel(new TlsTunnel());
    tunnel->m_socket = socket;
    tunnel->m_plain = !context;
    TlsRelay::Settings settings{ endpoint, options.caFile, !options.certFile.isEmpty(), timeoutMs };
    tunnel->m_relay = std::make_unique<TlsRelay>(settings, listening, context.release(), *tunnel);
    if (!tunnel->m_relay->start())
        return Error{ QStringLiteral("endpoint"), tr("The TLS connection's thread could not be started."), {} };
    return tunnel;
}

TlsTunnel::~TlsTunnel()
{
    // Its threads report here: they end first.
    m_relay.reset();
    if (!m_socket.isEmpty())
        QFile::remove(m_socket);
}

QString TlsTunnel::explain(const QString &fallback) const
{
    QMutexLocker locker(&m_mutex);
    return m_failure.isEmpty() ? fallback : m_failure;
}

QString TlsTunnel::failedField() const
{
    QMutexLocker locker(&m_mutex);
    return m_failure.isEmpty() ? QStringLiteral("endpoint") : m_failedField;
}

QString TlsTunnel::reachedHow() const
{
    return m_plain ? tr("over plain TCP (loopback)") : tr("over TLS");
}

void TlsTunnel::recordFailure(const QString &field, const QString &message, bool established)
{
    QMutexLocker locker(&m_mutex);
    if (established && !m_failure.isEmpty())
        return;
    m_failedField = field;
    m_failure = message;
}

void TlsTunnel::recordSuccess()
{
    QMutexLocker locker(&m_mutex);
    m_failedField.clear();
    m_failure.clear();
}

} // namespace sandbox::power
