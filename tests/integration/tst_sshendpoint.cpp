// The Docker backend's ssh:// endpoints (packs/power/docker/SshEndpoint): the parts Podman's
// and Docker's remote URLs have, and nothing ssh could read as an option; and its tcp://
// endpoints (TcpEndpoint): host and port only, and which hosts are loopback (plain TCP).
#include "docker/SshEndpoint.h"
#include "docker/TcpEndpoint.h"

#include <QTest>

using sandbox::power::SshEndpoint;
using sandbox::power::TcpEndpoint;

class TestSshEndpoint final : public QObject
{
    Q_OBJECT

private slots:
    void parsesRemoteUrls()
    {
        const auto full
            = SshEndpoint::parse(QStringLiteral("ssh://core@build.example.org:2222/run/podman/podman.sock"));
        QVERIFY2(full.ok(), full.ok() ? "" : qPrintable(full.error().message));
        QCOMPARE(full.value().user, QStringLiteral("core"));
        QCOMPARE(full.value().host, QStringLiteral("build.example.org"));
        QCOMPARE(full.value().port, 2222);
        QCOMPARE(full.value().socketPath, QStringLiteral("/run/podman/podman.sock"));

        const auto plain = SshEndpoint::parse(QStringLiteral("ssh://me@10.0.0.7"));
        QVERIFY(plain.ok());
        QCOMPARE(plain.value().port, 22);
        QCOMPARE(plain.value().socketPath, QStringLiteral("/var/run/docker.sock"));
        QCOMPARE(plain.value().text(), QStringLiteral("ssh://me@10.0.0.7:22/var/run/docker.sock"));
    }

    void refusesWhatSshWouldMisread_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("why");
        QTest::newRow("no user") << QStringLiteral("ssh://host.example.org") << QStringLiteral("names no user");
        QTest::newRow("option as user") << QStringLiteral("ssh://-oProxyCommand=x@host") << QStringLiteral("user");
        QTest::newRow("option as host") << QStringLiteral("ssh://me@-oProxyCommand=x") << QStringLiteral("host");
        QTest::newRow("password") << QStringLiteral("ssh://me:secret@host") << QStringLiteral("passwords");
        QTest::newRow("query") << QStringLiteral("ssh://me@host/run/x.sock?secure=1") << QStringLiteral("query");
        QTest::newRow("other scheme") << QStringLiteral("tcp://host:2375") << QStringLiteral("ssh://");
    }

    void refusesWhatSshWouldMisread()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, why);
        const auto parsed = SshEndpoint::parse(endpoint);
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().where, QStringLiteral("endpoint"));
        QVERIFY2(parsed.error().message.contains(why), qPrintable(parsed.error().message));
    }

    void parsesTcpEndpoints_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("loopback");
        QTest::addColumn<QString>("text");
        QTest::newRow("name") << QStringLiteral("tcp://docker.example.org:2376") << QStringLiteral("docker.example.org")
                              << 2376 << false << QStringLiteral("tcp://docker.example.org:2376");
        QTest::newRow("address") << QStringLiteral("tcp://10.0.0.7:2376/") << QStringLiteral("10.0.0.7") << 2376
                                 << false << QStringLiteral("tcp://10.0.0.7:2376");
        QTest::newRow("loopback v4") << QStringLiteral("tcp://127.0.0.1:2375") << QStringLiteral("127.0.0.1") << 2375
                                     << true << QStringLiteral("tcp://127.0.0.1:2375");
        QTest::newRow("loopback range") << QStringLiteral("tcp://127.8.9.10:2375") << QStringLiteral("127.8.9.10")
                                        << 2375 << true << QStringLiteral("tcp://127.8.9.10:2375");
        QTest::newRow("loopback v6") << QStringLiteral("tcp://[::1]:2375") << QStringLiteral("::1") << 2375 << true
                                     << QStringLiteral("tcp://[::1]:2375");
        QTest::newRow("localhost") << QStringLiteral("tcp://LocalHost:2375") << QStringLiteral("localhost") << 2375
                                   << true << QStringLiteral("tcp://localhost:2375");
        QTest::newRow("v6 elsewhere") << QStringLiteral("tcp://[2001:db8::1]:2376") << QStringLiteral("2001:db8::1")
                                      << 2376 << false << QStringLiteral("tcp://[2001:db8::1]:2376");
        QTest::newRow("name like loopback")
            << QStringLiteral("tcp://127.0.0.1.example.org:2375") << QStringLiteral("127.0.0.1.example.org") << 2375
            << false << QStringLiteral("tcp://127.0.0.1.example.org:2375");
    }

    void parsesTcpEndpoints()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(bool, loopback);
        QFETCH(QString, text);
        QVERIFY(TcpEndpoint::isTcp(endpoint));
        const auto parsed = TcpEndpoint::parse(endpoint);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(parsed.error().message));
        QCOMPARE(parsed.value().host, host);
        QCOMPARE(parsed.value().port, port);
        QCOMPARE(parsed.value().isLoopback(), loopback);
        QCOMPARE(parsed.value().text(), text);
    }

    void refusesOtherTcpParts_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("why");
        QTest::newRow("no port") << QStringLiteral("tcp://docker.example.org") << QStringLiteral("names no port");
        QTest::newRow("user") << QStringLiteral("tcp://me@docker.example.org:2376") << QStringLiteral("user");
        QTest::newRow("path") << QStringLiteral("tcp://docker.example.org:2376/v1.41") << QStringLiteral("path");
        QTest::newRow("query") << QStringLiteral("tcp://docker.example.org:2376?tls=0") << QStringLiteral("query");
        QTest::newRow("option as host") << QStringLiteral("tcp://-x:2376") << QStringLiteral("host");
        QTest::newRow("other scheme") << QStringLiteral("ssh://me@host") << QStringLiteral("tcp://");
    }

    void refusesOtherTcpParts()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, why);
        const auto parsed = TcpEndpoint::parse(endpoint);
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().where, QStringLiteral("endpoint"));
        QVERIFY2(parsed.error().message.contains(why), qPrintable(parsed.error().message));
    }
};

QTEST_GUILESS_MAIN(TestSshEndpoint)

#include "tst_sshendpoint.moc"
