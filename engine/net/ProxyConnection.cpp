#include "ProxyConnection.h"

#include "AddressClass.h"
#include "CertificateAuthority.h"
#include "CredentialInjector.h"
#include "TlsStream.h"
#include "UpstreamProxy.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QTcpSocket>
#include <QUrl>

#include <sys/socket.h>

namespace sandbox {

namespace {

QByteArray socksReply(quint8 code)
{
    // VER REP RSV ATYP=IPv4 0.0.0.0:0
    return QByteArray("\x05", 1) + char(code) + QByteArray("\x00\x01\x00\x00\x00\x00\x00\x00", 8);
}

// Hop-by-hop and proxy-only headers never go upstream.
bool isProxyOnlyHeader(const QByteArray &name)
{
    const QByteArray lower = name.toLower();
    return lower == "proxy-connection" || lower == "proxy-authorization" || lower == "connection"
        || lower == "keep-alive" || lower == "te" || lower == "upgrade" || lower == "trailer";
}

// The proxy's own answer: the reason in the body, and in X-Sandbox-Refused when
// `refusalHeader`; the connection ends after it.
QByteArray refusalResponse(int status, const QString &reason, bool refusalHeader)
{
    static const QMap<int, QByteArray> phrases = {
        { 400, "Bad Request" },     { 403, "Forbidden" },           { 405, "Method Not Allowed" },
        { 408, "Request Timeout" }, { 421, "Misdirected Request" }, { 431, "Request Header Fields Too Large" },
        { 501, "Not Implemented" }, { 502, "Bad Gateway" },         { 504, "Gateway Timeout" },
    };
    QByteArray text = reason.toUtf8();
    text.replace('\r', ' ').replace('\n', ' ');
    const QByteArray body = "sandbox proxy: " + text + "\n";
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + phrases.value(status, "Error") + "\r\n";
    if (refusalHeader)
        response += "X-Sandbox-Refused: " + text + "\r\n";
    response += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + QByteArray::number(body.size())
        + "\r\nConnection: close\r\n\r\n" + body;
    return response;
}

} // namespace

ProxyConnection::ProxyConnection(int clientFd, const DomainRules &rules, ProxyRefusalListener refused,
                                 std::shared_ptr<const ChannelCredentials> credentials,
                                 std::shared_ptr<const UpstreamProxy> upstream, QObject *parent)
    : QObject(parent)
    , m_client(new ClientStream(clientFd, this))
    , m_rules(rules)
    , m_refused(std::move(refused))
    , m_credentials(std::move(credentials))
    , m_via(std::move(upstream))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_state == State::Relaying)
            finish();
        else if (m_via && (m_state == State::Connecting || m_state == State::Tunneling))
            fail(504, 0x06,
                 tr("the upstream proxy %1 did not open the tunnel to %2 within %3 seconds")
                     .arg(m_via->authority(), target())
                     .arg(kHandshakeTimeoutMs / 1000));
        else
            fail(408, 0x06, tr("timed out"));
    });
    m_timer.start(kHandshakeTimeoutMs);
    connect(m_client, &ClientStream::readyRead, this, &ProxyConnection::onClientData);
    connect(m_client, &ClientStream::inputEnded, this, &ProxyConnection::onClientInputEnded);
    connect(m_client, &ClientStream::bytesWritten, this, &ProxyConnection::relayToClient);
    connect(m_client, &ClientStream::closed, this, &ProxyConnection::finish);
    if (!m_client->isOpen())
        finish();
}

ProxyConnection::~ProxyConnection()
{
    m_leafKey.fill('\0');
    if (m_lookupId >= 0)
        QHostInfo::abortHostLookup(m_lookupId);
}

void ProxyConnection::onClientData()
{
    if (m_state == State::Relaying && m_intercept) {
        m_clientTls->receiveEncrypted(m_client->readAll());
        pumpInterception();
        armIdle();
        return;
    }
    if (m_state == State::Relaying) {
        if (m_upstream) {
            const QByteArray bytes = m_client->readAll();
            scanOutgoing(bytes);
            writeUpstream(bytes);
            if (m_upstream->bytesToWrite() > kMaxPendingBytes)
                m_client->setReading(false);
        }
        armIdle();
        return;
    }
    if (m_state == State::Closing)
        return;
    m_buffer += m_client->readAll();
    if (m_state == State::Resolving || m_state == State::Connecting || m_state == State::Tunneling) {
        // What follows the request waits for the target; no more than a slow side's share.
        if (m_buffer.size() > kMaxPendingBytes)
            m_client->setReading(false);
        return;
    }
    if (m_state == State::Greeting && !m_buffer.isEmpty()) {
        if (m_buffer.at(0) == '\x05') {
            m_protocol = Protocol::Socks;
        } else {
            m_protocol = Protocol::Http;
            m_state = State::HttpHead;
        }
    }
    if (m_protocol == Protocol::Socks && m_state == State::Greeting)
        parseSocksGreeting();
    if (m_protocol == Protocol::Socks && m_state == State::SocksRequest)
        parseSocksRequest();
    if (m_protocol == Protocol::Http && m_state == State::HttpHead)
        parseHttpHead();
}

void ProxyConnection::onClientInputEnded()
{
    switch (m_state) {
    case State::Relaying:
        if (m_intercept) {
            // Without close_notify the client's requests may be cut short: nothing more is
            // sent to the target, whose answer still comes back.
            m_upstreamTls->close();
            if (m_upstream)
                writeUpstream(m_upstreamTls->takeEncrypted());
        }
        endUpstreamInput();
        return;
    case State::Resolving:
    case State::Connecting:
    case State::Tunneling:
        // The whole request is in; what follows it is sent once connected, then the
        // target learns that nothing more comes.
        return;
    case State::Closing:
        return;
    case State::Greeting:
    case State::SocksRequest:
    case State::HttpHead:
        // The request can never be completed.
        finish();
        return;
    }
}

void ProxyConnection::relayToClient()
{
    if (m_state == State::Tunneling) {
        readTunnelAnswer();
        return;
    }
    if (m_state != State::Relaying || !m_upstream)
        return;
    if (m_client->bytesToWrite() < kMaxPendingBytes && (m_upstream->bytesAvailable() > 0 || !m_viaPending.isEmpty())) {
        if (m_intercept) {
            m_upstreamTls->receiveEncrypted(readUpstream(kMaxPendingBytes));
            pumpInterception();
        } else {
            m_client->write(readUpstream(kMaxPendingBytes));
        }
        armIdle();
    }
}

void ProxyConnection::endUpstreamInput()
{
    m_upstreamInputEnding = true;
    if (!m_upstream || m_upstream->state() != QAbstractSocket::ConnectedState || m_upstream->bytesToWrite() > 0)
        return; // again once connected, or once what is pending is written
    m_upstreamInputEnding = false;
    // A TLS connection to the upstream proxy cannot be half-closed (close_notify would end
    // reading too): the target's answer still comes, and the connection ends when it closes.
    if (m_viaTls)
        return;
    ::shutdown(int(m_upstream->socketDescriptor()), SHUT_WR);
}

void ProxyConnection::parseSocksGreeting()
{
    if (m_buffer.size() < 2)
        return;
    const int methods = quint8(m_buffer.at(1));
    if (methods == 0) {
        fail(0, 0x01, tr("malformed SOCKS5 greeting"));
        return;
    }
    if (m_buffer.size() < 2 + methods)
        return;
    const QByteArray offered = m_buffer.mid(2, methods);
    m_buffer.remove(0, 2 + methods);
    if (!offered.contains('\x00')) {
        m_client->write(QByteArray("\x05\xff", 2)); // no acceptable method
        m_state = State::Closing;
        m_client->closeAfterWriting();
        return;
    }
    m_client->write(QByteArray("\x05\x00", 2));
    m_state = State::SocksRequest;
}

void ProxyConnection::parseSocksRequest()
{
    if (m_buffer.size() < 5)
        return;
    if (m_buffer.at(0) != '\x05' || m_buffer.at(2) != '\x00') {
        fail(0, 0x01, tr("malformed SOCKS5 request"));
        return;
    }
    const quint8 command = quint8(m_buffer.at(1));
    const quint8 type = quint8(m_buffer.at(3));
    qsizetype need = 0;
    QString host;
    if (type == 0x01) {
        need = 4 + 4 + 2;
    } else if (type == 0x04) {
        need = 4 + 16 + 2;
    } else if (type == 0x03) {
        need = 4 + 1 + quint8(m_buffer.at(4)) + 2;
    } else {
        fail(0, 0x08, tr("unsupported SOCKS5 address type"));
        return;
    }
    if (m_buffer.size() < need)
        return;
    const auto *bytes = reinterpret_cast<const quint8 *>(m_buffer.constData());
    if (type == 0x01) {
        host = QHostAddress(quint32((bytes[4] << 24) | (bytes[5] << 16) | (bytes[6] << 8) | bytes[7])).toString();
    } else if (type == 0x04) {
        Q_IPV6ADDR ip;
        for (int i = 0; i < 16; ++i)
            ip[i] = bytes[4 + i];
        host = QHostAddress(ip).toString();
    } else {
        const int length = bytes[4];
        if (length == 0) {
            fail(0, 0x01, tr("empty SOCKS5 domain name"));
            return;
        }
        host = QString::fromLatin1(m_buffer.mid(5, length));
    }
    const quint16 port = quint16((bytes[need - 2] << 8) | bytes[need - 1]);
    m_buffer.remove(0, need);
    if (command != 0x01) {
        fail(0, 0x07, tr("only SOCKS5 CONNECT is supported"));
        return;
    }
    startTarget(host, port);
}

void ProxyConnection::parseHttpHead()
{
    const qsizetype end = m_buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_buffer.size() > kMaxHeadBytes)
            fail(431, 0, tr("request header larger than %1 bytes").arg(kMaxHeadBytes));
        return;
    }
    if (end > kMaxHeadBytes) {
        fail(431, 0, tr("request header larger than %1 bytes").arg(kMaxHeadBytes));
        return;
    }
    const QByteArray head = m_buffer.left(end);
    m_buffer.remove(0, end + 4);
    QList<QByteArray> lines = head.split('\n');
    for (QByteArray &line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
    }
    const QList<QByteArray> requestLine = lines.takeFirst().split(' ');
    if (requestLine.size() != 3 || !isHttpToken(requestLine[0]) || !requestLine[2].startsWith("HTTP/1.")) {
        fail(400, 0, tr("malformed request line"));
        return;
    }
    const QByteArray method = requestLine[0];
    const QByteArray target = requestLine[1];
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray hostHeader;
    for (const QByteArray &line : lines) {
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isHttpToken(line.left(colon))) {
            fail(400, 0, tr("malformed header line"));
            return;
        }
        const QByteArray name = line.left(colon);
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name.compare("host", Qt::CaseInsensitive) == 0)
            hostHeader = value;
        headers.append({ name, value });
    }
    auto splitAuthority = [](const QByteArray &authority, quint16 defaultPort, QString &host, quint16 &port) {
        const QUrl url(QStringLiteral("http://") + QString::fromLatin1(authority) + QLatin1Char('/'), QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty() || !url.userInfo().isEmpty() || url.path() != QLatin1String("/"))
            return false;
        host = url.host();
        const int p = url.port(defaultPort);
        if (p <= 0 || p > 65535)
            return false;
        port = quint16(p);
        return true;
    };
    QString host;
    quint16 port = 0;
    if (method == "CONNECT") {
        m_httpConnect = true;
        if (!target.contains(':') || !splitAuthority(target, 0, host, port) || port == 0) {
            fail(400, 0, tr("CONNECT needs host:port"));
            return;
        }
        startTarget(host, port);
        return;
    }
    QByteArray path;
    if (target.startsWith("/")) {
        // Origin form (a client talking to the proxy's socket directly): Host decides.
        if (hostHeader.isEmpty() || !splitAuthority(hostHeader, 80, host, port)) {
            fail(400, 0, tr("request without an absolute URI or a valid Host header"));
            return;
        }
        path = target;
    } else {
        const QUrl url(QString::fromLatin1(target), QUrl::StrictMode);
        if (!url.isValid() || url.scheme() != QLatin1String("http") || url.host().isEmpty()
            || !url.userInfo().isEmpty()) {
            fail(400, 0, tr("only http:// absolute URIs can be proxied without CONNECT"));
            return;
        }
        host = url.host();
        const int p = url.port(80);
        if (p <= 0 || p > 65535) {
            fail(400, 0, tr("bad port in the request URI"));
            return;
        }
        port = quint16(p);
        path = url.path(QUrl::FullyEncoded).toLatin1();
        if (path.isEmpty())
            path = "/";
        if (url.hasQuery())
            path += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    }
    // The Host header is always the checked target: a client-supplied one could name
    // another site served from the same address.
    const QString hostValue = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    QByteArray forward = method + ' ' + path + ' ' + requestLine[2] + "\r\n";
    forward += "Host: " + hostValue.toLatin1() + (port == 80 ? QByteArray() : ':' + QByteArray::number(port)) + "\r\n";
    for (const auto &[name, value] : headers) {
        if (!isProxyOnlyHeader(name) && name.compare("host", Qt::CaseInsensitive) != 0)
            forward += name + ": " + value + "\r\n";
    }
    // One request per connection: a kept-alive connection could not be re-checked.
    forward += "Connection: close\r\n\r\n";
    m_forwardHead = forward;
    startTarget(host, port);
}

void ProxyConnection::startTarget(const QString &host, quint16 port)
{
    m_host = DomainRules::normalizeHost(host);
    m_port = port;
    if (m_host.isEmpty() || port == 0) {
        fail(400, 0x01, tr("invalid target '%1'").arg(host.left(100)));
        return;
    }
    m_decision = m_rules.check(m_host, port);
    if (!m_decision.allowed) {
        refuse(m_decision.reason);
        return;
    }
    if (m_credentials) {
        m_intercept = (m_protocol == Protocol::Socks || m_httpConnect) && m_credentials->intercepts(m_host, port);
        if (m_intercept) {
            Result<CertificateAuthority::Leaf> leaf = m_credentials->authority->leafFor(m_host);
            if (!leaf) {
                fail(502, 0x01, leaf.error().message);
                return;
            }
            m_leafCertificate = leaf.value().certificatePem;
            m_leafKey = leaf.value().keyPem;
        } else {
            m_scanSlots = m_credentials->allSlots();
        }
    }
    QHostAddress literal;
    if (literal.setAddress(m_host)) {
        const QString kind = AddressClass::internalKind(literal);
        if (!kind.isEmpty() && !m_decision.exact) {
            refuse(tr("%1 is a %2 address").arg(m_host, kind));
            return;
        }
        if (m_via)
            connectVia();
        else
            connectTo(literal);
        return;
    }
    if (m_via) {
        connectVia();
        return;
    }
    m_state = State::Resolving;
    m_lookupId = QHostInfo::lookupHost(m_host, this, &ProxyConnection::onResolved);
}

void ProxyConnection::onResolved(const QHostInfo &info)
{
    m_lookupId = -1;
    if (m_state != State::Resolving)
        return;
    if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
        fail(502, 0x04, tr("cannot resolve %1").arg(m_host));
        return;
    }
    QStringList refused;
    for (const QHostAddress &address : info.addresses()) {
        const QString kind = AddressClass::internalKind(address);
        if (kind.isEmpty() || m_decision.exact) {
            // The address checked here is the one connected to: no second lookup.
            connectTo(address);
            return;
        }
        refused.append(address.toString() + QStringLiteral(" (") + kind + QLatin1Char(')'));
    }
    refuse(tr("%1 resolves only to internal addresses: %2").arg(m_host, refused.join(QStringLiteral(", "))));
}

void ProxyConnection::connectTo(const QHostAddress &address)
{
    openUpstreamSocket();
    m_upstream->connectToHost(address, m_port);
}

void ProxyConnection::connectVia()
{
    openUpstreamSocket();
    m_upstream->connectToHost(m_via->host, m_via->port);
}

void ProxyConnection::openUpstreamSocket()
{
    m_state = State::Connecting;
    m_upstream = new QTcpSocket(this);
    m_upstream->setReadBufferSize(kMaxPendingBytes);
    // What arrives is relayed at once: small writes (a TLS flight, a request head the proxy
    // rewrote) must not wait for the peer's delayed acknowledgement.
    connect(m_upstream, &QTcpSocket::connected, this,
            [this] { m_upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1); });
    connect(m_upstream, &QTcpSocket::connected, this, &ProxyConnection::onUpstreamConnected);
    connect(m_upstream, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        const quint8 code = error == QAbstractSocket::ConnectionRefusedError ? 0x05 : 0x04;
        if (m_state == State::Connecting && m_via)
            fail(502, code,
                 tr("cannot connect to the upstream proxy %1 (for %2): %3")
                     .arg(m_via->authority(), target(), m_upstream->errorString()));
        else if (m_state == State::Connecting)
            fail(502, code, tr("cannot connect to %1:%2: %3").arg(m_host).arg(m_port).arg(m_upstream->errorString()));
        else if (m_state == State::Tunneling)
            fail(502, 0x01,
                 tr("the upstream proxy %1 ended the connection before it opened the tunnel to %2: %3")
                     .arg(m_via->authority(), target(), m_upstream->errorString()));
    });
    connect(m_upstream, &QTcpSocket::readyRead, this, &ProxyConnection::relayToClient);
    connect(m_upstream, &QTcpSocket::bytesWritten, this, [this] {
        if (m_upstream->bytesToWrite() < kMaxPendingBytes / 2)
            m_client->setReading(true);
        if (m_upstreamInputEnding)
            endUpstreamInput();
    });
    connect(m_upstream, &QTcpSocket::disconnected, this, [this] {
        if (m_state != State::Relaying)
            return;
        if (m_intercept) {
            m_upstreamTls->receiveEncrypted(readUpstream(-1));
            pumpInterception();
            if (m_state != State::Relaying)
                return;
            m_clientTls->close();
            m_client->write(m_clientTls->takeEncrypted());
            m_state = State::Closing;
            m_client->closeAfterWriting();
            return;
        }
        m_client->write(readUpstream(-1));
        m_state = State::Closing;
        m_client->closeAfterWriting();
    });
}

void ProxyConnection::onUpstreamConnected()
{
    if (m_via && m_state == State::Connecting) {
        startTunnel();
        return;
    }
    onTargetReached();
}

void ProxyConnection::startTunnel()
{
    m_state = State::Tunneling;
    if (m_via->tls) {
        QString error;
        m_viaTls = TlsStream::client(m_via->trust.get(), m_via->host, error);
        if (!m_viaTls) {
            fail(502, 0x01, tr("cannot open TLS to the upstream proxy %1: %2").arg(m_via->authority(), error));
            return;
        }
    }
    Result<QByteArray> request = m_via->connectRequest(target());
    if (!request) {
        refuse(request.error().message);
        return;
    }
    QByteArray bytes = std::move(request).value();
    writeUpstream(bytes);
    bytes.fill('\0');
}

void ProxyConnection::readTunnelAnswer()
{
    m_viaAnswer += readUpstream(-1);
    if (m_viaTls && m_viaTls->hasEnded() && !m_viaTls->error().isEmpty()) {
        fail(502, 0x01,
             tr("the TLS connection to the upstream proxy %1 failed (is its authority among the system's or in "
                "network.extraCaCertificates?): %2")
                 .arg(m_via->authority(), m_viaTls->error()));
        return;
    }
    const qsizetype end = m_viaAnswer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_viaAnswer.size() > kMaxHeadBytes)
            fail(502, 0x01,
                 tr("the upstream proxy %1 answered with a header larger than %2 bytes")
                     .arg(m_via->authority())
                     .arg(kMaxHeadBytes));
        return;
    }
    QByteArray statusLine = m_viaAnswer.left(m_viaAnswer.indexOf("\r\n"));
    m_viaPending = m_viaAnswer.mid(end + 4);
    m_viaAnswer.clear();
    const QList<QByteArray> words = statusLine.split(' ');
    const int status = words.size() >= 2 && statusLine.startsWith("HTTP/1.") ? words.at(1).toInt() : 0;
    // The answer is the upstream proxy's, not the target's: only its status line is told,
    // printable and short.
    for (char &c : statusLine) {
        if (c < 0x20 || c > 0x7e)
            c = '?';
    }
    const QString answer = QString::fromLatin1(statusLine.left(120));
    if (status >= 200 && status < 300) {
        onTargetReached();
        if (m_state == State::Relaying && !m_viaPending.isEmpty())
            relayToClient();
        return;
    }
    m_viaPending.clear();
    if (status == 407) {
        refuse(tr("the upstream proxy %1 wants credentials it was not given or did not accept (%2); name them in "
                  "network.upstreamProxy.credential and store \"user:password\" with sandboxctl credential set NAME")
                   .arg(m_via->authority(), answer));
    } else if (status == 403) {
        refuse(tr("the upstream proxy %1 refused the tunnel to %2 (%3)").arg(m_via->authority(), target(), answer));
    } else {
        fail(502, 0x04,
             tr("the upstream proxy %1 could not open a tunnel to %2 (%3)").arg(m_via->authority(), target(), answer));
    }
}

void ProxyConnection::writeUpstream(const QByteArray &bytes)
{
    if (!m_viaTls) {
        if (!bytes.isEmpty())
            m_upstream->write(bytes);
        return;
    }
    if (!bytes.isEmpty())
        m_viaTls->writePlain(bytes);
    if (const QByteArray out = m_viaTls->takeEncrypted(); !out.isEmpty())
        m_upstream->write(out);
}

QByteArray ProxyConnection::readUpstream(qint64 max)
{
    QByteArray plain = std::exchange(m_viaPending, QByteArray());
    const QByteArray raw = max < 0 ? m_upstream->readAll() : m_upstream->read(max);
    if (!m_viaTls)
        return plain + raw;
    m_viaTls->receiveEncrypted(raw);
    // The handshake and key updates answer what arrives.
    if (const QByteArray out = m_viaTls->takeEncrypted();
        !out.isEmpty() && m_upstream->state() == QAbstractSocket::ConnectedState)
        m_upstream->write(out);
    return plain + m_viaTls->takePlain();
}

void ProxyConnection::onTargetReached()
{
    if (m_intercept) {
        startInterception();
        return;
    }
    m_state = State::Relaying;
    if (m_protocol == Protocol::Socks)
        m_client->write(socksReply(0x00));
    else if (m_httpConnect)
        m_client->write("HTTP/1.1 200 Connection established\r\n\r\n");
    else
        writeUpstream(m_forwardHead);
    scanOutgoing(m_forwardHead + m_buffer);
    if (!m_buffer.isEmpty())
        writeUpstream(m_buffer);
    m_buffer.clear();
    m_client->setReading(m_upstream->bytesToWrite() <= kMaxPendingBytes);
    armIdle();
    if (m_client->bytesAvailable() > 0)
        onClientData();
    if (m_client->hasInputEnded())
        endUpstreamInput();
}

void ProxyConnection::refuse(const QString &reason)
{
    // Every refusal follows a target check, so the target is known here.
    if (m_refused && m_state != State::Closing) {
        const QString host = m_host.contains(QLatin1Char(':')) ? QLatin1Char('[') + m_host + QLatin1Char(']') : m_host;
        m_refused(host + QLatin1Char(':') + QString::number(m_port), reason);
    }
    fail(403, 0x02, reason);
}

void ProxyConnection::fail(int httpStatus, quint8 socksCode, const QString &reason)
{
    if (m_state == State::Closing)
        return;
    m_state = State::Closing;
    if (m_protocol == Protocol::Socks && socksCode != 0) {
        m_client->write(socksReply(socksCode));
    } else if (m_protocol == Protocol::Http && httpStatus != 0) {
        m_client->write(refusalResponse(httpStatus, reason, httpStatus == 403));
    }
    if (m_upstream)
        m_upstream->abort();
    m_client->closeAfterWriting();
}

void ProxyConnection::finish()
{
    if (m_state == State::Relaying || m_state != State::Closing)
        m_state = State::Closing;
    m_timer.stop();
    if (m_upstream)
        m_upstream->abort();
    m_client->abort();
    deleteLater();
}

void ProxyConnection::armIdle()
{
    m_timer.start(kIdleTimeoutMs);
}

QString ProxyConnection::target() const
{
    const QString host = m_host.contains(QLatin1Char(':')) ? QLatin1Char('[') + m_host + QLatin1Char(']') : m_host;
    return host + QLatin1Char(':') + QString::number(m_port);
}

void ProxyConnection::startInterception()
{
    m_state = State::Relaying;
    if (m_protocol == Protocol::Socks)
        m_client->write(socksReply(0x00));
    else
        m_client->write("HTTP/1.1 200 Connection established\r\n\r\n");
    QString error;
    m_clientTls = TlsStream::server(m_leafCertificate, m_leafKey, error);
    m_leafKey.fill('\0');
    m_leafKey.clear();
    if (m_clientTls)
        m_upstreamTls = TlsStream::client(m_credentials->upstreamTrust.get(), m_host, error);
    if (!m_clientTls || !m_upstreamTls) {
        reportCredential(QString(), tr("cannot terminate TLS toward %1: %2").arg(target(), error));
        finish();
        return;
    }
    m_rewriter = std::make_unique<HttpRequestRewriter>(
        m_host, m_port, m_credentials->slotsFor(m_host, m_port),
        [credentials = m_credentials](const QString &name) { return credentials->value(name); });
    if (!m_buffer.isEmpty())
        m_clientTls->receiveEncrypted(std::exchange(m_buffer, QByteArray()));
    m_client->setReading(true);
    armIdle();
    pumpInterception();
    if (m_state == State::Relaying && m_client->bytesAvailable() > 0)
        onClientData();
    if (m_state == State::Relaying && m_client->hasInputEnded())
        onClientInputEnded();
}

void ProxyConnection::pumpInterception()
{
    if (m_state != State::Relaying || m_answered)
        return;
    if (m_clientTls->isEstablished() && !m_serverNameChecked) {
        m_serverNameChecked = true;
        const QString asked = m_clientTls->serverName();
        if (!asked.isEmpty() && DomainRules::normalizeHost(asked) != m_host) {
            const QString reason
                = tr("the TLS server name %1 is not %2, the host this connection was opened for (domain fronting)")
                      .arg(asked.left(200), m_host);
            reportCredential(QString(), reason);
            answerInside(421, reason);
            return;
        }
    }
    const QByteArray plain = m_clientTls->takePlain();
    if (!plain.isEmpty()) {
        if (!m_upstreamTls->error().isEmpty() && !m_responded) {
            answerInside(502, tr("cannot reach %1 over TLS: %2").arg(target(), m_upstreamTls->error()));
            return;
        }
        const QByteArray out = m_rewriter->feed(plain);
        for (const HttpRequestRewriter::Report &report : m_rewriter->takeReports())
            reportCredential(report.credential, report.message);
        if (!out.isEmpty())
            m_upstreamTls->writePlain(out);
        if (m_rewriter->hasFailed()) {
            if (m_rewriter->failureStatus() == 421)
                reportCredential(QString(), m_rewriter->failureReason());
            answerInside(m_rewriter->failureStatus(), m_rewriter->failureReason());
            return;
        }
    }
    const QByteArray back = m_upstreamTls->takePlain();
    if (!back.isEmpty()) {
        // A host that sends a value back (an echo of the request's headers, a TRACE-like
        // endpoint, an error page quoting them) would hand it to the command.
        if (const QString echoed = echoedCredential(back); !echoed.isEmpty()) {
            reportCredential(echoed,
                             tr("%1 sent the value of credential \"%2\" back in its answer; the answer was "
                                "withheld and the connection ended")
                                 .arg(target(), echoed));
            finish();
            return;
        }
        m_clientTls->writePlain(back);
        m_responded = true;
    }
    if (m_upstream && m_upstream->state() == QAbstractSocket::ConnectedState) {
        const QByteArray up = m_upstreamTls->takeEncrypted();
        if (!up.isEmpty())
            writeUpstream(up);
    }
    const QByteArray down = m_clientTls->takeEncrypted();
    if (!down.isEmpty())
        m_client->write(down);
    if (m_clientTls->hasEnded() && !m_clientTls->error().isEmpty()) {
        reportCredential(QString(),
                         tr("the command's TLS connection to %1 failed (does it trust the engine's certificate "
                            "authority? the sandbox's certificate bundle includes it): %2")
                             .arg(target(), m_clientTls->error()));
        finish();
        return;
    }
    // A target that fails before it answered is a 502 for the client; one that fails after
    // it answered only ends the connection (an answer of the proxy's own would follow the
    // target's).
    if (m_upstreamTls->hasEnded() && !m_upstreamTls->error().isEmpty() && !m_responded) {
        if (m_clientTls->isEstablished())
            answerInside(502, tr("cannot reach %1 over TLS: %2").arg(target(), m_upstreamTls->error()));
        return;
    }
    if (m_upstreamTls->hasEnded()) {
        // The target closed its side: so does the client's.
        m_clientTls->close();
        m_client->write(m_clientTls->takeEncrypted());
        m_state = State::Closing;
        m_client->closeAfterWriting();
        return;
    }
    if (m_upstream && m_upstream->bytesToWrite() > kMaxPendingBytes)
        m_client->setReading(false);
}

QString ProxyConnection::echoedCredential(const QByteArray &answer)
{
    const QByteArray data = m_answerTail + answer;
    qsizetype longest = 0;
    for (const HttpRequestRewriter::Sent &sent : m_rewriter->sent()) {
        if (data.contains(sent.bytes))
            return sent.credential;
        longest = qMax(longest, sent.bytes.size());
    }
    m_answerTail = longest > 1 ? data.right(longest - 1) : QByteArray();
    return QString();
}

void ProxyConnection::answerInside(int status, const QString &reason)
{
    m_answered = true;
    if (m_clientTls->isEstablished()) {
        m_clientTls->writePlain(refusalResponse(status, reason, true));
        m_clientTls->close();
        m_client->write(m_clientTls->takeEncrypted());
    }
    m_state = State::Closing;
    m_timer.stop();
    if (m_upstream)
        m_upstream->abort();
    m_client->closeAfterWriting();
}

void ProxyConnection::scanOutgoing(const QByteArray &bytes)
{
    if (m_scanSlots.isEmpty() || bytes.isEmpty())
        return;
    const QByteArray data = m_scanTail + bytes;
    qsizetype longest = 0;
    for (const CredentialSlot &slot : std::as_const(m_scanSlots)) {
        longest = qMax(longest, slot.placeholder.size());
        if (m_scanReported.contains(slot.name) || !data.contains(slot.placeholder))
            continue;
        m_scanReported.insert(slot.name);
        reportCredential(slot.name,
                         tr("the placeholder of credential \"%1\" was sent to %2 on a connection the proxy does not "
                            "terminate (not one of its hosts, an excluded host, or plain HTTP); it was not replaced")
                             .arg(slot.name, target()));
    }
    m_scanTail = data.right(longest - 1);
}

void ProxyConnection::reportCredential(const QString &credential, const QString &message)
{
    if (m_credentials && m_credentials->reported)
        m_credentials->reported(target(), credential, message);
}

} // namespace sandbox
