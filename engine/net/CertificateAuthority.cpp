#include "CertificateAuthority.h"

#include "protocol/RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QMutexLocker>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

constexpr int kAuthorityValidityDays = 5 * 365;
const char *const kCertificateFile = "ca.pem";
const char *const kKeyFile = "ca-key.pem";

struct X509Free
{
    void operator()(X509 *x) const { X509_free(x); }
};
struct KeyFree
{
    void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};
struct BioFree
{
    void operator()(BIO *b) const { BIO_free(b); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;
using BioPtr = std::unique_ptr<BIO, BioFree>;

Error failure(const QString &where, const QString &message)
{
    return Error{ where, message, {} };
}

bool addExtension(X509 *certificate, X509 *issuer, int nid, const QByteArray &value)
{
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.constData());
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

bool setRandomSerial(X509 *certificate)
{
    BIGNUM *serial = BN_new();
    const bool ok = serial && BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1
        && BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) != nullptr;
    BN_free(serial);
    return ok;
}

// A certificate for `key` named `commonName`, valid from an hour ago for `days` days.
X509Ptr newCertificate(EVP_PKEY *key, const QString &commonName, int days)
{
    X509Ptr certificate(X509_new());
    if (!certificate || X509_set_version(certificate.get(), 2) != 1 || !setRandomSerial(certificate.get())
        || !X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600)
        || !X509_gmtime_adj(X509_getm_notAfter(certificate.get()), long(days) * 24 * 3600)
        || X509_set_pubkey(certificate.get(), key) != 1)
        return nullptr;
    const QByteArray name = commonName.toUtf8();
    if (X509_NAME_add_entry_by_txt(X509_get_subject_name(certificate.get()), "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char *>(name.constData()), int(name.size()), -1, 0)
        != 1)
        return nullptr;
    return certificate;
}

QByteArray certificateToPem(X509 *certificate)
{
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), certificate) != 1)
        return {};
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

QByteArray keyToPem(EVP_PKEY *key)
{
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, qsizetype(size));
}

// Writes `bytes` to `path` whole: an owner-only temporary file beside it, renamed over it.
Status writePrivately(const QString &path, const QByteArray &bytes)
{
    const QByteArray target = QFile::encodeName(path);
    const QByteArray temporary = target + ".new";
    ::unlink(temporary.constData());
    const int fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return failure(path, CertificateAuthority::tr("cannot write: %1").arg(QString::fromLocal8Bit(strerror(errno))));
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += n;
    }
    const bool ok = written == bytes.size() && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok || ::rename(temporary.constData(), target.constData()) != 0) {
        ::unlink(temporary.constData());
        return failure(path, CertificateAuthority::tr("cannot write the file whole"));
    }
    return {};
}

QString leafSubjectAlternativeName(const QString &host)
{
    QHostAddress address;
    if (address.setAddress(host))
        return QStringLiteral("IP:") + address.toString();
    if (host.isEmpty() || host.size() > 253)
        return QString();
    for (QChar c : host) {
        const char16_t u = c.unicode();
        if (!((u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9') || u == u'-' || u == u'.'))
            return QString();
    }
    return QStringLiteral("DNS:") + host;
}

} // namespace

struct CertificateAuthority::Keys
{
    X509Ptr certificate;
    KeyPtr key;
    QByteArray certificatePem;
};

CertificateAuthority::CertificateAuthority(std::unique_ptr<Keys> keys)
    : m_keys(std::move(keys))
{ }

CertificateAuthority::~CertificateAuthority() = default;

Result<std::unique_ptr<CertificateAuthority>> CertificateAuthority::open(const QString &directory)
{
    if (Status owned = RuntimeDirectory::ensure(directory); !owned.ok())
        return owned.error();
    const QString certificatePath = QDir(directory).filePath(QLatin1String(kCertificateFile));
    const QString keyPath = QDir(directory).filePath(QLatin1String(kKeyFile));
    const bool hasCertificate = QFile::exists(certificatePath);
    const bool hasKey = QFile::exists(keyPath);
    if (!hasCertificate && !hasKey)
        return create(directory);
    if (hasCertificate != hasKey)
        return failure(directory,
                       tr("holds only one of %1 and %2; rotate the engine's certificate authority to make "
                          "a new one")
                           .arg(QLatin1String(kCertificateFile), QLatin1String(kKeyFile)));
    struct stat info = {};
    if (::lstat(QFile::encodeName(keyPath).constData(), &info) != 0 || !S_ISREG(info.st_mode)
        || info.st_uid != ::getuid() || (info.st_mode & 077) != 0)
        return failure(keyPath, tr("must be a file of this user's that nobody else can read (mode 0600)"));

    auto keys = std::make_unique<Keys>();
    QFile certificateFile(certificatePath);
    QFile keyFile(keyPath);
    if (!certificateFile.open(QIODevice::ReadOnly) || !keyFile.open(QIODevice::ReadOnly))
        return failure(directory, tr("cannot read the engine's certificate authority"));
    const QByteArray certificateBytes = certificateFile.readAll();
    const QByteArray keyBytes = keyFile.readAll();
    BioPtr certificateBio(BIO_new_mem_buf(certificateBytes.constData(), int(certificateBytes.size())));
    BioPtr keyBio(BIO_new_mem_buf(keyBytes.constData(), int(keyBytes.size())));
    keys->certificate.reset(PEM_read_bio_X509(certificateBio.get(), nullptr, nullptr, nullptr));
    keys->key.reset(PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr));
    if (!keys->certificate)
        return failure(certificatePath, tr("is not a PEM certificate"));
    if (!keys->key)
        return failure(keyPath, tr("is not a PEM private key"));
    if (X509_check_private_key(keys->certificate.get(), keys->key.get()) != 1)
        return failure(keyPath, tr("does not belong to %1").arg(certificatePath));
    keys->certificatePem = certificateToPem(keys->certificate.get());
    return std::unique_ptr<CertificateAuthority>(new CertificateAuthority(std::move(keys)));
}

Result<std::unique_ptr<CertificateAuthority>> CertificateAuthority::rotate(const QString &directory)
{
    if (Status owned = RuntimeDirectory::ensure(directory); !owned.ok())
        return owned.error();
    return create(directory);
}

Result<std::unique_ptr<CertificateAuthority>> CertificateAuthority::create(const QString &directory)
{
    auto keys = std::make_unique<Keys>();
    keys->key.reset(EVP_EC_gen("P-256"));
    if (!keys->key)
        return failure(directory, tr("cannot make a key for the engine's certificate authority"));
    BIGNUM *tag = BN_new();
    char *hex = nullptr;
    if (tag && BN_rand(tag, 32, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1)
        hex = BN_bn2hex(tag);
    const QString name
        = QStringLiteral("Sandbox Studio engine CA %1").arg(QString::fromLatin1(hex ? hex : "")).trimmed();
    OPENSSL_free(hex);
    BN_free(tag);
    keys->certificate = newCertificate(keys->key.get(), name, kAuthorityValidityDays);
    X509 *certificate = keys->certificate.get();
    if (!certificate || X509_set_issuer_name(certificate, X509_get_subject_name(certificate)) != 1
        || !addExtension(certificate, certificate, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        || !addExtension(certificate, certificate, NID_key_usage, "critical,keyCertSign,cRLSign")
        || !addExtension(certificate, certificate, NID_subject_key_identifier, "hash")
        || X509_sign(certificate, keys->key.get(), EVP_sha256()) <= 0)
        return failure(directory, tr("cannot sign the engine's certificate authority"));
    keys->certificatePem = certificateToPem(certificate);
    const QByteArray keyPem = keyToPem(keys->key.get());
    if (keys->certificatePem.isEmpty() || keyPem.isEmpty())
        return failure(directory, tr("cannot encode the engine's certificate authority"));
    // The key first: a certificate is never there without the key that belongs to it.
    if (Status written = writePrivately(QDir(directory).filePath(QLatin1String(kKeyFile)), keyPem); !written.ok())
        return written.error();
    if (Status written
        = writePrivately(QDir(directory).filePath(QLatin1String(kCertificateFile)), keys->certificatePem);
        !written.ok())
        return written.error();
    return std::unique_ptr<CertificateAuthority>(new CertificateAuthority(std::move(keys)));
}

QByteArray CertificateAuthority::certificatePem() const
{
    return m_keys->certificatePem;
}

Result<CertificateAuthority::Leaf> CertificateAuthority::leafFor(const QString &host)
{
    QMutexLocker lock(&m_mutex);
    if (const auto it = m_leaves.constFind(host); it != m_leaves.constEnd())
        return it.value();
    const QString alternativeName = leafSubjectAlternativeName(host);
    if (alternativeName.isEmpty())
        return failure(QStringLiteral("proxy"),
                       tr("no certificate is made for \"%1\": not a host name").arg(host.left(100)));
    KeyPtr key(EVP_EC_gen("P-256"));
    if (!key)
        return failure(QStringLiteral("proxy"), tr("cannot make a key for %1").arg(host));
    X509Ptr certificate = newCertificate(key.get(), host, kLeafValidityDays);
    X509 *issuer = m_keys->certificate.get();
    if (!certificate || X509_set_issuer_name(certificate.get(), X509_get_subject_name(issuer)) != 1
        || !addExtension(certificate.get(), issuer, NID_basic_constraints, "critical,CA:FALSE")
        || !addExtension(certificate.get(), issuer, NID_key_usage, "critical,digitalSignature")
        || !addExtension(certificate.get(), issuer, NID_ext_key_usage, "serverAuth")
        || !addExtension(certificate.get(), issuer, NID_subject_alt_name, alternativeName.toLatin1())
        || !addExtension(certificate.get(), issuer, NID_authority_key_identifier, "keyid:always")
        || X509_sign(certificate.get(), m_keys->key.get(), EVP_sha256()) <= 0)
        return failure(QStringLiteral("proxy"), tr("cannot sign a certificate for %1").arg(host));
    Leaf leaf{ certificateToPem(certificate.get()), keyToPem(key.get()) };
    if (leaf.certificatePem.isEmpty() || leaf.keyPem.isEmpty())
        return failure(QStringLiteral("proxy"), tr("cannot encode the certificate for %1").arg(host));
    m_leaves.insert(host, leaf);
    return leaf;
}

} // namespace sandbox
