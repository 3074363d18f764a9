// The Docker backend's ssh:// endpoints (packs/power/docker/SshEndpoint): the parts Podman's
// and Docker's remote URLs have, and nothing ssh could read as an option.
#include "docker/SshEndpoint.h"

#include <QTest>

using sandbox::power::SshEndpoint;

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
};

QTEST_GUILESS_MAIN(TestSshEndpoint)

#include "tst_sshendpoint.moc"
