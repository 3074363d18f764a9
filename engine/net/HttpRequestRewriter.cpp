#include "HttpRequestRewriter.h"

#include <cctype>

namespace sandbox {

namespace {

bool isDigits(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 18)
        return false;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

// A value may go into a header only when it cannot end the header or the head.
bool isHeaderSafe(const QByteArray &value)
{
    for (char c : value) {
        if (c == '\r' || c == '\n' || c == '\0')
            return false;
    }
    return true;
}

} // namespace

bool isHttpToken(const QByteArray &text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        if (c <= 32 || c >= 127 || QByteArray("()<>@,;:\\\"/[]?={}").contains(c))
            return false;
    }
    return true;
}

HttpRequestRewriter::HttpRequestRewriter(QString host, quint16 port, QList<CredentialSlot> credentials,
                                         ValueLookup lookup)
    : m_host(std::move(host))
    , m_port(port)
    , m_slots(std::move(credentials))
    , m_lookup(std::move(lookup))
{ }

QByteArray HttpRequestRewriter::feed(const QByteArray &plain)
{
    QByteArray out;
    if (m_state == State::Failed)
        return out;
    m_buffer += plain;
    for (;;) {
        switch (m_state) {
        case State::Head: {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0) {
                if (m_buffer.size() > kMaxHeadBytes)
                    fail(431, tr("request header larger than %1 bytes").arg(kMaxHeadBytes));
                return out;
            }
            if (end > kMaxHeadBytes) {
                fail(431, tr("request header larger than %1 bytes").arg(kMaxHeadBytes));
                return out;
            }
            const QByteArray head = m_buffer.left(end);
            m_buffer.remove(0, end + 4);
            QByteArray rewritten;
            if (!parseHead(head, rewritten))
                return out;
            out += rewritten;
            ++m_requests;
            break;
        }
        case State::Body:
            if (!passBody(out))
                return out;
            m_state = State::Head;
            break;
        case State::ChunkSize:
        case State::Trailers: {
            const qsizetype end = m_buffer.indexOf("\r\n");
            if (end < 0) {
                if (m_buffer.size() > kMaxChunkLineBytes)
                    fail(400, tr("chunk line longer than %1 bytes").arg(kMaxChunkLineBytes));
                return out;
            }
            if (end > kMaxChunkLineBytes) {
                fail(400, tr("chunk line longer than %1 bytes").arg(kMaxChunkLineBytes));
                return out;
            }
            const QByteArray line = m_buffer.left(end);
            if (m_state == State::Trailers) {
                scan(line, tr("a trailer"));
                out += m_buffer.left(end + 2);
                m_buffer.remove(0, end + 2);
                if (line.isEmpty())
                    m_state = State::Head;
                break;
            }
            const QByteArray size = line.left(line.indexOf(';') < 0 ? line.size() : line.indexOf(';')).trimmed();
            bool ok = !size.isEmpty() && size.size() <= 15;
            for (char c : size)
                ok = ok && std::isxdigit(static_cast<unsigned char>(c));
            if (!ok || line.contains('\n') || line.contains('\r')) {
                fail(400, tr("malformed chunk size"));
                return out;
            }
            m_remaining = size.toLongLong(nullptr, 16);
            out += m_buffer.left(end + 2);
            m_buffer.remove(0, end + 2);
            m_state = m_remaining == 0 ? State::Trailers : State::ChunkData;
            break;
        }
        case State::ChunkData:
            if (!passBody(out))
                return out;
            m_state = State::ChunkDataEnd;
            break;
        case State::ChunkDataEnd:
            if (m_buffer.size() < 2)
                return out;
            if (!m_buffer.startsWith("\r\n")) {
                fail(400, tr("chunk data not followed by a line end"));
                return out;
            }
            out += "\r\n";
            m_buffer.remove(0, 2);
            m_state = State::ChunkSize;
            break;
        case State::Failed:
            return out;
        }
    }
}

bool HttpRequestRewriter::passBody(QByteArray &out)
{
    const qsizetype take = qsizetype(qMin<qint64>(m_remaining, m_buffer.size()));
    const QByteArray part = m_buffer.left(take);
    scan(part, tr("a request body"));
    out += part;
    m_buffer.remove(0, take);
    m_remaining -= take;
    return m_remaining == 0;
}

bool HttpRequestRewriter::parseHead(const QByteArray &head, QByteArray &out)
{
    QList<QByteArray> lines = head.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        // Every line but the last ended with "\r\n"; the last had its "\r\n" cut off.
        if (i + 1 < lines.size()) {
            if (!lines[i].endsWith('\r')) {
                fail(400, tr("a line of the request head ends without a carriage return"));
                return false;
            }
            lines[i].chop(1);
        }
        if (lines[i].contains('\r') || lines[i].contains('\0')) {
            fail(400, tr("a control character in the request head"));
            return false;
        }
    }
    const QByteArray requestLine = lines.takeFirst();
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !isHttpToken(parts[0]) || parts[1].isEmpty()
        || (parts[2] != "HTTP/1.1" && parts[2] != "HTTP/1.0")) {
        fail(400, tr("malformed request line"));
        return false;
    }
    if (parts[0] == "CONNECT") {
        fail(405, tr("CONNECT inside a tunnel is not supported"));
        return false;
    }
    scan(requestLine, tr("the request line"));
    // TRACE sends the request back, headers and all.
    if (parts[0] == "TRACE" || parts[0] == "TRACK") {
        fail(405, tr("TRACE is not passed on a connection that carries credentials"));
        return false;
    }
    // An absolute-form target names the host too: it must be the connection's.
    if (!parts[1].startsWith('/') && parts[1] != "*") {
        const QByteArray target = parts[1];
        const bool https = target.left(8).toLower() == "https://";
        const qsizetype slash = target.indexOf('/', 8);
        const QByteArray authority = https ? target.mid(8, slash < 0 ? -1 : slash - 8) : QByteArray();
        if (!https || !namesThisHost(authority)) {
            fail(421,
                 tr("the request names %1, not %2, the host this connection was opened for (domain fronting)")
                     .arg(QString::fromLatin1(target.left(200)), m_host));
            return false;
        }
    }
    qsizetype hostHeaders = 0;
    QByteArray hostValue;
    QByteArray contentLength;
    bool chunked = false;
    bool transferEncoding = false;
    QList<QPair<QByteArray, QByteArray>> headers;
    for (const QByteArray &line : std::as_const(lines)) {
        if (line.startsWith(' ') || line.startsWith('\t')) {
            fail(400, tr("folded header lines are not accepted"));
            return false;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isHttpToken(line.left(colon))) {
            fail(400, tr("malformed header line"));
            return false;
        }
        const QByteArray name = line.left(colon);
        const QByteArray lower = name.toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (lower == "host") {
            ++hostHeaders;
            hostValue = value;
        } else if (lower == "content-length") {
            if (!isDigits(value) || (!contentLength.isEmpty() && contentLength != value)) {
                fail(400, tr("bad Content-Length"));
                return false;
            }
            contentLength = value;
        } else if (lower == "transfer-encoding") {
            transferEncoding = true;
            const QByteArray last = value.split(',').last().trimmed().toLower();
            chunked = last == "chunked";
        } else if (lower == "upgrade") {
            // After a switch the proxy could no longer check what goes to the host.
            fail(501, tr("protocol upgrades are not passed on a connection that carries credentials"));
            return false;
        }
        headers.append({ name, value });
    }
    if (hostHeaders != 1) {
        fail(400, tr("a request needs exactly one Host header"));
        return false;
    }
    if (!namesThisHost(hostValue)) {
        fail(421,
             tr("the Host header names %1, not %2, the host this connection was opened for (domain fronting)")
                 .arg(QString::fromLatin1(hostValue.left(200)), m_host));
        return false;
    }
    if (transferEncoding && !contentLength.isEmpty()) {
        fail(400, tr("a request with both Content-Length and Transfer-Encoding"));
        return false;
    }
    if (transferEncoding && !chunked) {
        fail(501, tr("a transfer coding other than chunked"));
        return false;
    }
    out = requestLine + "\r\n";
    for (const auto &[name, value] : std::as_const(headers)) {
        // Answers stay uncompressed, so that a value the host sends back is recognized.
        if (name.compare("accept-encoding", Qt::CaseInsensitive) == 0)
            out += name + ": identity\r\n";
        else
            out += name + ": " + substitute(name, value) + "\r\n";
    }
    out += "\r\n";
    if (chunked) {
        m_state = State::ChunkSize;
    } else if (!contentLength.isEmpty() && contentLength.toLongLong() > 0) {
        m_remaining = contentLength.toLongLong();
        m_state = State::Body;
    } else {
        m_state = State::Head;
    }
    return true;
}

QByteArray HttpRequestRewriter::substitute(const QByteArray &name, const QByteArray &value)
{
    const QByteArray lower = name.toLower();
    const QString where = tr("the header %1").arg(QString::fromLatin1(name.left(100)));
    QByteArray result = value;
    // "Basic base64(user:secret)", as git over HTTPS sends a token.
    QByteArray basic;
    const bool isBasic = value.size() > 6 && value.left(6).toLower() == "basic ";
    if (isBasic) {
        const auto decoded
            = QByteArray::fromBase64Encoding(value.mid(6).trimmed(), QByteArray::AbortOnBase64DecodingErrors);
        if (decoded)
            basic = decoded.decoded;
    }
    bool basicChanged = false;
    QStringList basicNames;
    for (const CredentialSlot &slot : std::as_const(m_slots)) {
        const bool inValue = result.contains(slot.placeholder);
        const bool inBasic = !basic.isEmpty() && basic.contains(slot.placeholder);
        if (!inValue && !inBasic)
            continue;
        if (!slot.belongs) {
            report(slot,
                   tr("the placeholder of credential \"%1\" was sent to %2, which is not one of its hosts, in %3; "
                      "it was not replaced")
                       .arg(slot.name, m_host, where),
                   QStringLiteral("elsewhere"));
            continue;
        }
        if (!slot.headers.isEmpty() && !slot.headers.contains(lower)) {
            report(slot,
                   tr("the placeholder of credential \"%1\" was sent to %2 in %3, where the policy does not let it "
                      "be replaced; it was not replaced")
                       .arg(slot.name, m_host, where),
                   QStringLiteral("header"));
            continue;
        }
        const std::optional<QByteArray> secret = m_lookup ? m_lookup(slot.name) : std::nullopt;
        if (!secret || secret->isEmpty()) {
            report(slot,
                   tr("credential \"%1\" has no stored value; its placeholder went to %2 unchanged")
                       .arg(slot.name, m_host),
                   QStringLiteral("missing"));
            continue;
        }
        if (!isHeaderSafe(*secret)) {
            report(slot,
                   tr("the value of credential \"%1\" contains a line break or NUL and cannot go into a header; "
                      "it was not replaced")
                       .arg(slot.name),
                   QStringLiteral("unsafe"));
            continue;
        }
        if (inValue) {
            result.replace(slot.placeholder, *secret);
            remember(slot.name, *secret);
        }
        if (inBasic) {
            basic.replace(slot.placeholder, *secret);
            basicChanged = true;
            basicNames.append(slot.name);
            remember(slot.name, *secret);
        }
    }
    if (isBasic && basicChanged && !value.contains(basic)) {
        result = value.left(6) + basic.toBase64();
        for (const QString &credential : std::as_const(basicNames))
            remember(credential, basic.toBase64());
    }
    return result;
}

bool HttpRequestRewriter::namesThisHost(const QByteArray &authority) const
{
    // Byte for byte: a name or an IP literal, then at most a port in digits. Anything a URL
    // parser would read past (a path, a query, user info) is not this host.
    const QByteArray lower = authority.toLower();
    const bool bracketed = lower.startsWith('[');
    QByteArray host = lower;
    QByteArray port;
    bool hasPort = false;
    if (bracketed) {
        const qsizetype close = lower.indexOf(']');
        if (close < 0)
            return false;
        host = lower.mid(1, close - 1);
        const QByteArray rest = lower.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(':'))
            return false;
        hasPort = !rest.isEmpty();
        port = rest.mid(1);
    } else if (const qsizetype colon = lower.indexOf(':'); colon >= 0) {
        host = lower.left(colon);
        port = lower.mid(colon + 1);
        hasPort = true;
    }
    for (char c : host) {
        const bool allowed
            = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || (bracketed && c == ':');
        if (!allowed)
            return false;
    }
    if (host.endsWith('.'))
        host.chop(1);
    if (host.isEmpty() || QString::fromLatin1(host) != m_host)
        return false;
    if (!hasPort)
        return m_port == 443;
    if (port.isEmpty() || port.size() > 5)
        return false;
    for (char c : port) {
        if (c < '0' || c > '9')
            return false;
    }
    return port.toUInt() == m_port;
}

void HttpRequestRewriter::remember(const QString &name, const QByteArray &sent)
{
    for (const Sent &known : std::as_const(m_sent)) {
        if (known.bytes == sent)
            return;
    }
    m_sent.append({ name, sent });
}

void HttpRequestRewriter::scan(const QByteArray &bytes, const QString &where)
{
    // A placeholder split across two reads of a body is not seen: scanning is a report, not
    // a protection (nothing outside a header is ever replaced).
    for (const CredentialSlot &slot : std::as_const(m_slots)) {
        if (!bytes.contains(slot.placeholder))
            continue;
        if (slot.belongs)
            report(slot,
                   tr("the placeholder of credential \"%1\" was sent to %2 in %3, where it is never replaced")
                       .arg(slot.name, m_host, where),
                   QStringLiteral("header"));
        else
            report(slot,
                   tr("the placeholder of credential \"%1\" was sent to %2, which is not one of its hosts, in %3; "
                      "it was not replaced")
                       .arg(slot.name, m_host, where),
                   QStringLiteral("elsewhere"));
    }
}

void HttpRequestRewriter::report(const CredentialSlot &slot, const QString &message, const QString &kind)
{
    const QString key = slot.name + QLatin1Char('\0') + kind;
    if (m_reported.contains(key))
        return;
    m_reported.insert(key);
    m_reports.append({ slot.name, message });
}

QList<HttpRequestRewriter::Report> HttpRequestRewriter::takeReports()
{
    return std::exchange(m_reports, {});
}

void HttpRequestRewriter::fail(int status, const QString &reason)
{
    m_state = State::Failed;
    m_status = status;
    m_reason = reason;
    m_buffer.clear();
}

} // namespace sandbox
