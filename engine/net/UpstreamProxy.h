#pragma once

#include "protocol/Error.h"
#include "protocol/PolicyUpstreamProxy.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

struct ssl_ctx_st;

namespace sandbox {

class CredentialInjector;
class CredentialSource;

// What one proxy channel knows of its policy's upstream proxy: where it is, the trust
// toward it (https), and where its credential's value is read when a connection needs it
// (so a value replaced or removed applies to the next connection). The value is only ever
// put into the CONNECT request toward the upstream proxy itself.
class UpstreamProxy final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::UpstreamProxy)

public:
    QString host; // a name or an IP literal (IPv6 without brackets)
    quint16 port = 0;
    bool tls = false;
    std::shared_ptr<ssl_ctx_st> trust; // tls only
    QString credential; // empty: none
    std::shared_ptr<CredentialSource> source;

    // `extraCaCertificates` as in the policy ("~/" allowed); `source` may be null when the
    // policy names no credential.
    static Result<std::shared_ptr<const UpstreamProxy>> make(const PolicyUpstreamProxy &policy,
                                                             const QStringList &extraCaCertificates,
                                                             std::shared_ptr<CredentialSource> source);
    // What every launcher gives its channel for a policy's upstream proxy: null without one;
    // its credential read from `injector`'s secret storage (null: the engine has none, so a
    // policy naming a credential is refused).
    static Result<std::shared_ptr<const UpstreamProxy>> forPolicy(const std::optional<PolicyUpstreamProxy> &policy,
                                                                  const QStringList &extraCaCertificates,
                                                                  const CredentialInjector *injector);

    // "host:port" (IPv6 in brackets), for messages.
    QString authority() const;
    // The request opening a tunnel to `target` ("host:port", IPv6 in brackets), with
    // Proxy-Authorization when there is a credential; an Error when its value is missing.
    // The caller wipes the bytes once sent.
    Result<QByteArray> connectRequest(const QString &target) const;
};

} // namespace sandbox
