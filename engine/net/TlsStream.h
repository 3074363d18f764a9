#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <memory>

struct ssl_ctx_st;

namespace sandbox {

// One side of a TLS connection driven through memory: the caller moves the encrypted
// bytes between the network and this object, and reads and writes plain bytes. The
// filtering proxy holds two of them for a connection it terminates: a server toward the
// sandboxed client (a leaf of the engine's certificate authority) and a client toward the
// real host (verified against the trust the caller gives). HTTP/1.1 only (ALPN).
class TlsStream final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::TlsStream)

public:
    ~TlsStream();
    TlsStream(const TlsStream &) = delete;
    TlsStream &operator=(const TlsStream &) = delete;

    // The server side, presenting `certificatePem` with `keyPem`. Empty on bad input,
    // with `error` saying why.
    static std::unique_ptr<TlsStream> server(const QByteArray &certificatePem, const QByteArray &keyPem,
                                             QString &error);
    // The client side toward `host` (a name or an IP literal): SNI and the certificate's
    // name checked against it, the chain against `trust` (an SSL_CTX made by
    // clientContext(), shared and kept alive by the caller).
    static std::unique_ptr<TlsStream> client(ssl_ctx_st *trust, const QString &host, QString &error);
    // A client context trusting the system's certificate authorities plus the PEM files
    // `extraCertificateFiles`; null on failure with `error` naming the file.
    static std::shared_ptr<ssl_ctx_st> clientContext(const QStringList &extraCertificateFiles, QString &error);

    // Bytes that arrived from the network.
    void receiveEncrypted(const QByteArray &bytes);
    // Bytes to send to the network (and forgets them).
    QByteArray takeEncrypted();
    // Plain bytes that arrived (and forgets them).
    QByteArray takePlain();
    // Queues plain bytes; they are sent once the handshake is done.
    void writePlain(const QByteArray &bytes);
    // Sends close_notify.
    void close();

    bool isEstablished() const { return m_established; }
    // The peer said close_notify, or the connection failed.
    bool hasEnded() const { return m_ended; }
    // Why the connection failed (handshake, verification, protocol); empty when it did not.
    QString error() const { return m_error; }
    // The name the client asked for (server side; empty when it sent none).
    QString serverName() const { return m_serverName; }

private:
    struct Handles;
    explicit TlsStream(std::unique_ptr<Handles> handles);
    static std::unique_ptr<Handles> attach(std::shared_ptr<ssl_ctx_st> context);
    void pump();
    void fail(const QString &message);

    std::unique_ptr<Handles> m_handles;
    QByteArray m_plainIn;
    QByteArray m_plainOut;
    QString m_error;
    QString m_serverName;
    bool m_established = false;
    bool m_ended = false;
};

} // namespace sandbox
