#include "E2bSettings.h"

#include <QCoreApplication>
#include <QHostAddress>

namespace sandbox::power {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("E2bSettings", text);
}

} // namespace

QString E2bSettings::transportProblem(const QUrl &url, const QString &what)
{
    if (!url.isValid() || url.host().isEmpty())
        return tr("The %1 \"%2\" is not a URL with a host.").arg(what, url.toString());
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("https"))
        return {};
    if (scheme != QLatin1String("http"))
        return tr("The %1 \"%2\" must be an https:// URL.").arg(what, url.toString());
    const QString host = url.host();
    const QHostAddress address(host);
    const bool loopback = host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
        || (!address.isNull() && address.isLoopback());
    if (!loopback)
        return tr("The %1 \"%2\" uses plain HTTP to a host that is not a loopback address; use https://.")
            .arg(what, url.toString());
    return {};
}

Result<E2bSettings> E2bSettings::fromResolved(const ResolvedSettings &resolved)
{
    const QMap<QString, QJsonValue> &values = resolved.values.values;
    E2bSettings settings;
    settings.apiKey = resolved.secrets.value(QStringLiteral("apiKey"));
    const QString templateId = values.value(QStringLiteral("template")).toString().trimmed();
    settings.templateId = templateId.isEmpty() ? QString::fromLatin1(baseTemplate) : templateId;
    const QString domain = values.value(QStringLiteral("domain")).toString().trimmed();
    settings.domain = domain.isEmpty() ? QString::fromLatin1(publicDomain) : domain;
    if (settings.domain.contains(QLatin1Char('/')) || settings.domain.contains(QLatin1Char(' ')))
        return Error{ QStringLiteral("domain"), tr("The domain \"%1\" is not a host name.").arg(settings.domain), {} };
    const QString apiUrl = values.value(QStringLiteral("apiUrl")).toString().trimmed();
    settings.apiUrl = QUrl(apiUrl.isEmpty() ? QStringLiteral("https://api.") + settings.domain : apiUrl);
    if (const QString problem = transportProblem(settings.apiUrl, tr("API URL")); !problem.isEmpty())
        return Error{ QStringLiteral("apiUrl"), problem, {} };
    const QString sandboxUrl = values.value(QStringLiteral("sandboxUrl")).toString().trimmed();
    if (!sandboxUrl.isEmpty()) {
        settings.sandboxUrl = QUrl(sandboxUrl);
        if (const QString problem = transportProblem(settings.sandboxUrl, tr("sandbox URL")); !problem.isEmpty())
            return Error{ QStringLiteral("sandboxUrl"), problem, {} };
    }
    settings.timeoutSeconds = int(values.value(QStringLiteral("timeoutSeconds")).toDouble());
    settings.syncWorkspace = values.value(QStringLiteral("workspace")).toString() != QLatin1String("none");
    return settings;
}

QUrl E2bSettings::envdUrl(const QString &sandboxId, const QString &sandboxDomain) const
{
    if (!sandboxUrl.isEmpty())
        return sandboxUrl;
    const QString domainOfSandbox = sandboxDomain.isEmpty() ? domain : sandboxDomain;
    QUrl url;
    url.setScheme(QStringLiteral("https"));
    // E2B's own domains serve every sandbox at one address, naming it in headers (as E2B's
    // SDK reaches them); other domains at an address of each sandbox.
    static const QStringList shared{ QStringLiteral("e2b.app"), QStringLiteral("e2b.dev"), QStringLiteral("e2b.pro"),
                                     QStringLiteral("e2b-staging.dev") };
    if (shared.contains(domainOfSandbox))
        url.setHost(QStringLiteral("sandbox.") + domainOfSandbox);
    else
        url.setHost(QString::number(envdPort) + QLatin1Char('-') + sandboxId + QLatin1Char('.') + domainOfSandbox);
    return url;
}

} // namespace sandbox::power
