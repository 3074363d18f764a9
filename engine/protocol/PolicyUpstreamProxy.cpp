#include "PolicyUpstreamProxy.h"

#include "JsonReader.h"
#include "Policy.h"
#include "PolicyCredential.h"

#include <QCoreApplication>
#include <QUrl>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::PolicyUpstreamProxy", text);
}

constexpr qsizetype maxUrlLength = 300;

struct Parts
{
    QString scheme;
    QString host;
    quint16 port = 0;
    QString problem;
};

// Only "scheme://host:port" with an optional "/": anything more (a path, a user, a query)
// would be read differently by different URL parsers, and the proxy needs none of it.
Parts split(const QString &url)
{
    Parts parts;
    const QString example = QStringLiteral("http://proxy.example.com:3128");
    if (url.isEmpty()) {
        parts.problem = tr("must not be empty; expected a URL such as %1").arg(example);
        return parts;
    }
    if (url.size() > maxUrlLength) {
        parts.problem = tr("is too long (%1 characters, at most %2)").arg(url.size()).arg(maxUrlLength);
        return parts;
    }
    for (QChar c : url) {
        if (c.isSpace() || c.unicode() < 0x20 || c.unicode() == 0x7f) {
            parts.problem = tr("must not contain whitespace or control characters");
            return parts;
        }
    }
    QStringView rest;
    if (url.startsWith(QLatin1String("http://"))) {
        parts.scheme = QStringLiteral("http");
        rest = QStringView(url).mid(7);
    } else if (url.startsWith(QLatin1String("https://"))) {
        parts.scheme = QStringLiteral("https");
        rest = QStringView(url).mid(8);
    } else {
        parts.problem = tr("must start with http:// or https:// (TLS to the proxy itself); expected a URL such as %1")
                            .arg(example);
        return parts;
    }
    if (rest.endsWith(u'/'))
        rest.chop(1);
    if (rest.contains(u'@')) {
        parts.problem = tr("must not carry a user or password: store \"user:password\" with sandboxctl credential "
                           "set NAME and name it in upstreamProxy.credential");
        return parts;
    }
    if (rest.contains(u'/') || rest.contains(u'?') || rest.contains(u'#')) {
        parts.problem = tr("must name the proxy only (scheme, host and port), without a path, query or fragment");
        return parts;
    }
    QStringView host;
    QStringView port;
    if (rest.startsWith(u'[')) {
        const qsizetype close = rest.indexOf(u']');
        if (close < 0 || close + 1 >= rest.size() || rest.at(close + 1) != u':') {
            parts.problem = tr("must name the proxy's port after the IPv6 address (http://[::1]:3128)");
            return parts;
        }
        host = rest.mid(1, close - 1);
        port = rest.mid(close + 2);
        bool hexadecimal = host.contains(u':');
        for (QChar c : host)
            hexadecimal = hexadecimal
                && ((c >= u'0' && c <= u'9') || c == u':' || c == u'.' || (c.toLower() >= u'a' && c.toLower() <= u'f'));
        const QUrl check(QStringLiteral("http://[") + host.toString() + QStringLiteral("]/"), QUrl::StrictMode);
        if (!hexadecimal || !check.isValid() || check.host().isEmpty()) {
            parts.problem = tr("has an invalid IPv6 address");
            return parts;
        }
    } else {
        const qsizetype colon = rest.lastIndexOf(u':');
        if (colon < 0) {
            parts.problem = tr("must name the proxy's port, such as %1").arg(example);
            return parts;
        }
        host = rest.left(colon);
        port = rest.mid(colon + 1);
        // An IPv4 literal reads as a name of digit labels.
        if (host.contains(u'*') || host.contains(u':') || !Policy::domainProblem(host.toString()).isEmpty()) {
            parts.problem = tr("has an invalid host name; expected a URL such as %1").arg(example);
            return parts;
        }
    }
    bool digits = !port.isEmpty() && port.size() <= 5;
    for (QChar c : port)
        digits = digits && c.unicode() >= u'0' && c.unicode() <= u'9';
    const int number = digits ? port.toInt() : 0;
    if (number < 1 || number > 65535) {
        parts.problem = tr("has an invalid port; expected a number from 1 to 65535");
        return parts;
    }
    parts.host = host.toString().toLower();
    parts.port = quint16(number);
    return parts;
}

} // namespace

QString PolicyUpstreamProxy::scheme() const
{
    return split(url).scheme;
}

QString PolicyUpstreamProxy::host() const
{
    return split(url).host;
}

quint16 PolicyUpstreamProxy::port() const
{
    return split(url).port;
}

QString PolicyUpstreamProxy::authority() const
{
    const Parts parts = split(url);
    const QString host = parts.host.contains(u':') ? QLatin1Char('[') + parts.host + QLatin1Char(']') : parts.host;
    return host + QLatin1Char(':') + QString::number(parts.port);
}

QString PolicyUpstreamProxy::urlProblem(const QString &url)
{
    return split(url).problem;
}

void PolicyUpstreamProxy::collectProblems(const QString &where, QList<Error> &problems) const
{
    if (const QString problem = urlProblem(url); !problem.isEmpty())
        problems.append(Error{ where + QStringLiteral(".url"), problem, {} });
    if (!credential.isEmpty()) {
        if (const QString problem = PolicyCredential::nameProblem(credential); !problem.isEmpty())
            problems.append(Error{ where + QStringLiteral(".credential"), problem, {} });
    }
}

QJsonObject PolicyUpstreamProxy::toJson() const
{
    QJsonObject json{ { QStringLiteral("url"), url } };
    if (!credential.isEmpty())
        json.insert(QStringLiteral("credential"), credential);
    return json;
}

Result<PolicyUpstreamProxy> PolicyUpstreamProxy::fromJson(const QJsonValue &value, const QString &where)
{
    JsonReader reader(value, where);
    reader.rejectUnknownKeys({ QStringLiteral("url"), QStringLiteral("credential") });
    PolicyUpstreamProxy proxy;
    proxy.url = reader.requireString(QStringLiteral("url"), true);
    if (reader.has(QStringLiteral("credential")))
        proxy.credential = reader.requireString(QStringLiteral("credential"));
    if (!reader.ok())
        return reader.error();
    return proxy;
}

} // namespace sandbox
