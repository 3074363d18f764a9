#include "CredentialInjector.h"

#include "CertificateAuthority.h"
#include "TlsStream.h"
#include "UpstreamProxy.h"
#include "protocol/RuntimeDirectory.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QMutexLocker>
#include <QRandomGenerator>
#include <QSaveFile>

#include <algorithm>
#include <openssl/ssl.h>
#include <sys/stat.h>

namespace sandbox {

namespace {

// A file as it is now, without reading it: its path, device, inode, size and times. A file
// rewritten or replaced since has another identity.
QByteArray fileIdentity(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    struct stat status = {};
    if (name.isEmpty() || ::stat(name.constData(), &status) != 0)
        return name + QByteArrayLiteral("\nabsent\n");
    return name + '\n' + QByteArray::number(qulonglong(status.st_dev)) + ':'
        + QByteArray::number(qulonglong(status.st_ino)) + ':' + QByteArray::number(qlonglong(status.st_size)) + ':'
        + QByteArray::number(qlonglong(status.st_mtim.tv_sec)) + '.'
        + QByteArray::number(qlonglong(status.st_mtim.tv_nsec)) + ':'
        + QByteArray::number(qlonglong(status.st_ctim.tv_sec)) + '.'
        + QByteArray::number(qlonglong(status.st_ctim.tv_nsec)) + '\n';
}

} // namespace

bool ChannelCredentials::Entry::covers(const QString &host, quint16 port) const
{
    return hosts.check(host, port).allowed && !(excluded && excluded->check(host, port).allowed);
}

bool ChannelCredentials::intercepts(const QString &host, quint16 port) const
{
    return std::any_of(entries.cbegin(), entries.cend(), [&](const Entry &entry) { return entry.covers(host, port); });
}

QList<CredentialSlot> ChannelCredentials::slotsFor(const QString &host, quint16 port) const
{
    QList<CredentialSlot> list;
    for (const Entry &entry : entries)
        list.append({ entry.name, entry.placeholder, entry.covers(host, port), entry.headers });
    return list;
}

QList<CredentialSlot> ChannelCredentials::allSlots() const
{
    QList<CredentialSlot> list;
    for (const Entry &entry : entries)
        list.append({ entry.name, entry.placeholder, false, entry.headers });
    return list;
}

std::optional<QByteArray> ChannelCredentials::value(const QString &name) const
{
    return source ? source->value(name) : std::nullopt;
}

CredentialInjector::CredentialInjector(QString authorityDirectory, QString bundleDirectory,
                                       std::shared_ptr<CredentialSource> source)
    : m_authorityDirectory(std::move(authorityDirectory))
    , m_bundleDirectory(std::move(bundleDirectory))
    , m_source(std::move(source))
{
    m_key.resize(32);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(m_key.data()),
                                         reinterpret_cast<quint32 *>(m_key.data() + m_key.size()));
}

CredentialInjector::~CredentialInjector() = default;

QByteArray CredentialInjector::placeholder(const QString &name) const
{
    const QByteArray mac
        = QMessageAuthenticationCode::hash(name.toUtf8(), m_key, QCryptographicHash::Sha256).toHex().left(32);
    return "sandbox-credential-" + name.toUtf8() + '-' + mac;
}

QStringList CredentialInjector::resolveCertificateFiles(const QStringList &paths)
{
    QStringList resolved;
    for (const QString &path : paths) {
        if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
            resolved.append(QDir::cleanPath(QDir::homePath() + path.mid(1)));
        else
            resolved.append(QDir::cleanPath(path));
    }
    return resolved;
}

Result<std::shared_ptr<CertificateAuthority>> CredentialInjector::authority()
{
    QMutexLocker lock(&m_mutex);
    if (m_authority)
        return m_authority;
    Result<std::unique_ptr<CertificateAuthority>> opened = CertificateAuthority::open(m_authorityDirectory);
    if (!opened)
        return opened.error();
    m_authority = std::move(opened).value();
    return m_authority;
}

Status CredentialInjector::prepareAuthority()
{
    Result<std::shared_ptr<CertificateAuthority>> opened = authority();
    if (!opened)
        return opened.error();
    return {};
}

void CredentialInjector::forgetAuthority()
{
    QMutexLocker lock(&m_mutex);
    m_authority.reset();
}

Result<std::shared_ptr<const ChannelCredentials>>
CredentialInjector::channelFor(const QList<PolicyCredential> &credentials, const QStringList &extraCaCertificates,
                               ChannelCredentials::Listener reported)
{
    auto channel = std::make_shared<ChannelCredentials>();
    channel->reported = std::move(reported);
    for (qsizetype i = 0; i < credentials.size(); ++i) {
        const PolicyCredential &credential = credentials.at(i);
        const QString where = QStringLiteral("policy.credentials[%1]").arg(i);
        ChannelCredentials::Entry entry;
        entry.name = credential.name;
        entry.placeholder = placeholder(credential.name);
        // A host without a port is its HTTPS port only: other ports (SSH to a forge, say)
        // stay plain tunnels.
        Result<DomainRules> hosts = DomainRules::parse(credential.hosts, {}, where + QStringLiteral(".hosts"), 443);
        if (!hosts)
            return hosts.error();
        entry.hosts = hosts.value();
        if (!credential.excludeHosts.isEmpty()) {
            Result<DomainRules> excluded
                = DomainRules::parse(credential.excludeHosts, {}, where + QStringLiteral(".excludeHosts"));
            if (!excluded)
                return excluded.error();
            entry.excluded = excluded.value();
        }
        for (const QString &header : credential.headers)
            entry.headers.append(header.toLatin1().toLower());
        channel->entries.append(entry);
    }
    QString error;
    channel->upstreamTrust = TlsStream::clientContext(resolveCertificateFiles(extraCaCertificates), error);
    if (!channel->upstreamTrust)
        return Error{ QStringLiteral("policy.network.extraCaCertificates"), error, {} };
    Result<std::shared_ptr<CertificateAuthority>> opened = authority();
    if (!opened)
        return opened.error();
    channel->authority = opened.value();
    channel->source = m_source;
    return std::shared_ptr<const ChannelCredentials>(std::move(channel));
}

Result<std::shared_ptr<const UpstreamProxy>>
CredentialInjector::upstreamFor(const PolicyUpstreamProxy &proxy, const QStringList &extraCaCertificates) const
{
    return UpstreamProxy::make(proxy, extraCaCertificates, m_source);
}

QString CredentialInjector::systemBundlePath()
{
    for (const char *path : { "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
                              "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem" }) {
        if (QFileInfo(QString::fromLatin1(path)).isFile())
            return QString::fromLatin1(path);
    }
    return QString();
}

Result<QString> CredentialInjector::writeBundle(const QStringList &extraFiles)
{
    Result<std::shared_ptr<CertificateAuthority>> opened = authority();
    if (!opened)
        return opened.error();
    // Taken before anything is read: a file that changes while it is read has another
    // identity by the next spawn, which makes the bundle again.
    const QString system = systemBundlePath();
    QByteArray inputs = opened.value()->certificatePem() + '\n' + fileIdentity(system);
    for (const QString &path : extraFiles)
        inputs += fileIdentity(path);
    QMutexLocker lock(&m_bundleMutex);
    if (inputs == m_bundleInputs) {
        // The directory is checked on every spawn, as it is when a bundle is written.
        if (Status directory = RuntimeDirectory::ensure(m_bundleDirectory); !directory)
            return directory.error();
        if (QFileInfo(m_bundlePath).size() == m_bundleSize)
            return m_bundlePath;
    }
    QByteArray bundle;
    if (!system.isEmpty()) {
        QFile file(system);
        if (!file.open(QIODevice::ReadOnly))
            return Error{ QStringLiteral("proxy"), tr("cannot read the system's certificates in %1").arg(system), {} };
        bundle = file.readAll();
        if (!bundle.endsWith('\n'))
            bundle += '\n';
    }
    bundle += "# Sandbox Studio: the engine's certificate authority (credential injection)\n";
    bundle += opened.value()->certificatePem();
    for (const QString &path : extraFiles) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error{ QStringLiteral("policy.network.extraCaCertificates"),
                          tr("cannot read %1: %2").arg(path, file.errorString()),
                          {} };
        const QByteArray pem = file.readAll();
        if (!pem.contains("-----BEGIN CERTIFICATE-----"))
            return Error{ QStringLiteral("policy.network.extraCaCertificates"),
                          tr("%1 holds no PEM certificate").arg(path),
                          {} };
        if (!bundle.endsWith('\n'))
            bundle += '\n';
        bundle += pem;
    }
    if (Status directory = RuntimeDirectory::ensure(m_bundleDirectory); !directory)
        return directory.error();
    const QString name
        = QString::fromLatin1(QCryptographicHash::hash(bundle, QCryptographicHash::Sha256).toHex().left(24))
        + QStringLiteral(".pem");
    const QString path = QDir(m_bundleDirectory).filePath(name);
    if (QFileInfo(path).size() != bundle.size()) {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bundle) != bundle.size()
            || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther)
            || !file.commit())
            return Error{ QStringLiteral("proxy"), tr("cannot write the certificate bundle %1").arg(path), {} };
    }
    m_bundleInputs = inputs;
    m_bundlePath = path;
    m_bundleSize = bundle.size();
    return path;
}

Result<CredentialInjector::SandboxView> CredentialInjector::sandboxFor(const QList<PolicyCredential> &credentials,
                                                                       const QStringList &extraCaCertificates,
                                                                       const QString &bundlePathInSandbox)
{
    Result<QString> bundle = writeBundle(resolveCertificateFiles(extraCaCertificates));
    if (!bundle)
        return bundle.error();
    SandboxView view;
    view.bundlePath = bundle.value();
    const QString visible = bundlePathInSandbox.isEmpty() ? bundle.value() : bundlePathInSandbox;
    for (const QString &variable : PolicyCredential::caBundleVariables())
        view.environment.insert(variable, visible);
    for (const PolicyCredential &credential : credentials) {
        if (!credential.env.isEmpty())
            view.environment.insert(credential.env, QString::fromUtf8(placeholder(credential.name)));
    }
    return view;
}

} // namespace sandbox
