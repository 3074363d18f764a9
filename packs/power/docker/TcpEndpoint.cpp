#include "TcpEndpoint.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace sandbox::power {

Result<TcpEndpoint> TcpEndpoint::parse(const QString &endpoint)
{
    const QUrl url(endpoint, QUrl::StrictMode);
    const auto refused = [&endpoint](const QString &why) {
        return Error{ QStringLiteral("endpoint"),
                      tr("The endpoint \"%1\" is not a TCP endpoint tcp://host:port: %2").arg(endpoint, why),
                      {} };
    };
    if (!url.isValid() || url.scheme() != QLatin1String("tcp"))
        return refused(url.isValid() ? tr("it does not start with tcp://") : url.errorString());
    TcpEndpoint parsed;
    parsed.host = url.host();
    parsed.port = url.port(0);
    static const QRegularExpression hostName(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]*$"));
    const bool address = !QHostAddress(parsed.host).isNull();
    if (parsed.host.isEmpty() || (!address && !hostName.match(parsed.host).hasMatch()))
        return refused(tr("the host \"%1\" is not a host name or address").arg(parsed.host));
    if (parsed.port <= 0)
        return refused(tr("it names no port (Docker's TLS port is 2376)"));
    if (!url.userInfo().isEmpty())
        return refused(tr("a user or password is not accepted; the client certificate identifies you"));
    if (!url.path().isEmpty() && url.path() != QLatin1String("/"))
        return refused(tr("it has a path"));
    if (url.hasQuery() || url.hasFragment())
        return refused(tr("it has a query or fragment"));
    return parsed;
}

bool TcpEndpoint::isLoopback() const
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString TcpEndpoint::text() const
{
    return QStringLiteral("tcp://%1:%2")
        .arg(host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host)
        .arg(port);
}

} // namespace sandbox::power
