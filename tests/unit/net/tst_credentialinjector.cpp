// The engine's credential injection without a proxy: which connections a channel's
// credentials terminate (and where each placeholder belongs), and the certificate bundle a
// sandbox is given (made again when one of its files changed, not otherwise), on a real
// certificate authority in a temporary directory.
#include "net/CertificateAuthority.h"
#include "net/CredentialInjector.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/inotify.h>
#include <unistd.h>

using namespace sandbox;

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// Counts the times a file is opened, by anyone: the kernel queues an inotify event before
// open() returns, so what a call opened is counted once it has returned.
class OpenCounter final
{
public:
    explicit OpenCounter(const QString &path)
        : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
    {
        if (m_fd >= 0)
            m_watch = inotify_add_watch(m_fd, QFile::encodeName(path).constData(), IN_OPEN);
    }
    ~OpenCounter()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    OpenCounter(const OpenCounter &) = delete;
    OpenCounter &operator=(const OpenCounter &) = delete;

    bool isValid() const { return m_fd >= 0 && m_watch >= 0; }
    // The opens since the previous call.
    int take()
    {
        int opens = 0;
        alignas(inotify_event) char buffer[4096];
        for (;;) {
            const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
            if (n <= 0)
                return opens;
            for (ssize_t at = 0; at < n;) {
                const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
                if (event->mask & IN_OPEN)
                    ++opens;
                at += ssize_t(sizeof(inotify_event) + event->len);
            }
        }
    }

private:
    int m_fd;
    int m_watch = -1;
};

} // namespace

class TestCredentialInjector final : public QObject
{
    Q_OBJECT

private slots:
    void channelTerminatesOnlyItsHosts_data();
    void channelTerminatesOnlyItsHosts();
    void bundleIsMadeAgainOnlyWhenAFileChanged();
};

void TestCredentialInjector::channelTerminatesOnlyItsHosts_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("forge");
    QTest::addColumn<bool>("mirror");
    // A host without a port is its HTTPS port only.
    QTest::newRow("named, 443") << QStringLiteral("forge.example") << 443 << true << false;
    QTest::newRow("named, ssh") << QStringLiteral("forge.example") << 22 << false << false;
    QTest::newRow("wildcard, 443") << QStringLiteral("api.forge.example") << 443 << true << false;
    QTest::newRow("wildcard, other port") << QStringLiteral("api.forge.example") << 80 << false << false;
    QTest::newRow("excluded") << QStringLiteral("raw.forge.example") << 443 << false << false;
    QTest::newRow("own port") << QStringLiteral("git.other.example") << 8443 << true << false;
    QTest::newRow("own port, not 443") << QStringLiteral("git.other.example") << 443 << false << false;
    QTest::newRow("address, 443") << QStringLiteral("192.0.2.7") << 443 << true << false;
    QTest::newRow("address, other port") << QStringLiteral("192.0.2.7") << 80 << false << false;
    QTest::newRow("ipv6, 443") << QStringLiteral("2001:db8::1") << 443 << true << false;
    QTest::newRow("ipv6, other port") << QStringLiteral("2001:db8::1") << 80 << false << false;
    QTest::newRow("second credential") << QStringLiteral("mirror.example") << 443 << false << true;
    QTest::newRow("nobody's") << QStringLiteral("elsewhere.example") << 443 << false << false;
}

void TestCredentialInjector::channelTerminatesOnlyItsHosts()
{
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, forge);
    QFETCH(bool, mirror);
    QTemporaryDir root;
    QVERIFY(root.isValid());
    CredentialInjector injector(root.filePath(QStringLiteral("ca")), root.filePath(QStringLiteral("bundles")), {});
    PolicyCredential first;
    first.name = QStringLiteral("forge");
    first.hosts
        = { QStringLiteral("forge.example"), QStringLiteral("*.forge.example"),
            QStringLiteral("git.other.example:8443"), QStringLiteral("192.0.2.7"), QStringLiteral("[2001:db8::1]") };
    first.excludeHosts = { QStringLiteral("raw.forge.example") };
    PolicyCredential second;
    second.name = QStringLiteral("mirror");
    second.hosts = { QStringLiteral("mirror.example:443") };
    const auto channel = injector.channelFor({ first, second }, {}, {});
    QVERIFY2(channel, channel ? "" : qPrintable(channel.error().toString()));

    QCOMPARE(channel.value()->intercepts(host, quint16(port)), forge || mirror);
    const QList<CredentialSlot> seen = channel.value()->slotsFor(host, quint16(port));
    QCOMPARE(seen.size(), 2);
    QCOMPARE(seen[0].name, QStringLiteral("forge"));
    QCOMPARE(seen[0].belongs, forge);
    QCOMPARE(seen[0].placeholder, injector.placeholder(QStringLiteral("forge")));
    QCOMPARE(seen[1].name, QStringLiteral("mirror"));
    QCOMPARE(seen[1].belongs, mirror);
}

void TestCredentialInjector::bundleIsMadeAgainOnlyWhenAFileChanged()
{
    QTemporaryDir root;
    QVERIFY(root.isValid());
    // Two real authorities to stand for the policy's extra one, before and after a change.
    const auto one = CertificateAuthority::open(root.filePath(QStringLiteral("extra-one")));
    const auto two = CertificateAuthority::open(root.filePath(QStringLiteral("extra-two")));
    QVERIFY(one && two);
    const QByteArray first = one.value()->certificatePem();
    const QByteArray second = two.value()->certificatePem();
    const QString extra = root.filePath(QStringLiteral("extra.pem"));
    QVERIFY(writeFile(extra, first));

    const QString authority = root.filePath(QStringLiteral("ca"));
    CredentialInjector injector(authority, root.filePath(QStringLiteral("bundles")), {});
    PolicyCredential credential;
    credential.name = QStringLiteral("forge");
    credential.hosts = { QStringLiteral("forge.example") };
    auto bundleFor = [&] {
        const auto view = injector.sandboxFor({ credential }, { extra });
        return view ? view.value().bundlePath : QString();
    };
    const QString made = bundleFor();
    QVERIFY(!made.isEmpty());
    const QByteArray bundle = readFile(made);
    QVERIFY(bundle.contains(first));
    const auto engineAuthority = CertificateAuthority::open(authority);
    QVERIFY(engineAuthority);
    QVERIFY(bundle.contains(engineAuthority.value()->certificatePem()));

    // Nothing changed: the same bundle, and the extra file is not even opened.
    OpenCounter opens(extra);
    QVERIFY(opens.isValid());
    QCOMPARE(bundleFor(), made);
    QCOMPARE(opens.take(), 0);
    QCOMPARE(readFile(made), bundle);

    // The file rewritten in place with another certificate: read again, a new bundle.
    QByteArray changed = second;
    if (changed.size() == first.size())
        changed += '\n';
    QVERIFY(writeFile(extra, changed));
    opens.take();
    const QString afterChange = bundleFor();
    QVERIFY(opens.take() > 0);
    QVERIFY(!afterChange.isEmpty());
    QVERIFY(afterChange != made);
    QVERIFY(readFile(afterChange).contains(second));
    QVERIFY(!readFile(afterChange).contains(first));
    QCOMPARE(bundleFor(), afterChange);
    QCOMPARE(opens.take(), 0);

    // Edited later to the same size (a changed comment): its time tells, not its size.
    QByteArray edited = changed;
    edited.prepend("# a\n");
    QVERIFY(writeFile(extra, edited));
    QVERIFY(bundleFor() != afterChange);
    QByteArray reEdited = edited;
    reEdited[2] = 'b';
    QFile file(extra);
    const QDateTime before = QFileInfo(extra).lastModified();
    QVERIFY(writeFile(extra, reEdited));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(before.addSecs(10), QFileDevice::FileModificationTime));
    file.close();
    opens.take();
    const QString afterEdit = bundleFor();
    QVERIFY(opens.take() > 0);
    QVERIFY(readFile(afterEdit).contains("# b\n"));

    // The bundle file removed (the directory cleaned): written again.
    QVERIFY(QFile::remove(afterEdit));
    QCOMPARE(bundleFor(), afterEdit);
    QVERIFY(readFile(afterEdit).contains("# b\n"));

    // The engine's authority replaced: a new bundle with the new one.
    const auto rotated = CertificateAuthority::rotate(authority);
    QVERIFY(rotated);
    injector.forgetAuthority();
    const QString afterRotation = bundleFor();
    QVERIFY(!afterRotation.isEmpty());
    QVERIFY(afterRotation != afterEdit);
    QVERIFY(readFile(afterRotation).contains(rotated.value()->certificatePem()));
}

QTEST_GUILESS_MAIN(TestCredentialInjector)
#include "tst_credentialinjector.moc"
