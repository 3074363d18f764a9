#include "UpstreamProxy.h"

#include "CredentialInjector.h"
#include "TlsStream.h"

namespace sandbox {

Result<std::shared_ptr<const UpstreamProxy>> UpstreamProxy::make(const PolicyUpstreamProxy &policy,
                                                                 const QStringList &extraCaCertificates,
                                                                 std::shared_ptr<CredentialSource> source)
{
    const QString where = QStringLiteral("policy.network.upstreamProxy");
    if (const QString problem = PolicyUpstreamProxy::urlProblem(policy.url); !problem.isEmpty())
        return Error{ where + QStringLiteral(".url"), problem, {} };
    auto proxy = std::make_shared<UpstreamProxy>();
    proxy->host = policy.host();
    proxy->port = policy.port();
    proxy->tls = policy.usesTls();
    proxy->credential = policy.credential;
    if (proxy->tls) {
        QString error;
        proxy->trust
            = TlsStream::clientContext(CredentialInjector::resolveCertificateFiles(extraCaCertificates), error);
        if (!proxy->trust)
            return Error{ QStringLiteral("policy.network.extraCaCertificates"), error, {} };
    }
    if (!proxy->credential.isEmpty() && !source)
        return Error{ where + QStringLiteral(".credential"),
                      tr("this engine has no secret storage to read the upstream proxy's credential from"),
                      {} };
    proxy->source = std::move(source);
    return std::shared_ptr<const UpstreamProxy>(std::move(proxy));
}

Result<std::shared_ptr<const UpstreamProxy>> UpstreamProxy::forPolicy(const std::optional<PolicyUpstreamProxy> &policy,
                                                                      const QStringList &extraCaCertificates,
                                                                      const CredentialInjector *injector)
{
    if (!policy)
        return std::shared_ptr<const UpstreamProxy>();
    return injector ? injector->upstreamFor(*policy, extraCaCertificates) : make(*policy, extraCaCertificates, nullptr);
}

QString UpstreamProxy::authority() const
{
    const QString name = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return name + QLatin1Char(':') + QString::number(port);
}

Result<QByteArray> UpstreamProxy::connectRequest(const QString &target) const
{
    QByteArray request = "CONNECT " + target.toLatin1() + " HTTP/1.1\r\nHost: " + target.toLatin1() + "\r\n";
    if (!credential.isEmpty()) {
        std::optional<QByteArray> value = source->value(credential);
        if (!value || value->isEmpty())
            return Error{ QStringLiteral("policy.network.upstreamProxy.credential"),
                          tr("the upstream proxy's credential \"%1\" has no value; store it (\"user:password\") with "
                             "sandboxctl credential set %1")
                              .arg(credential),
                          {} };
        QByteArray token = value->toBase64();
        request += "Proxy-Authorization: Basic " + token + "\r\n";
        token.fill('\0');
        value->fill('\0');
    }
    request += "\r\n";
    return request;
}

} // namespace sandbox
