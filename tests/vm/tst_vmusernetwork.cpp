// Network "full" for the VM backend without a VM: what a policy opens and closes, the routes
// that keep the host and internal networks out, and the namespace a program (QEMU in the
// backend, a shell here) really starts in, with slirp4netns as its only way out.
#include "launchers/vm/drivers/UserNetwork.h"

#include <QHostAddress>
#include <QNetworkInterface>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <memory>
#include <unistd.h>

using sandbox::UserNetwork;

namespace {

quint32 ip(const char *text)
{
    return QHostAddress(QString::fromLatin1(text)).toIPv4Address();
}

// Whether the namespace's routing table refuses `address`: its most specific route is one of
// `routes` rather than what slirp4netns adds (its network on the tap, the default route).
bool prohibited(const QList<UserNetwork::Route> &routes, quint32 address)
{
    auto covers = [address](quint32 network, int prefix) {
        const quint32 mask = prefix == 0 ? 0 : ~quint32(0) << (32 - prefix);
        return (address & mask) == network;
    };
    int longest = -1;
    for (const UserNetwork::Route &route : routes) {
        if (covers(route.network, route.prefix))
            longest = qMax(longest, route.prefix);
    }
    const int connected = covers(ip("10.0.3.0"), 24) ? 24 : 0;
    return longest >= connected;
}

// A non-loopback IPv4 address of this host (the machine running the tests has one).
QHostAddress ownAddress()
{
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !address.isLoopback())
            return address;
    }
    return {};
}

} // namespace

class TestVmUserNetwork final : public QObject
{
    Q_OBJECT

private slots:
    void policyOpensInternalLiteralsWithoutPortsOnly();
    void policyEntriesTheVmCannotHonourAreRefused();
    void routesProhibitEveryInternalAddressButTheNamed();
    void programStartsInTheNamespaceWithTheRoutesInPlace();
    void aNamedHostAddressIsReachableThroughSlirp4netns();

private:
    // Runs `script` (bash) in a namespace armed for `addresses`; its output once it ends.
    QByteArray runInside(const UserNetwork::Addresses &addresses, const QString &script);
};

void TestVmUserNetwork::policyOpensInternalLiteralsWithoutPortsOnly()
{
    const auto addresses = UserNetwork::fromPolicy(
        { QStringLiteral("example.com"), QStringLiteral("192.168.1.20"), QStringLiteral("8.8.8.8"),
          QStringLiteral("10.1.2.3"), QStringLiteral("*.corp.example"), QStringLiteral("8.8.4.4:53"),
          QStringLiteral("192.168.1.20") },
        { QStringLiteral("10.1.2.3"), QStringLiteral("9.9.9.9:53"), QStringLiteral("evil.example") });
    QVERIFY2(addresses.ok(), qPrintable(addresses.ok() ? QString() : addresses.error().message));
    // Names and public addresses open nothing (public ones are reachable anyway); deny wins.
    QCOMPARE(addresses.value().opened, QList<quint32>{ ip("192.168.1.20") });
    QCOMPARE(addresses.value().closed, (QList<quint32>{ ip("10.1.2.3"), ip("9.9.9.9") }));
}

void TestVmUserNetwork::policyEntriesTheVmCannotHonourAreRefused()
{
    const QList<std::pair<QString, QString>> cases{
        { QStringLiteral("127.0.0.1"), QStringLiteral("loopback") },
        { QStringLiteral("127.1.2.3"), QStringLiteral("loopback") },
        { QStringLiteral("10.0.2.2"), QStringLiteral("own user-mode networks") },
        { QStringLiteral("10.0.3.3"), QStringLiteral("own user-mode networks") },
        { QStringLiteral("172.16.0.9:22"), QStringLiteral("with a port") },
    };
    for (const auto &[entry, reason] : cases) {
        const auto refused = UserNetwork::fromPolicy({ QStringLiteral("example.com"), entry }, {});
        QVERIFY2(!refused.ok(), qPrintable(entry));
        QVERIFY2(refused.error().message.contains(entry) && refused.error().message.contains(reason),
                 qPrintable(refused.error().message));
    }
    // Denying any of them is fine: it closes what is closed already.
    QVERIFY(UserNetwork::fromPolicy({}, { QStringLiteral("127.0.0.1"), QStringLiteral("172.16.0.9:22") }).ok());
}

void TestVmUserNetwork::routesProhibitEveryInternalAddressButTheNamed()
{
    UserNetwork::Addresses addresses;
    addresses.opened = { ip("192.168.1.20"), ip("10.9.8.7") };
    addresses.closed = { ip("9.9.9.9") };
    const QList<UserNetwork::Route> routes
        = UserNetwork::prohibitedRoutes(addresses, { ip("8.8.4.4"), ip("192.168.1.20"), ip("172.17.0.1") });
    for (const char *address :
         { "127.0.0.1",       "127.255.255.254", "10.0.0.1",   "10.9.8.6",   "10.9.8.8",    "10.0.2.2",
           "10.0.3.1",        "10.0.3.4",        "10.0.3.255", "172.16.5.5", "172.17.0.1",  "192.168.1.19",
           "192.168.1.21",    "169.254.169.254", "100.64.0.1", "0.0.0.0",    "224.0.0.251", "239.255.255.250",
           "255.255.255.255", "192.0.2.2",       "8.8.4.4",    "9.9.9.9" })
        QVERIFY2(prohibited(routes, ip(address)), address);
    // The named ones, public addresses, and slirp4netns's gateway and DNS forwarder.
    for (const char *address : { "192.168.1.20", "10.9.8.7", "1.1.1.1", "8.8.8.8", "10.0.3.2", "10.0.3.3" })
        QVERIFY2(!prohibited(routes, ip(address)), address);
}

QByteArray TestVmUserNetwork::runInside(const UserNetwork::Addresses &addresses, const QString &script)
{
    UserNetwork network(addresses);
    QString failure;
    connect(&network, &UserNetwork::failed, this, [&failure](const QString &reason) { failure = reason; });
    QProcess program;
    program.setProcessChannelMode(QProcess::MergedChannels);
    network.arm(program);
    // The script waits for a line: by then slirp4netns has brought the way out up.
    QSignalSpy ready(&network, &UserNetwork::ready);
    program.start(QStringLiteral("bash"), { QStringLiteral("-c"), QStringLiteral("read go; ") + script });
    if (!ready.wait(30000))
        return "no way out: " + failure.toUtf8();
    program.write("go\n");
    program.closeWriteChannel();
    if (!program.waitForFinished(60000)) {
        program.kill();
        program.waitForFinished();
        return program.readAll() + "\ndid not finish: " + program.errorString().toUtf8();
    }
    network.stop();
    if (!failure.isEmpty())
        return failure.toUtf8();
    const QByteArray output = program.readAll();
    if (program.exitStatus() == QProcess::CrashExit)
        return output + "\ncrashed: " + program.errorString().toUtf8();
    return program.exitCode() == 0 ? output : output + "\nexit status " + QByteArray::number(program.exitCode());
}

void TestVmUserNetwork::programStartsInTheNamespaceWithTheRoutesInPlace()
{
    QVERIFY2(UserNetwork::availability().available, qPrintable(UserNetwork::availability().reason));
    const QHostAddress own = ownAddress();
    QVERIFY2(!own.isNull(), "the host has no IPv4 address but loopback");
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::AnyIPv4));
    const QString probe
        = QStringLiteral("(exec 3<>/dev/tcp/%1/%2) 2>/dev/null && echo %1 connected || echo %1 failed; ");
    const QByteArray output
        = runInside({},
                    QStringLiteral("ip -4 route; ") + probe.arg(QStringLiteral("127.0.0.1")).arg(server.serverPort())
                        + probe.arg(own.toString()).arg(server.serverPort())
                        + QStringLiteral("readlink /proc/self/ns/net; ip route del prohibit 10.0.0.0/8 2>&1; "
                                         "ip route add default dev lo metric 1 2>&1; grep CapEff /proc/self/status"));
    QVERIFY2(output.contains("prohibit 10.0.0.0/8") && output.contains("prohibit 127.0.0.0/8")
                 && output.contains("prohibit 192.168.0.0/16") && output.contains("prohibit 172.16.0.0/12"),
             output.constData());
    QVERIFY2(output.contains("default via 10.0.3.2 dev tap0"), output.constData());
    // Neither the host's loopback (the namespace has its own) nor its own address answers.
    QVERIFY2(output.contains("127.0.0.1 failed"), output.constData());
    QVERIFY2(output.contains((own.toString() + QStringLiteral(" failed")).toUtf8()), output.constData());
    QVERIFY(!server.waitForNewConnection(0));
    // Nor can the program change the routes: it holds no capability there.
    QVERIFY2(output.count("Operation not permitted") == 2, output.constData());
    QVERIFY2(output.contains("CapEff:\t0000000000000000"), output.constData());
    // A network namespace of its own, not the test's.
    char testNamespace[64] = {};
    QVERIFY(::readlink("/proc/self/ns/net", testNamespace, sizeof testNamespace - 1) > 0);
    QVERIFY2(output.contains("net:[") && !output.contains(testNamespace), output.constData());
}

void TestVmUserNetwork::aNamedHostAddressIsReachableThroughSlirp4netns()
{
    const QHostAddress own = ownAddress();
    QVERIFY2(!own.isNull(), "the host has no IPv4 address but loopback");
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::AnyIPv4));
    UserNetwork::Addresses addresses;
    addresses.opened = { own.toIPv4Address() };
    const QByteArray output
        = runInside(addresses,
                    QStringLiteral("(exec 3<>/dev/tcp/%1/%2) 2>/dev/null && echo connected || echo failed")
                        .arg(own.toString())
                        .arg(server.serverPort()));
    QCOMPARE(output.trimmed(), QByteArray("connected"));
    QVERIFY(server.waitForNewConnection(30000));
    std::unique_ptr<QTcpSocket> connection(server.nextPendingConnection());
    QVERIFY(connection->localAddress().isEqual(own));
}

QTEST_GUILESS_MAIN(TestVmUserNetwork)
#include "tst_vmusernetwork.moc"
