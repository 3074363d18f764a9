// The engine's credential injection without a proxy: which connections a channel's
// credentials terminate (and where each placeholder belongs), on a real certificate
// authority in a temporary directory.
#include "net/CredentialInjector.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;

class TestCredentialInjector final : public QObject
{
    Q_OBJECT

private slots:
    void channelTerminatesOnlyItsHosts_data();
    void channelTerminatesOnlyItsHosts();
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

QTEST_GUILESS_MAIN(TestCredentialInjector)
#include "tst_credentialinjector.moc"
