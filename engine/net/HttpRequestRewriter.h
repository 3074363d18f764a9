#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>

namespace sandbox {

// An HTTP token (RFC 9110): a method or a header name.
bool isHttpToken(const QByteArray &text);

// One credential as one terminated connection sees it.
struct CredentialSlot
{
    QString name;
    QByteArray placeholder;
    // The connection's host is one of the credential's: its placeholder is replaced there.
    bool belongs = false;
    // Lower-case header names where it may be replaced; empty: every header.
    QList<QByteArray> headers;
};

// The client-to-server half of an HTTP/1.1 connection whose TLS the proxy terminated:
// reads requests one after another (keep-alive; Content-Length and chunked bodies are
// passed through as they are), checks each request's Host (and absolute-form target)
// against the host the connection was opened for, and replaces a credential's placeholder
// with its value in the allowed headers of requests to that credential's hosts, including
// inside "Authorization: Basic". A placeholder anywhere else (another host, the request
// line, a body) is left as it is and reported. Framing it cannot read with certainty
// (both Content-Length and Transfer-Encoding, a folded header, a bad chunk) ends the
// connection: a request the proxy reads one way and the server another could smuggle a
// second request past the Host check. So do a protocol upgrade (nothing after it could be
// checked) and TRACE (it sends the request back). The Host header is compared byte for
// byte. Accept-Encoding becomes "identity", so that the proxy can recognize a value in an
// answer (ProxyConnection).
class HttpRequestRewriter final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::HttpRequestRewriter)

public:
    static constexpr qsizetype kMaxHeadBytes = 32 * 1024;
    static constexpr qsizetype kMaxChunkLineBytes = 1024;

    // The value of a credential, read when a request needs it (nothing: none is stored).
    using ValueLookup = std::function<std::optional<QByteArray>(const QString &name)>;

    struct Report
    {
        QString credential;
        QString message;
    };

    // `host` is normalized (DomainRules::normalizeHost); `port` the connection's port.
    HttpRequestRewriter(QString host, quint16 port, QList<CredentialSlot> credentials, ValueLookup lookup);

    // The bytes to send to the server for `plain` received from the client. After a
    // failure, nothing more is passed.
    QByteArray feed(const QByteArray &plain);

    bool hasFailed() const { return m_status != 0; }
    // The HTTP status to answer the client with, and why.
    int failureStatus() const { return m_status; }
    QString failureReason() const { return m_reason; }
    // What was noticed since the last call: placeholders that went elsewhere, credentials
    // without a value. Each credential is reported once per connection and kind.
    QList<Report> takeReports();
    // Requests whose head was forwarded.
    int requestCount() const { return m_requests; }
    // What was put into requests so far (each value, and each Basic token made with one),
    // so that an answer carrying it back can be recognized.
    struct Sent
    {
        QString credential;
        QByteArray bytes;
    };
    const QList<Sent> &sent() const { return m_sent; }

private:
    enum class State { Head, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Failed };

    bool parseHead(const QByteArray &head, QByteArray &out);
    // Passes what of a body (or chunk) of m_remaining bytes has arrived; true once it is whole.
    bool passBody(QByteArray &out);
    QByteArray substitute(const QByteArray &name, const QByteArray &value);
    bool namesThisHost(const QByteArray &authority) const;
    void remember(const QString &name, const QByteArray &sent);
    void scan(const QByteArray &bytes, const QString &where);
    void report(const CredentialSlot &slot, const QString &message, const QString &kind);
    void fail(int status, const QString &reason);

    QString m_host;
    quint16 m_port;
    QList<CredentialSlot> m_slots;
    ValueLookup m_lookup;
    State m_state = State::Head;
    QByteArray m_buffer;
    qint64 m_remaining = 0;
    int m_status = 0;
    QString m_reason;
    QList<Report> m_reports;
    QSet<QString> m_reported;
    int m_requests = 0;
    QList<Sent> m_sent;
};

} // namespace sandbox
