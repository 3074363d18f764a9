#include "SshEndpoint.h"

#include <QRegularExpression>
#include <QUrl>

namespace sandbox::power {

Result<SshEndpoint> SshEndpoint::parse(const QString &endpoint)
{
    const QUrl url(endpoint, QUrl::StrictMode);
    const auto refused = [&endpoint](const QString &why) {
        return Error{ QStringLiteral("endpoint"),
                      tr("The endpoint \"%1\" is not an SSH endpoint ssh://user@host[:port][/socket/path]: %2")
                          .arg(endpoint, why),
                      {} };
    };
    if (!url.isValid() || url.scheme() != QLatin1String("ssh"))
        return refused(url.isValid() ? tr("it does not start with ssh://") : url.errorString());
    SshEndpoint parsed;
    parsed.user = url.userName();
    parsed.host = url.host();
    parsed.port = url.port(22);
    parsed.socketPath = url.path().isEmpty() ? QString::fromLatin1(defaultSocket) : url.path();
    // The user and host reach ssh's command line: nothing in them may read as an option.
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]*$"));
    static const QRegularExpression hostName(QStringLiteral("^[A-Za-z0-9_\\[][A-Za-z0-9._:\\[\\]-]*$"));
    if (parsed.user.isEmpty())
        return refused(tr("it names no user (user@host)"));
    if (!name.match(parsed.user).hasMatch())
        return refused(tr("the user \"%1\" holds characters a user name cannot").arg(parsed.user));
    if (parsed.host.isEmpty() || !hostName.match(parsed.host).hasMatch())
        return refused(tr("the host \"%1\" is not a host name or address").arg(parsed.host));
    if (!url.password().isEmpty())
        return refused(tr("passwords are not accepted; SSH keys and your agent are used"));
    if (url.hasQuery() || url.hasFragment())
        return refused(tr("it has a query or fragment"));
    if (!parsed.socketPath.startsWith(QLatin1Char('/')) || parsed.socketPath.contains(QLatin1Char(':')))
        return refused(tr("the remote socket \"%1\" is not an absolute path without ':'").arg(parsed.socketPath));
    return parsed;
}

QString SshEndpoint::text() const
{
    return QStringLiteral("ssh://%1@%2:%3%4").arg(user, host).arg(port).arg(socketPath);
}

} // namespace sandbox::power
