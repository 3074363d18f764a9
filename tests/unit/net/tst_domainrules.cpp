// Allowed/denied domain matching and the classification of internal addresses.
#include "net/AddressClass.h"
#include "net/DomainRules.h"

#include <QTest>

using namespace sandbox;

class TestDomainRules final : public QObject
{
    Q_OBJECT

private slots:
    void rejectsMalformedEntries_data();
    void rejectsMalformedEntries();
    void reportsEveryBadEntryWithItsPath();
    void matches_data();
    void matches();
    void denyWinsAndSaysWhy();
    void exactOnlyForNamedHosts();
    void aDefaultPortOnlyWhereNoneIsGiven();
    void classifiesAddresses_data();
    void classifiesAddresses();
};

void TestDomainRules::rejectsMalformedEntries_data()
{
    QTest::addColumn<QString>("entry");
    for (const char *entry :
         { "exa mple.com", "*.*.example.com", "example.*", "ex*ample.com", "example.com:0", "example.com:70000",
           "example.com:", "[::1", "[::1]x", "*.10.0.0.1", "", "-bad-.com", "example..com", "example.com:http" })
        QTest::newRow(entry) << QString::fromLatin1(entry);
}

void TestDomainRules::rejectsMalformedEntries()
{
    QFETCH(QString, entry);
    const Result<DomainRules> rules = DomainRules::parse({ entry }, {});
    QVERIFY(!rules);
    QVERIFY2(rules.error().where.endsWith(QStringLiteral("allowedDomains[0]")), qPrintable(rules.error().where));
}

void TestDomainRules::reportsEveryBadEntryWithItsPath()
{
    const Result<DomainRules> rules
        = DomainRules::parse({ QStringLiteral("ok.example"), QStringLiteral("bad entry") }, { QStringLiteral("*") });
    QVERIFY(!rules);
    QCOMPARE(rules.error().details.size(), 2);
    QCOMPARE(rules.error().details[0].where, QStringLiteral("policy.network.allowedDomains[1]"));
    QCOMPARE(rules.error().details[1].where, QStringLiteral("policy.network.deniedDomains[0]"));
}

void TestDomainRules::matches_data()
{
    QTest::addColumn<QStringList>("allowed");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("expected");
    const QStringList wildcard{ QStringLiteral("*.example.com") };
    QTest::newRow("wildcard subdomain") << wildcard << QStringLiteral("api.example.com") << 443 << true;
    QTest::newRow("wildcard deep subdomain") << wildcard << QStringLiteral("a.b.example.com") << 443 << true;
    QTest::newRow("wildcard not apex") << wildcard << QStringLiteral("example.com") << 443 << false;
    QTest::newRow("wildcard not suffix trick") << wildcard << QStringLiteral("evilexample.com") << 443 << false;
    QTest::newRow("wildcard not prefix trick") << wildcard << QStringLiteral("example.com.evil.net") << 443 << false;
    const QStringList both{ QStringLiteral("*.example.com"), QStringLiteral("example.com") };
    QTest::newRow("apex when listed") << both << QStringLiteral("example.com") << 80 << true;
    QTest::newRow("exact any port") << QStringList{ QStringLiteral("example.org") } << QStringLiteral("example.org")
                                    << 8443 << true;
    QTest::newRow("exact not subdomain") << QStringList{ QStringLiteral("example.org") }
                                         << QStringLiteral("www.example.org") << 443 << false;
    QTest::newRow("case insensitive") << QStringList{ QStringLiteral("Example.ORG") } << QStringLiteral("EXAMPLE.org")
                                      << 443 << true;
    QTest::newRow("trailing dot") << QStringList{ QStringLiteral("example.org") } << QStringLiteral("example.org.")
                                  << 443 << true;
    QTest::newRow("port matches") << QStringList{ QStringLiteral("example.org:8080") } << QStringLiteral("example.org")
                                  << 8080 << true;
    QTest::newRow("port differs") << QStringList{ QStringLiteral("example.org:8080") } << QStringLiteral("example.org")
                                  << 443 << false;
    QTest::newRow("ipv4 literal") << QStringList{ QStringLiteral("192.0.2.7") } << QStringLiteral("192.0.2.7") << 80
                                  << true;
    QTest::newRow("ipv6 literal bracketed")
        << QStringList{ QStringLiteral("[2001:db8::1]:443") } << QStringLiteral("2001:db8::1") << 443 << true;
    QTest::newRow("ipv6 other spelling") << QStringList{ QStringLiteral("[2001:db8::1]") }
                                         << QStringLiteral("[2001:0db8:0:0:0:0:0:1]") << 80 << true;
    QTest::newRow("name is not its address")
        << QStringList{ QStringLiteral("localhost") } << QStringLiteral("127.0.0.1") << 80 << false;
    QTest::newRow("address is not a name")
        << QStringList{ QStringLiteral("127.0.0.1") } << QStringLiteral("localhost") << 80 << false;
    QTest::newRow("garbage host") << QStringList{ QStringLiteral("example.org") } << QStringLiteral("exa mple.org")
                                  << 80 << false;
    QTest::newRow("empty list") << QStringList{} << QStringLiteral("example.org") << 80 << false;
}

void TestDomainRules::matches()
{
    QFETCH(QStringList, allowed);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, expected);
    const Result<DomainRules> rules = DomainRules::parse(allowed, {});
    QVERIFY2(rules, rules ? "" : qPrintable(rules.error().toString()));
    const DomainRules::Decision decision = rules.value().check(host, quint16(port));
    QCOMPARE(decision.allowed, expected);
    QCOMPARE(decision.reason.isEmpty(), expected);
}

void TestDomainRules::denyWinsAndSaysWhy()
{
    const Result<DomainRules> rules
        = DomainRules::parse({ QStringLiteral("*.example.com"), QStringLiteral("example.com") },
                             { QStringLiteral("secret.example.com"), QStringLiteral("example.com:22") });
    QVERIFY(rules);
    QVERIFY(rules.value().check(QStringLiteral("api.example.com"), 443).allowed);
    const auto denied = rules.value().check(QStringLiteral("secret.example.com"), 443);
    QVERIFY(!denied.allowed);
    QVERIFY2(denied.reason.contains(QStringLiteral("denied")), qPrintable(denied.reason));
    QVERIFY(!rules.value().check(QStringLiteral("example.com"), 22).allowed);
    QVERIFY(rules.value().check(QStringLiteral("example.com"), 443).allowed);
}

void TestDomainRules::exactOnlyForNamedHosts()
{
    const Result<DomainRules> rules
        = DomainRules::parse({ QStringLiteral("*.corp.test"), QStringLiteral("db.corp.test") }, {});
    QVERIFY(rules);
    QVERIFY(!rules.value().check(QStringLiteral("web.corp.test"), 80).exact);
    QVERIFY(rules.value().check(QStringLiteral("db.corp.test"), 80).exact);
}

void TestDomainRules::aDefaultPortOnlyWhereNoneIsGiven()
{
    const Result<DomainRules> rules = DomainRules::parse(
        { QStringLiteral("forge.example"), QStringLiteral("*.forge.example"), QStringLiteral("git.example:8443"),
          QStringLiteral("192.0.2.7"), QStringLiteral("[2001:db8::1]"), QStringLiteral("[2001:db8::2]:22") },
        {}, QStringLiteral("policy.credentials[0].hosts"), 443);
    QVERIFY2(rules, rules ? "" : qPrintable(rules.error().toString()));
    const DomainRules &hosts = rules.value();
    QVERIFY(hosts.check(QStringLiteral("forge.example"), 443).allowed);
    QVERIFY(!hosts.check(QStringLiteral("forge.example"), 22).allowed);
    QVERIFY(hosts.check(QStringLiteral("api.forge.example"), 443).allowed);
    QVERIFY(!hosts.check(QStringLiteral("api.forge.example"), 80).allowed);
    QVERIFY(hosts.check(QStringLiteral("git.example"), 8443).allowed);
    QVERIFY(!hosts.check(QStringLiteral("git.example"), 443).allowed);
    QVERIFY(hosts.check(QStringLiteral("192.0.2.7"), 443).allowed);
    QVERIFY(!hosts.check(QStringLiteral("192.0.2.7"), 80).allowed);
    QVERIFY(hosts.check(QStringLiteral("2001:db8::1"), 443).allowed);
    QVERIFY(!hosts.check(QStringLiteral("2001:db8::1"), 80).allowed);
    QVERIFY(hosts.check(QStringLiteral("2001:db8::2"), 22).allowed);
    QVERIFY(!hosts.check(QStringLiteral("2001:db8::2"), 443).allowed);

    // The error names the entry as written, and where it is.
    const Result<DomainRules> bad = DomainRules::parse({ QStringLiteral("bad..example") }, {},
                                                       QStringLiteral("policy.credentials[0].hosts"), 443);
    QVERIFY(!bad);
    QCOMPARE(bad.error().where, QStringLiteral("policy.credentials[0].hosts.allowedDomains[0]"));
    QVERIFY2(bad.error().message.contains(QStringLiteral("'bad..example' ")), qPrintable(bad.error().message));
}

void TestDomainRules::classifiesAddresses_data()
{
    QTest::addColumn<QString>("address");
    QTest::addColumn<bool>("internal");
    const QList<QPair<const char *, bool>> cases = {
        { "8.8.8.8", false },
        { "1.1.1.1", false },
        { "2606:4700::1111", false },
        { "127.0.0.1", true },
        { "127.9.9.9", true },
        { "10.1.2.3", true },
        { "172.16.0.1", true },
        { "172.31.255.255", true },
        { "172.32.0.1", false },
        { "192.168.1.1", true },
        { "169.254.169.254", true },
        { "100.64.0.1", true },
        { "0.0.0.0", true },
        { "224.0.0.1", true },
        { "255.255.255.255", true },
        { "::1", true },
        { "::", true },
        { "fe80::1", true },
        { "fc00::1", true },
        { "fd12:3456::1", true },
        { "ff02::1", true },
        { "::ffff:127.0.0.1", true },
        { "::ffff:10.0.0.1", true },
        { "::ffff:8.8.8.8", false },
        { "64:ff9b::a00:1", true },
        { "2002:7f00:1::", true },
        { "2001:db8::1", true },
    };
    for (const auto &[text, internal] : cases)
        QTest::newRow(text) << QString::fromLatin1(text) << internal;
}

void TestDomainRules::classifiesAddresses()
{
    QFETCH(QString, address);
    QFETCH(bool, internal);
    QCOMPARE(!AddressClass::internalKind(QHostAddress(address)).isEmpty(), internal);
}

QTEST_GUILESS_MAIN(TestDomainRules)
#include "tst_domainrules.moc"
