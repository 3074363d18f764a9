#include "TlsStream.h"

#include <QFile>
#include <QHostAddress>
#include <QStringList>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace sandbox {

namespace {

// Every queued OpenSSL error as one line (and the queue emptied).
QString takeOpenSslErrors()
{
    QStringList lines;
    while (const unsigned long code = ERR_get_error()) {
        char text[256];
        ERR_error_string_n(code, text, sizeof text);
        lines.append(QString::fromLatin1(text));
    }
    return lines.join(QStringLiteral("; "));
}

// ALPN: HTTP/1.1 or nothing, so that no client switches to a protocol the proxy does not read.
int selectHttp11(SSL *, const unsigned char **out, unsigned char *outLength, const unsigned char *offered,
                 unsigned int offeredLength, void *)
{
    static const unsigned char http11[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1' };
    unsigned char *selected = nullptr;
    if (SSL_select_next_proto(&selected, outLength, http11, sizeof http11, offered, offeredLength)
        != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

} // namespace

struct TlsStream::Handles
{
    std::shared_ptr<SSL_CTX> context;
    SSL *ssl = nullptr;
    BIO *network = nullptr; // our end of the pair: encrypted bytes in and out

    ~Handles()
    {
        if (ssl)
            SSL_free(ssl); // frees the internal end of the pair
        if (network)
            BIO_free(network);
    }
};

TlsStream::TlsStream(std::unique_ptr<Handles> handles)
    : m_handles(std::move(handles))
{ }

TlsStream::~TlsStream() = default;

std::unique_ptr<TlsStream::Handles> TlsStream::attach(std::shared_ptr<SSL_CTX> context)
{
    auto handles = std::make_unique<Handles>();
    handles->context = std::move(context);
    handles->ssl = SSL_new(handles->context.get());
    if (!handles->ssl)
        return nullptr;
    BIO *internal = nullptr;
    if (BIO_new_bio_pair(&internal, 0, &handles->network, 0) != 1)
        return nullptr;
    SSL_set_bio(handles->ssl, internal, internal);
    SSL_set_mode(handles->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return handles;
}

std::unique_ptr<TlsStream> TlsStream::server(const QByteArray &certificatePem, const QByteArray &keyPem, QString &error)
{
    std::shared_ptr<SSL_CTX> context(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
    if (!context) {
        error = tr("cannot make a TLS context: %1").arg(takeOpenSslErrors());
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);
    SSL_CTX_set_alpn_select_cb(context.get(), selectHttp11, nullptr);
    BIO *certificateBio = BIO_new_mem_buf(certificatePem.constData(), int(certificatePem.size()));
    X509 *certificate = certificateBio ? PEM_read_bio_X509(certificateBio, nullptr, nullptr, nullptr) : nullptr;
    BIO_free(certificateBio);
    BIO *keyBio = BIO_new_mem_buf(keyPem.constData(), int(keyPem.size()));
    EVP_PKEY *key = keyBio ? PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr) : nullptr;
    BIO_free(keyBio);
    const bool loaded = certificate && key && SSL_CTX_use_certificate(context.get(), certificate) == 1
        && SSL_CTX_use_PrivateKey(context.get(), key) == 1;
    X509_free(certificate);
    EVP_PKEY_free(key);
    if (!loaded) {
        error = tr("cannot load the host's certificate: %1").arg(takeOpenSslErrors());
        return nullptr;
    }
    std::unique_ptr<Handles> handles = attach(std::move(context));
    if (!handles) {
        error = tr("cannot start TLS: %1").arg(takeOpenSslErrors());
        return nullptr;
    }
    SSL_set_accept_state(handles->ssl);
    return std::unique_ptr<TlsStream>(new TlsStream(std::move(handles)));
}

std::shared_ptr<ssl_ctx_st> TlsStream::clientContext(const QStringList &extraCertificateFiles, QString &error)
{
    std::shared_ptr<SSL_CTX> context(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
    if (!context) {
        error = tr("cannot make a TLS context: %1").arg(takeOpenSslErrors());
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION);
    SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
    if (SSL_CTX_set_default_verify_paths(context.get()) != 1) {
        error = tr("cannot load the system's certificate authorities: %1").arg(takeOpenSslErrors());
        return nullptr;
    }
    static const unsigned char http11[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1' };
    SSL_CTX_set_alpn_protos(context.get(), http11, sizeof http11);
    for (const QString &file : extraCertificateFiles) {
        if (SSL_CTX_load_verify_locations(context.get(), QFile::encodeName(file).constData(), nullptr) != 1) {
            error = tr("cannot load the certificate authorities in %1: %2").arg(file, takeOpenSslErrors());
            return nullptr;
        }
    }
    return context;
}

std::unique_ptr<TlsStream> TlsStream::client(ssl_ctx_st *trust, const QString &host, QString &error)
{
    if (!trust || SSL_CTX_up_ref(trust) != 1) {
        error = tr("no TLS context");
        return nullptr;
    }
    std::unique_ptr<Handles> handles = attach(std::shared_ptr<SSL_CTX>(trust, SSL_CTX_free));
    if (!handles) {
        error = tr("cannot start TLS: %1").arg(takeOpenSslErrors());
        return nullptr;
    }
    const QByteArray name = host.toLatin1();
    bool named = false;
    if (QHostAddress(host).isNull()) {
        named = SSL_set_tlsext_host_name(handles->ssl, name.constData()) == 1
            && SSL_set1_host(handles->ssl, name.constData()) == 1;
    } else {
        named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(handles->ssl), name.constData()) == 1;
    }
    if (!named) {
        error = tr("cannot check the certificate of %1: %2").arg(host, takeOpenSslErrors());
        return nullptr;
    }
    SSL_set_connect_state(handles->ssl);
    auto stream = std::unique_ptr<TlsStream>(new TlsStream(std::move(handles)));
    stream->pump(); // the ClientHello
    return stream;
}

void TlsStream::receiveEncrypted(const QByteArray &bytes)
{
    qsizetype offset = 0;
    while (offset < bytes.size() && !m_ended) {
        const int written = BIO_write(m_handles->network, bytes.constData() + offset, int(bytes.size() - offset));
        if (written > 0)
            offset += written;
        pump(); // makes room in the pair by consuming what arrived
        if (written <= 0 && BIO_ctrl_get_write_guarantee(m_handles->network) == 0 && !m_ended) {
            fail(tr("TLS input not consumed"));
            return;
        }
    }
}

QByteArray TlsStream::takeEncrypted()
{
    QByteArray out;
    char chunk[16 * 1024];
    for (;;) {
        const int read = BIO_read(m_handles->network, chunk, sizeof chunk);
        if (read > 0) {
            out.append(chunk, read);
            continue;
        }
        // Room was made: what waited for it (a handshake flight, queued plain bytes) goes on.
        const qsizetype before = out.size();
        if (m_ended || (m_established && m_plainOut.isEmpty()))
            break;
        pump();
        if (BIO_ctrl_pending(m_handles->network) == 0 && out.size() == before)
            break;
    }
    return out;
}

QByteArray TlsStream::takePlain()
{
    return std::exchange(m_plainIn, QByteArray());
}

void TlsStream::writePlain(const QByteArray &bytes)
{
    m_plainOut += bytes;
    pump();
}

void TlsStream::close()
{
    if (m_established && !m_ended)
        SSL_shutdown(m_handles->ssl);
    m_ended = true;
}

void TlsStream::fail(const QString &message)
{
    if (m_error.isEmpty())
        m_error = message;
    m_ended = true;
}

void TlsStream::pump()
{
    SSL *ssl = m_handles->ssl;
    if (m_ended)
        return;
    if (!m_established) {
        const int done = SSL_do_handshake(ssl);
        if (done != 1) {
            const int reason = SSL_get_error(ssl, done);
            if (reason == SSL_ERROR_WANT_READ || reason == SSL_ERROR_WANT_WRITE)
                return;
            const long verify = SSL_get_verify_result(ssl);
            if (verify != X509_V_OK)
                fail(tr("the certificate is not trusted: %1")
                         .arg(QString::fromLatin1(X509_verify_cert_error_string(verify))));
            else
                fail(tr("TLS handshake failed: %1").arg(takeOpenSslErrors()));
            return;
        }
        m_established = true;
        if (const char *name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name))
            m_serverName = QString::fromLatin1(name);
    }
    char chunk[16 * 1024];
    for (;;) {
        const int read = SSL_read(ssl, chunk, sizeof chunk);
        if (read > 0) {
            m_plainIn.append(chunk, read);
            continue;
        }
        const int reason = SSL_get_error(ssl, read);
        if (reason == SSL_ERROR_ZERO_RETURN) {
            m_ended = true;
            return;
        }
        if (reason != SSL_ERROR_WANT_READ && reason != SSL_ERROR_WANT_WRITE) {
            fail(tr("TLS failed: %1").arg(takeOpenSslErrors()));
            return;
        }
        break;
    }
    while (!m_plainOut.isEmpty()) {
        const int written = SSL_write(ssl, m_plainOut.constData(), int(qMin<qsizetype>(m_plainOut.size(), 1 << 20)));
        if (written <= 0) {
            const int reason = SSL_get_error(ssl, written);
            if (reason != SSL_ERROR_WANT_READ && reason != SSL_ERROR_WANT_WRITE)
                fail(tr("TLS failed: %1").arg(takeOpenSslErrors()));
            return;
        }
        m_plainOut.remove(0, written);
    }
}

} // namespace sandbox
