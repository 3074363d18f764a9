#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QMutex>
#include <QString>

#include <memory>

namespace sandbox {

// The engine's own certificate authority, with which the filtering proxy is to terminate
// TLS toward a credential's hosts. It lives in a directory of the engine's state that is
// the user's alone (created 0700 and verified as RuntimeDirectory does), as ca.pem and
// ca-key.pem (0600, written whole by rename), and the engine denies that directory to every
// sandboxed command. Leaf certificates, one per host, are made on demand, kept in memory
// only, and valid for a short time. Every method is thread-safe.
class CertificateAuthority final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::CertificateAuthority)

public:
    struct Leaf
    {
        QByteArray certificatePem;
        QByteArray keyPem;
    };

    ~CertificateAuthority();
    CertificateAuthority(const CertificateAuthority &) = delete;
    CertificateAuthority &operator=(const CertificateAuthority &) = delete;

    // The authority kept in `directory`, made there when there is none. A directory that is
    // a link, another user's or open to group or others, or files that do not parse or do
    // not belong together, are refused, saying which.
    static Result<std::unique_ptr<CertificateAuthority>> open(const QString &directory);
    // Replaces the authority in `directory` with a new one (what trusted the old one no
    // longer trusts what the new one signs).
    static Result<std::unique_ptr<CertificateAuthority>> rotate(const QString &directory);

    QByteArray certificatePem() const;
    // A certificate for `host` (a DNS name or an IP literal), signed by this authority.
    Result<Leaf> leafFor(const QString &host);

    static constexpr int kLeafValidityDays = 7;

private:
    struct Keys;
    explicit CertificateAuthority(std::unique_ptr<Keys> keys);
    static Result<std::unique_ptr<CertificateAuthority>> create(const QString &directory);

    std::unique_ptr<Keys> m_keys;
    QMutex m_mutex;
    QHash<QString, Leaf> m_leaves;
};

} // namespace sandbox
