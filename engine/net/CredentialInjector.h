#pragma once

#include "DomainRules.h"
#include "HttpRequestRewriter.h"
#include "protocol/Error.h"
#include "protocol/PolicyCredential.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QMap>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

struct ssl_ctx_st;

namespace sandbox {

class CertificateAuthority;
class UpstreamProxy;
struct PolicyUpstreamProxy;

// Where the proxy reads a credential's value, at the moment a request needs it (so a value
// removed or replaced applies to the next request). Thread-safe; never logs a value.
class CredentialSource
{
public:
    virtual ~CredentialSource() = default;
    virtual std::optional<QByteArray> value(const QString &name) = 0;
};

// What one proxy channel knows of its policy's credentials: which hosts get their TLS
// terminated, the placeholders, the trust toward the real hosts, the engine's authority.
class ChannelCredentials final
{
public:
    struct Entry
    {
        QString name;
        QByteArray placeholder;
        DomainRules hosts;
        std::optional<DomainRules> excluded;
        QList<QByteArray> headers; // lower case; empty: every header

        // True when `host:port` is one of its hosts and not one of its excluded hosts.
        bool covers(const QString &host, quint16 port) const;
    };

    // True when `host:port` is one of a credential's hosts (and not excluded): the proxy
    // terminates TLS there. `host` is normalized.
    bool intercepts(const QString &host, quint16 port) const;
    // Every credential as a connection to `host:port` sees it.
    QList<CredentialSlot> slotsFor(const QString &host, quint16 port) const;
    // Every placeholder of the channel (for the report on connections it does not terminate).
    QList<CredentialSlot> allSlots() const;
    std::optional<QByteArray> value(const QString &name) const;

    // Told of what a connection noticed (a placeholder sent where it is not replaced, a
    // credential without a value, a fronting attempt): the target ("host:port"), the
    // credential (empty when none), the message. Called on the proxy's thread.
    using Listener = std::function<void(const QString &target, const QString &credential, const QString &message)>;

    QList<Entry> entries;
    Listener reported;
    std::shared_ptr<ssl_ctx_st> upstreamTrust;
    std::shared_ptr<CertificateAuthority> authority;
    std::shared_ptr<CredentialSource> source;
};

// The engine's credential injection: one per engine. Placeholders are derived from a key
// made when the engine starts and kept only in its memory, so a placeholder means nothing
// to another engine or after a restart. Every method is thread-safe.
class CredentialInjector final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::CredentialInjector)

public:
    // `authorityDirectory`: the engine's certificate authority (CertificateAuthority::open);
    // `bundleDirectory`: where the certificate bundles handed to sandboxes are written
    // (certificates only: nothing secret).
    CredentialInjector(QString authorityDirectory, QString bundleDirectory, std::shared_ptr<CredentialSource> source);
    ~CredentialInjector();

    // The text the command sees instead of the credential `name`'s value.
    QByteArray placeholder(const QString &name) const;

    // The channel's view of `credentials`; `extraCaCertificates` as in the policy ("~/" allowed).
    Result<std::shared_ptr<const ChannelCredentials>> channelFor(const QList<PolicyCredential> &credentials,
                                                                 const QStringList &extraCaCertificates,
                                                                 ChannelCredentials::Listener reported);

    // The channel's upstream proxy, its credential read from this injector's source.
    Result<std::shared_ptr<const UpstreamProxy>> upstreamFor(const PolicyUpstreamProxy &proxy,
                                                             const QStringList &extraCaCertificates) const;

    // What a sandbox with credentials is given: each credential's placeholder under its
    // variable, the certificate bundle (the system's authorities, the engine's, the policy's
    // extra ones) under the variables common clients read, and the bundle's path on the host.
    struct SandboxView
    {
        QMap<QString, QString> environment;
        QString bundlePath;
    };
    Result<SandboxView> sandboxFor(const QList<PolicyCredential> &credentials, const QStringList &extraCaCertificates,
                                   const QString &bundlePathInSandbox = QString());

    // Opens the authority, making it when there is none yet.
    Status prepareAuthority();
    // The authority was replaced on disk: the next channel opens the new one.
    void forgetAuthority();

    // Where the system's certificate bundle is on this host (empty when none is found).
    static QString systemBundlePath();
    // "~/" expanded, made absolute.
    static QStringList resolveCertificateFiles(const QStringList &paths);

private:
    Result<std::shared_ptr<CertificateAuthority>> authority();
    // The bundle of the system's authorities, the engine's and `extraFiles`; made again only
    // when one of them changed since the last bundle.
    Result<QString> writeBundle(const QStringList &extraFiles);

    const QString m_authorityDirectory;
    const QString m_bundleDirectory;
    const std::shared_ptr<CredentialSource> m_source;
    QByteArray m_key;
    QMutex m_mutex;
    std::shared_ptr<CertificateAuthority> m_authority;
    QMutex m_bundleMutex;
    QByteArray m_bundleInputs; // the identity of what the last bundle was made of
    QString m_bundlePath;
    qint64 m_bundleSize = -1;
};

} // namespace sandbox
