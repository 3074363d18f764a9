// LoopbackBridge, as macOS's auto launcher uses it: a port on 127.0.0.1 that reaches the
// engine's real filtering proxy channel, so the proxy's answers (a refusal) come back through
// it, what the proxy refuses is reported, and ending the bridge ends the connection.
#include "launchers/auto/LoopbackBridge.h"
#include "net/DomainRules.h"
#include "net/FilteringProxy.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace sandbox;

class TestLoopbackBridge final : public QObject
{
    Q_OBJECT

private slots:
    void refusalComesBackThroughTheBridge();
    void endingTheBridgeEndsItsConnections();
    void bridgeToNoChannelClosesTheConnection();
};

void TestLoopbackBridge::refusalComesBackThroughTheBridge()
{
    QTemporaryDir runtime(QStringLiteral("/var/tmp/bridge-test-XXXXXX"));
    QVERIFY(runtime.isValid());
    FilteringProxy proxy(runtime.path());
    Result<DomainRules> rules = DomainRules::parse({ QStringLiteral("allowed.example") }, {});
    QVERIFY(rules);
    std::atomic<int> refusals{ 0 };
    Result<QString> channel = proxy.openChannel(rules.value(), [&refusals](const QString &target, const QString &) {
        if (target.contains(QLatin1String("denied.example")))
            ++refusals;
    });
    QVERIFY2(channel, qPrintable(channel ? QString() : channel.error().message));

    LoopbackBridge bridge(channel.value());
    Result<quint16> port = bridge.listen();
    QVERIFY(port);
    QVERIFY(port.value() != 0);
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, port.value());
    QVERIFY(client.waitForConnected(10000));
    client.write("CONNECT denied.example:443 HTTP/1.1\r\nHost: denied.example:443\r\n\r\n");
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT((answer += client.readAll()).contains("\r\n"), 10000);
    QVERIFY2(answer.startsWith("HTTP/1.1 403"), answer.constData());
    QTRY_COMPARE_WITH_TIMEOUT(refusals.load(), 1, 10000);
}

void TestLoopbackBridge::endingTheBridgeEndsItsConnections()
{
    QTemporaryDir runtime(QStringLiteral("/var/tmp/bridge-test-XXXXXX"));
    QVERIFY(runtime.isValid());
    FilteringProxy proxy(runtime.path());
    Result<DomainRules> rules = DomainRules::parse({ QStringLiteral("allowed.example") }, {});
    QVERIFY(rules);
    Result<QString> channel = proxy.openChannel(rules.value());
    QVERIFY(channel);
    auto bridge = std::make_unique<LoopbackBridge>(channel.value());
    Result<quint16> port = bridge->listen();
    QVERIFY(port);
    QTcpSocket client;
    QSignalSpy closed(&client, &QTcpSocket::disconnected);
    client.connectToHost(QHostAddress::LocalHost, port.value());
    QVERIFY(client.waitForConnected(10000));
    // The proxy holds the connection open, waiting for the rest of the request.
    client.write("CONNECT ");
    QTRY_COMPARE_WITH_TIMEOUT(bridge->connectionCount(), 1, 10000);
    bridge.reset();
    QVERIFY(closed.wait(10000));
}

void TestLoopbackBridge::bridgeToNoChannelClosesTheConnection()
{
    QTemporaryDir runtime(QStringLiteral("/var/tmp/bridge-test-XXXXXX"));
    QVERIFY(runtime.isValid());
    LoopbackBridge bridge(runtime.filePath(QStringLiteral("no-such-socket")));
    Result<quint16> port = bridge.listen();
    QVERIFY(port);
    QTcpSocket client;
    QSignalSpy closed(&client, &QTcpSocket::disconnected);
    client.connectToHost(QHostAddress::LocalHost, port.value());
    QVERIFY(client.waitForConnected(10000));
    QVERIFY(closed.wait(10000));
    QTRY_COMPARE_WITH_TIMEOUT(bridge.connectionCount(), 0, 10000);
}

QTEST_GUILESS_MAIN(TestLoopbackBridge)
#include "tst_loopbackbridge.moc"
