// The engine's certificate authority on real files, its certificates checked by the
// openssl command (a verifier that is not ours): made once in an owner-only directory, its
// key 0600, leaves that verify for their host only, refused when its files are not the
// user's alone, and rotation making the old leaves untrusted.
#include "net/CertificateAuthority.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace sandbox;

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

mode_t modeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? (info.st_mode & 07777) : mode_t(-1);
}

// `openssl verify` of `leaf` against `caPem` for `host`: its exit code and what it said.
QPair<int, QByteArray> verify(const QTemporaryDir &work, const QByteArray &caPem, const QByteArray &leaf,
                              const QString &host)
{
    writeFile(work.filePath(QStringLiteral("trusted.pem")), caPem);
    writeFile(work.filePath(QStringLiteral("leaf.pem")), leaf);
    QProcess openssl;
    openssl.setProcessChannelMode(QProcess::MergedChannels);
    QStringList args{ QStringLiteral("verify"), QStringLiteral("-CAfile"), work.filePath(QStringLiteral("trusted.pem")),
                      QStringLiteral("-purpose"), QStringLiteral("sslserver") };
    QHostAddress address;
    args << (address.setAddress(host) ? QStringLiteral("-verify_ip") : QStringLiteral("-verify_hostname")) << host;
    args << work.filePath(QStringLiteral("leaf.pem"));
    openssl.start(QStringLiteral("openssl"), args);
    if (!openssl.waitForFinished(30000))
        return { -1, "openssl did not finish" };
    return { openssl.exitCode(), openssl.readAll() };
}

} // namespace

class TestCertificateAuthority final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void madeOnceOwnerOnly();
    void leavesVerifyForTheirHostOnly();
    void refusesWhatIsNotTheUsersAlone();
    void rotationUntrustsOldLeaves();

private:
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_directory;
};

void TestCertificateAuthority::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    m_directory = m_root->filePath(QStringLiteral("credential-ca"));
}

void TestCertificateAuthority::madeOnceOwnerOnly()
{
    Result<std::unique_ptr<CertificateAuthority>> first = CertificateAuthority::open(m_directory);
    QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().toString()));
    QCOMPARE(modeOf(m_directory), mode_t(0700));
    QCOMPARE(modeOf(m_directory + QStringLiteral("/ca-key.pem")), mode_t(0600));
    QCOMPARE(readFile(m_directory + QStringLiteral("/ca.pem")), first.value()->certificatePem());
    QVERIFY(first.value()->certificatePem().startsWith("-----BEGIN CERTIFICATE-----"));
    QCOMPARE(QDir(m_directory).entryList(QDir::Files | QDir::Hidden),
             (QStringList{ QStringLiteral("ca-key.pem"), QStringLiteral("ca.pem") }));

    // Opened again: the same authority, not a new one.
    Result<std::unique_ptr<CertificateAuthority>> again = CertificateAuthority::open(m_directory);
    QVERIFY(again.ok());
    QCOMPARE(again.value()->certificatePem(), first.value()->certificatePem());
    // A leaf the first one made verifies against the second one's certificate.
    const CertificateAuthority::Leaf leaf = first.value()->leafFor(QStringLiteral("github.com")).value();
    const auto [code, said]
        = verify(*m_root, again.value()->certificatePem(), leaf.certificatePem, QStringLiteral("github.com"));
    QVERIFY2(code == 0, said.constData());
}

void TestCertificateAuthority::leavesVerifyForTheirHostOnly()
{
    std::unique_ptr<CertificateAuthority> ca = CertificateAuthority::open(m_directory).value();
    const CertificateAuthority::Leaf leaf = ca->leafFor(QStringLiteral("api.example.com")).value();
    QVERIFY(leaf.keyPem.startsWith("-----BEGIN PRIVATE KEY-----"));
    auto [code, said] = verify(*m_root, ca->certificatePem(), leaf.certificatePem, QStringLiteral("api.example.com"));
    QVERIFY2(code == 0, said.constData());
    std::tie(code, said) = verify(*m_root, ca->certificatePem(), leaf.certificatePem, QStringLiteral("example.com"));
    QVERIFY2(code != 0, said.constData());
    QVERIFY2(said.contains("hostname mismatch"), said.constData());

    // Made once per host and kept in memory only: nothing new in the directory.
    QCOMPARE(ca->leafFor(QStringLiteral("api.example.com")).value().certificatePem, leaf.certificatePem);
    QCOMPARE(QDir(m_directory).entryList(QDir::Files | QDir::Hidden).size(), 2);

    const CertificateAuthority::Leaf ip = ca->leafFor(QStringLiteral("127.0.0.1")).value();
    std::tie(code, said) = verify(*m_root, ca->certificatePem(), ip.certificatePem, QStringLiteral("127.0.0.1"));
    QVERIFY2(code == 0, said.constData());

    // Nothing that could smuggle another name into the certificate.
    for (const QString &bad : { QStringLiteral("a.com,DNS:b.com"), QStringLiteral("A.COM"), QString(),
                                QStringLiteral("a b.com"), QStringLiteral("*.example.com") })
        QVERIFY2(!ca->leafFor(bad).ok(), qPrintable(bad));
}

void TestCertificateAuthority::refusesWhatIsNotTheUsersAlone()
{
    QVERIFY(CertificateAuthority::open(m_directory).ok());
    const QString key = m_directory + QStringLiteral("/ca-key.pem");
    QVERIFY(::chmod(QFile::encodeName(key).constData(), 0640) == 0);
    Result<std::unique_ptr<CertificateAuthority>> opened = CertificateAuthority::open(m_directory);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().where, key);
    QVERIFY(opened.error().message.contains(QStringLiteral("0600")));
    QVERIFY(::chmod(QFile::encodeName(key).constData(), 0600) == 0);

    QVERIFY(::chmod(QFile::encodeName(m_directory).constData(), 0750) == 0);
    QVERIFY(!CertificateAuthority::open(m_directory).ok());
    QVERIFY(::chmod(QFile::encodeName(m_directory).constData(), 0700) == 0);

    // A key that does not belong to the certificate.
    const QString other = m_root->filePath(QStringLiteral("other"));
    QVERIFY(CertificateAuthority::open(other).ok());
    QVERIFY(QFile::remove(key));
    QVERIFY(QFile::copy(other + QStringLiteral("/ca-key.pem"), key));
    QVERIFY(::chmod(QFile::encodeName(key).constData(), 0600) == 0);
    opened = CertificateAuthority::open(m_directory);
    QVERIFY(!opened.ok());
    QVERIFY2(opened.error().message.contains(QStringLiteral("does not belong")), qPrintable(opened.error().toString()));

    // Only one of the two files.
    QVERIFY(QFile::remove(key));
    opened = CertificateAuthority::open(m_directory);
    QVERIFY(!opened.ok());
    QVERIFY(opened.error().message.contains(QStringLiteral("rotate")));
}

void TestCertificateAuthority::rotationUntrustsOldLeaves()
{
    std::unique_ptr<CertificateAuthority> old = CertificateAuthority::open(m_directory).value();
    const QByteArray oldLeaf = old->leafFor(QStringLiteral("github.com")).value().certificatePem;
    std::unique_ptr<CertificateAuthority> rotated = CertificateAuthority::rotate(m_directory).value();
    QVERIFY(rotated->certificatePem() != old->certificatePem());
    QCOMPARE(readFile(m_directory + QStringLiteral("/ca.pem")), rotated->certificatePem());
    QCOMPARE(modeOf(m_directory + QStringLiteral("/ca-key.pem")), mode_t(0600));
    auto [code, said] = verify(*m_root, rotated->certificatePem(), oldLeaf, QStringLiteral("github.com"));
    QVERIFY2(code != 0, said.constData());
    std::tie(code, said)
        = verify(*m_root, rotated->certificatePem(),
                 rotated->leafFor(QStringLiteral("github.com")).value().certificatePem, QStringLiteral("github.com"));
    QVERIFY2(code == 0, said.constData());
    QCOMPARE(CertificateAuthority::open(m_directory).value()->certificatePem(), rotated->certificatePem());
}

QTEST_GUILESS_MAIN(TestCertificateAuthority)
#include "tst_certificateauthority.moc"
