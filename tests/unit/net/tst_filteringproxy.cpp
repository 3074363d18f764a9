// The filtering proxy over its unix socket, against a real local HTTP server: each
// protocol, allowed and refused targets, deny-wins, ports, internal addresses, garbage;
// and chained to an upstream CONNECT proxy (tests/integration/connect-proxy.py, plain and
// TLS), with each way that can fail.
#include "UpstreamServer.h"
#include "net/CredentialInjector.h"
#include "net/FilteringProxy.h"
#include "net/UpstreamProxy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QMutex>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <poll.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace sandbox;
using namespace sandbox::test;

namespace {

// Sends `request` and reads until the proxy closes or `until` appears.
QByteArray exchange(const QString &path, const QByteArray &request, const QByteArray &until = {}, int waitMs = 5000)
{
    QLocalSocket socket;
    socket.connectToServer(path);
    if (!socket.waitForConnected(waitMs))
        return "NOT CONNECTED";
    socket.write(request);
    socket.flush();
    QByteArray reply;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < waitMs) {
        if (socket.waitForReadyRead(100))
            reply += socket.readAll();
        if (!until.isEmpty() && reply.contains(until))
            break;
        if (socket.state() != QLocalSocket::ConnectedState) {
            reply += socket.readAll();
            break;
        }
    }
    return reply;
}

// Sends `request`, shuts down the sending side at once (as `nc` does at the end of its
// input), and reads until the proxy closes. `ended` tells whether it closed in time.
QByteArray halfClosedExchange(const QString &path, const QByteArray &request, bool &ended, int waitMs = 5000)
{
    ended = false;
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    if (fd < 0 || size_t(name.size()) >= sizeof address.sun_path)
        return "NOT CONNECTED";
    memcpy(address.sun_path, name.constData(), size_t(name.size()));
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || ::write(fd, request.constData(), size_t(request.size())) != request.size() || shutdown(fd, SHUT_WR) != 0) {
        close(fd);
        return "NOT CONNECTED";
    }
    QByteArray reply;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < waitMs) {
        pollfd waiting{ fd, POLLIN, 0 };
        if (poll(&waiting, 1, int(waitMs - timer.elapsed())) <= 0)
            break;
        char buffer[4096];
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) {
            ended = true;
            break;
        }
        reply.append(buffer, n);
    }
    close(fd);
    return reply;
}

QByteArray socksConnect(const QByteArray &host, quint16 port, bool byName)
{
    QByteArray request("\x05\x01\x00", 3);
    request += QByteArray("\x05\x01\x00", 3);
    if (byName) {
        request += '\x03';
        request += char(host.size());
        request += host;
    } else {
        request += '\x01';
        for (const QByteArray &part : host.split('.'))
            request += char(part.toInt());
    }
    request += char(port >> 8);
    request += char(port & 0xff);
    return request;
}

// The values a channel's upstream proxy reads, held in memory (the engine's CredentialVault
// reads the keychain; tst_credential_injection runs through it).
class HeldValues final : public CredentialSource
{
public:
    std::optional<QByteArray> value(const QString &name) override
    {
        QMutexLocker lock(&m_mutex);
        if (!m_values.contains(name))
            return std::nullopt;
        return m_values.value(name);
    }
    void set(const QString &name, const QByteArray &value)
    {
        QMutexLocker lock(&m_mutex);
        m_values.insert(name, value);
    }

private:
    QMutex m_mutex;
    QHash<QString, QByteArray> m_values;
};

quint16 closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    const quint16 port = server.serverPort();
    server.close();
    return port;
}

} // namespace

class TestFilteringProxy final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void plainHttpIsForwardedWithoutProxyHeaders();
    void hostHeaderIsTheCheckedTarget();
    void originFormUsesTheHostHeader();
    void connectTunnels();
    void socks5ByAddressAndByName();
    void halfClosedClientsGetTheAnswer_data();
    void halfClosedClientsGetTheAnswer();
    void aLargeAnswerArrivesWhole();
    void refusalsCarryAReason();
    void everyRefusalIsToldToTheChannelsListener();
    void deniedWinsOverAllowed();
    void portsAreMatched();
    void internalAddressesNeedAnExactEntry();
    void garbageNeverBreaksTheProxy_data();
    void garbageNeverBreaksTheProxy();
    void oversizedHeadersAreRefused();
    void socksWithoutNoAuthOrWithBindIsRefused();
    void channelsAreOwnerOnlyAndClose();
    void privateChannelsHaveAFolderOfTheirOwn();
    void channelsLiveInTheEnginesRuntimeDirectory();
    void aRuntimeDirectoryNotOursAloneIsRefused_data();
    void aRuntimeDirectoryNotOursAloneIsRefused();
    void tunnelsGoThroughTheUpstreamProxy_data();
    void tunnelsGoThroughTheUpstreamProxy();
    void upstreamFailuresAreTold_data();
    void upstreamFailuresAreTold();
    void cleanupTestCase();

private:
    QString channel(const QStringList &allowed, const QStringList &denied = {});
    // Starts connect-proxy.py (once) with an authority of its own; false when it cannot.
    bool startUpstreamProxy();
    QString upstreamChannel(const PolicyUpstreamProxy &policy, const QStringList &extraCaCertificates,
                            QStringList *refusals = nullptr);
    QList<QJsonObject> proxied() const;

    UpstreamServer m_upstream;
    QTemporaryDir m_runtimeRoot;
    FilteringProxy m_proxy{ m_runtimeRoot.filePath(QStringLiteral("run")) };
    QByteArray m_target;
    bool m_ownHosts = false;
    QTemporaryDir m_hostsDir;
    QTemporaryDir m_proxyDir;
    QProcess m_connectProxy;
    quint16 m_proxyHttp = 0;
    quint16 m_proxyHttps = 0;
    std::shared_ptr<HeldValues> m_values = std::make_shared<HeldValues>();
    QMutex m_refusalsMutex;
};

void TestFilteringProxy::initTestCase()
{
    QVERIFY(m_upstream.start());
    m_target = "127.0.0.1:" + QByteArray::number(m_upstream.port());
    // A private /etc/hosts (in a mount namespace of this test only) gives names under a
    // wildcard that resolve to internal addresses, through the real resolver.
    if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0
        && mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0) {
        QFile hosts(m_hostsDir.filePath(QStringLiteral("hosts")));
        QVERIFY(hosts.open(QIODevice::WriteOnly));
        hosts.write("127.0.0.1 localhost\n127.0.0.1 api.internal.test\n127.0.0.1 db.internal.test\n");
        hosts.close();
        m_ownHosts
            = mount(QFile::encodeName(hosts.fileName()).constData(), "/etc/hosts", nullptr, MS_BIND, nullptr) == 0;
    }
}

QString TestFilteringProxy::channel(const QStringList &allowed, const QStringList &denied)
{
    const Result<DomainRules> rules = DomainRules::parse(allowed, denied);
    if (!rules)
        return {};
    const Result<QString> path = m_proxy.openChannel(rules.value());
    return path ? path.value() : QString();
}

void TestFilteringProxy::plainHttpIsForwardedWithoutProxyHeaders()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    QVERIFY(!path.isEmpty());
    const QByteArray reply = exchange(path,
                                      "GET http://" + m_target + "/some/path?q=1 HTTP/1.1\r\nHost: " + m_target
                                          + "\r\nProxy-Connection: keep-alive\r\nProxy-Authorization: x\r\n"
                                            "User-Agent: test\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 200 OK"), reply.constData());
    QVERIFY(reply.contains("upstream-ok\nGET /some/path?q=1 HTTP/1.1"));
    QVERIFY(reply.contains("User-Agent: test"));
    QVERIFY(!reply.contains("Proxy-Connection"));
    QVERIFY(!reply.contains("Proxy-Authorization"));
    QVERIFY(reply.contains("Connection: close"));
}

void TestFilteringProxy::hostHeaderIsTheCheckedTarget()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    const QByteArray reply
        = exchange(path, "GET http://" + m_target + "/ HTTP/1.1\r\nHost: other-site.example\r\n\r\n");
    QVERIFY2(reply.contains(QByteArray("Host: " + m_target)), reply.constData());
    QVERIFY(!reply.contains("other-site.example"));
}

void TestFilteringProxy::originFormUsesTheHostHeader()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    const QByteArray reply = exchange(path, "GET /direct HTTP/1.1\r\nHost: " + m_target + "\r\n\r\n");
    QVERIFY2(reply.contains("upstream-ok\nGET /direct HTTP/1.1"), reply.constData());
    // No Host at all: nothing to check, refused.
    QVERIFY(exchange(path, "GET /direct HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 400"));
}

void TestFilteringProxy::connectTunnels()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    const QByteArray reply = exchange(path,
                                      "CONNECT " + m_target + " HTTP/1.1\r\nHost: " + m_target
                                          + "\r\n\r\nGET /through-tunnel HTTP/1.1\r\nHost: x\r\n\r\n",
                                      "upstream-ok\nGET /through-tunnel");
    QVERIFY2(reply.startsWith("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK"), reply.constData());
}

void TestFilteringProxy::socks5ByAddressAndByName()
{
    const QString path = channel({ QStringLiteral("127.0.0.1"), QStringLiteral("localhost") });
    for (const bool byName : { false, true }) {
        const QByteArray request = socksConnect(byName ? "localhost" : "127.0.0.1", m_upstream.port(), byName)
            + "GET /socks HTTP/1.1\r\nHost: x\r\n\r\n";
        const QByteArray reply = exchange(path, request, "upstream-ok\nGET /socks");
        QVERIFY2(reply.startsWith(QByteArray("\x05\x00\x05\x00\x00\x01", 6)), reply.toHex().constData());
        QVERIFY(reply.contains("upstream-ok\nGET /socks"));
    }
}

void TestFilteringProxy::halfClosedClientsGetTheAnswer_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QByteArray>("expected");
    const QByteArray target = "127.0.0.1:" + QByteArray::number(m_upstream.port());
    QTest::newRow("CONNECT, request in the same write")
        << "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\nGET /half HTTP/1.1\r\nHost: x\r\n\r\n"
        << QByteArray("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK");
    QTest::newRow("plain HTTP") << "GET http://" + target + "/half HTTP/1.1\r\nHost: " + target + "\r\n\r\n"
                                << QByteArray("HTTP/1.1 200 OK");
    QTest::newRow("SOCKS5") << socksConnect("127.0.0.1", m_upstream.port(), false) + "GET /half HTTP/1.1\r\n\r\n"
                            << QByteArray("\x05\x00\x05\x00\x00\x01", 6);
    QTest::newRow("refused CONNECT") << QByteArray("CONNECT example.org:443 HTTP/1.1\r\n\r\n")
                                     << QByteArray("HTTP/1.1 403 Forbidden");
    // A request that can never be completed ends the connection instead of waiting.
    QTest::newRow("incomplete request") << QByteArray("CONNECT 127.0.0.1:1 HTTP/1.1\r\n") << QByteArray();
}

void TestFilteringProxy::halfClosedClientsGetTheAnswer()
{
    QFETCH(QByteArray, request);
    QFETCH(QByteArray, expected);
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    QVERIFY(!path.isEmpty());
    bool ended = false;
    const QByteArray reply = halfClosedExchange(path, request, ended);
    QVERIFY2(reply.startsWith(expected), reply.toHex(' ').constData());
    if (expected.contains("200 OK"))
        QVERIFY2(reply.contains("upstream-ok\nGET /half"), reply.constData());
    QVERIFY2(ended, "the proxy kept the connection open after the answer");
}

void TestFilteringProxy::aLargeAnswerArrivesWhole()
{
    // More than the proxy holds for a slow side: reading pauses and resumes, nothing is lost.
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    bool ended = false;
    const QByteArray reply = halfClosedExchange(
        path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\nGET /large HTTP/1.1\r\n\r\n", ended, 30000);
    QVERIFY(ended);
    const qsizetype body = reply.indexOf("\r\n\r\nupstream-ok");
    QVERIFY2(body > 0, reply.left(200).constData());
    QCOMPARE(reply.mid(body).count('x'), UpstreamServer::kLargeBodyBytes);
    QVERIFY(reply.endsWith('x'));
}

void TestFilteringProxy::refusalsCarryAReason()
{
    const QString path = channel({ QStringLiteral("example.com") });
    const int before = m_upstream.requests();
    QByteArray reply = exchange(path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 403 Forbidden"), reply.constData());
    QVERIFY(reply.contains("X-Sandbox-Refused: 127.0.0.1:"));
    QVERIFY(reply.contains("not in the policy's allowed domains"));
    // The whole answer, byte for byte: a refusal by the rules names its reason in a header.
    const QByteArray reason = m_target + " is not in the policy's allowed domains";
    QCOMPARE(reply,
             "HTTP/1.1 403 Forbidden\r\nX-Sandbox-Refused: " + reason
                 + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                 + QByteArray::number(reason.size() + 16) + "\r\nConnection: close\r\n\r\nsandbox proxy: " + reason
                 + '\n');
    // Any other answer of the proxy's own has no such header.
    const QByteArray malformed = "request without an absolute URI or a valid Host header";
    QCOMPARE(exchange(path, "GET /direct HTTP/1.1\r\n\r\n"),
             "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                 + QByteArray::number(malformed.size() + 16)
                 + "\r\nConnection: close\r\n\r\nsandbox proxy: " + malformed + '\n');
    reply = exchange(path, "GET http://" + m_target + "/ HTTP/1.1\r\n\r\n");
    QVERIFY(reply.startsWith("HTTP/1.1 403"));
    reply = exchange(path, socksConnect("127.0.0.1", m_upstream.port(), false));
    QCOMPARE(reply.left(4), QByteArray("\x05\x00\x05\x02", 4)); // connection not allowed by ruleset
    QCOMPARE(m_upstream.requests(), before);
}

void TestFilteringProxy::everyRefusalIsToldToTheChannelsListener()
{
    struct Heard
    {
        QMutex mutex;
        QStringList refusals; // "target|reason"
    };
    auto heard = std::make_shared<Heard>();
    const Result<DomainRules> rules = DomainRules::parse({ QStringLiteral("127.0.0.1:%1").arg(m_upstream.port()) }, {});
    QVERIFY(rules.ok());
    const Result<QString> path
        = m_proxy.openChannel(rules.value(), [heard](const QString &target, const QString &reason) {
              QMutexLocker locker(&heard->mutex);
              heard->refusals.append(target + QLatin1Char('|') + reason);
          });
    QVERIFY(path.ok());
    const auto refusals = [heard] {
        QMutexLocker locker(&heard->mutex);
        return heard->refusals;
    };
    // Allowed, and a request that names no valid target: neither is a policy refusal.
    QVERIFY(
        exchange(path.value(), "CONNECT " + m_target + " HTTP/1.1\r\n\r\n", "established").startsWith("HTTP/1.1 200"));
    QVERIFY(!exchange(path.value(), "CONNECT :0 HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 200"));
    QVERIFY(refusals().isEmpty());
    // Refused over HTTP and over SOCKS: each told once, with the target and the reason.
    const QByteArray other = "127.0.0.2:" + QByteArray::number(m_upstream.port());
    QVERIFY(exchange(path.value(), "CONNECT " + other + " HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 403"));
    QVERIFY(exchange(path.value(), "CONNECT [::1]:80 HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 403"));
    exchange(path.value(), socksConnect("127.0.0.3", m_upstream.port(), false));
    QTRY_COMPARE(refusals().size(), 3);
    QCOMPARE(refusals().at(0),
             QString::fromLatin1(other) + QStringLiteral("|") + QString::fromLatin1(other)
                 + QStringLiteral(" is not in the policy's allowed domains"));
    QVERIFY2(refusals().at(1).startsWith(QStringLiteral("[::1]:80|")), qPrintable(refusals().at(1)));
    QVERIFY2(refusals().at(2).startsWith(QStringLiteral("127.0.0.3:")), qPrintable(refusals().at(2)));
}

void TestFilteringProxy::deniedWinsOverAllowed()
{
    const QString path
        = channel({ QStringLiteral("127.0.0.1"), QStringLiteral("localhost") }, { QStringLiteral("localhost") });
    QByteArray reply
        = exchange(path, "CONNECT localhost:" + QByteArray::number(m_upstream.port()) + " HTTP/1.1\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 403"), reply.constData());
    QVERIFY(reply.contains("denied by the policy entry 'localhost'"));
    reply = exchange(path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\n", "established");
    QVERIFY(reply.startsWith("HTTP/1.1 200"));
}

void TestFilteringProxy::portsAreMatched()
{
    const quint16 other = m_upstream.port() == 65535 ? 1 : m_upstream.port() + 1;
    QString path = channel({ QStringLiteral("127.0.0.1:%1").arg(other) });
    QVERIFY(exchange(path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 403"));
    path = channel({ QStringLiteral("127.0.0.1:%1").arg(m_upstream.port()) });
    QVERIFY(exchange(path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\n", "established").startsWith("HTTP/1.1 200"));
}

void TestFilteringProxy::internalAddressesNeedAnExactEntry()
{
    if (!m_ownHosts)
        QSKIP("needs root to give this test its own /etc/hosts");
    const QByteArray port = QByteArray::number(m_upstream.port());
    // Matched through a wildcard: the name resolves to loopback, refused.
    QString path = channel({ QStringLiteral("*.internal.test") });
    QByteArray reply = exchange(path, "CONNECT api.internal.test:" + port + " HTTP/1.1\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 403"), reply.constData());
    QVERIFY(reply.contains("loopback"));
    reply = exchange(path, socksConnect("db.internal.test", m_upstream.port(), true));
    QCOMPARE(reply.left(4), QByteArray("\x05\x00\x05\x02", 4));
    // Named exactly: the user meant it.
    path = channel({ QStringLiteral("*.internal.test"), QStringLiteral("api.internal.test") });
    reply = exchange(path, "CONNECT api.internal.test:" + port + " HTTP/1.1\r\n\r\n", "established");
    QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
}

void TestFilteringProxy::garbageNeverBreaksTheProxy_data()
{
    QTest::addColumn<QByteArray>("garbage");
    QTest::newRow("binary") << QByteArray("\x00\xff\x13\x37\r\n\r\n", 8);
    QTest::newRow("no version") << QByteArray("GET /\r\n\r\n");
    QTest::newRow("bad header") << QByteArray("GET http://127.0.0.1/ HTTP/1.1\r\nno colon here\r\n\r\n");
    QTest::newRow("https absolute") << QByteArray("GET https://127.0.0.1/ HTTP/1.1\r\n\r\n");
    QTest::newRow("connect no port") << QByteArray("CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n");
    QTest::newRow("connect userinfo") << QByteArray("CONNECT user@127.0.0.1:80 HTTP/1.1\r\n\r\n");
    QTest::newRow("socks zero methods") << QByteArray("\x05\x00", 2);
    QTest::newRow("socks bad atyp") << QByteArray("\x05\x01\x00\x05\x01\x00\x07\x00\x00", 9);
    QTest::newRow("socks empty name") << QByteArray("\x05\x01\x00\x05\x01\x00\x03\x00\x00\x50", 10);
    QTest::newRow("socks name garbage") << QByteArray("\x05\x01\x00\x05\x01\x00\x03\x03\xff\x00\x01\x00\x50", 13);
}

void TestFilteringProxy::garbageNeverBreaksTheProxy()
{
    QFETCH(QByteArray, garbage);
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    const QByteArray reply = exchange(path, garbage);
    QVERIFY2(!reply.contains("upstream-ok"), reply.constData());
    // Still serving.
    QVERIFY(exchange(path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\n", "established").startsWith("HTTP/1.1 200"));
}

void TestFilteringProxy::oversizedHeadersAreRefused()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    const QByteArray huge
        = "GET http://" + m_target + "/ HTTP/1.1\r\nX-Big: " + QByteArray(40 * 1024, 'a') + "\r\n\r\n";
    QVERIFY(exchange(path, huge).startsWith("HTTP/1.1 431"));
    // Without an end of header at all.
    QVERIFY(exchange(path, "GET http://x/ HTTP/1.1\r\nX: " + QByteArray(64 * 1024, 'b')).startsWith("HTTP/1.1 431"));
}

void TestFilteringProxy::socksWithoutNoAuthOrWithBindIsRefused()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    QCOMPARE(exchange(path, QByteArray("\x05\x01\x02", 3)), QByteArray("\x05\xff", 2));
    QByteArray bind("\x05\x01\x00\x05\x02\x00\x01\x7f\x00\x00\x01\x00\x50", 13);
    QCOMPARE(exchange(path, bind).left(4), QByteArray("\x05\x00\x05\x07", 4));
}

void TestFilteringProxy::channelsAreOwnerOnlyAndClose()
{
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    const QFileInfo directory(QFileInfo(path).absolutePath());
    QCOMPARE(directory.permissions()
                 & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther
                    | QFile::ExeOther),
             QFile::Permissions());
    const int before = m_proxy.channelCount();
    m_proxy.closeChannel(path);
    QCOMPARE(m_proxy.channelCount(), before - 1);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(exchange(path, "CONNECT " + m_target + " HTTP/1.1\r\n\r\n"), QByteArray("NOT CONNECTED"));
}

void TestFilteringProxy::privateChannelsHaveAFolderOfTheirOwn()
{
    const Result<DomainRules> rules = DomainRules::parse({ QStringLiteral("127.0.0.1") }, {});
    QVERIFY(rules);
    const Result<QString> first = m_proxy.openPrivateChannel(rules.value());
    const Result<QString> second = m_proxy.openPrivateChannel(rules.value());
    QVERIFY(first && second);
    const QDir folder = QFileInfo(first.value()).absoluteDir();
    QVERIFY(folder != QFileInfo(second.value()).absoluteDir());
    QVERIFY(folder.absolutePath() != m_proxy.runtimeDirectory());
    QCOMPARE(folder.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
             QStringList{ QStringLiteral("proxy.sock") });
    QCOMPARE(QFileInfo(folder.absolutePath()).permissions()
                 & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther
                    | QFile::ExeOther),
             QFile::Permissions());
    const QByteArray reply = exchange(first.value(), "CONNECT " + m_target + " HTTP/1.1\r\n\r\n", "\r\n\r\n");
    QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    m_proxy.closeChannel(first.value());
    QVERIFY(!QFileInfo::exists(folder.absolutePath()));
    QCOMPARE(exchange(first.value(), "CONNECT " + m_target + " HTTP/1.1\r\n\r\n"), QByteArray("NOT CONNECTED"));
    m_proxy.closeChannel(second.value());
    QVERIFY(!QFileInfo::exists(QFileInfo(second.value()).absolutePath()));
}

void TestFilteringProxy::channelsLiveInTheEnginesRuntimeDirectory()
{
    const QString base = m_runtimeRoot.filePath(QStringLiteral("run"));
    const QString path = channel({ QStringLiteral("127.0.0.1") });
    QVERIFY2(path.startsWith(base + QStringLiteral("/proxy-")), qPrintable(path));
    QCOMPARE(QFileInfo(base).permissions() & ~(QFile::ReadUser | QFile::WriteUser | QFile::ExeUser),
             QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    m_proxy.closeChannel(path);
}

void TestFilteringProxy::aRuntimeDirectoryNotOursAloneIsRefused_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("foreignOwner");
    QTest::addColumn<QString>("said");
    QTest::newRow("group and world readable") << 0755 << false << QStringLiteral("mode 755");
    QTest::newRow("world writable") << 0777 << false << QStringLiteral("mode 777");
    QTest::newRow("another user's") << 0700 << true << QStringLiteral("belongs to uid 65534");
}

void TestFilteringProxy::aRuntimeDirectoryNotOursAloneIsRefused()
{
    QFETCH(int, mode);
    QFETCH(bool, foreignOwner);
    QFETCH(QString, said);
    if (foreignOwner && ::geteuid() != 0)
        QSKIP("giving a directory to another user needs root");
    QTemporaryDir root;
    const QString base = root.filePath(QStringLiteral("run"));
    QVERIFY(QDir().mkdir(base));
    QCOMPARE(::chmod(QFile::encodeName(base).constData(), mode_t(mode)), 0);
    if (foreignOwner)
        QCOMPARE(::chown(QFile::encodeName(base).constData(), 65534, 65534), 0);
    FilteringProxy proxy(base);
    const Result<DomainRules> rules = DomainRules::parse({ QStringLiteral("127.0.0.1") }, {});
    QVERIFY(rules);
    const Result<QString> opened = proxy.openChannel(rules.value());
    QVERIFY(!opened);
    const QString message = opened.error().toString();
    QVERIFY2(message.contains(base) && message.contains(said), qPrintable(message));
    QCOMPARE(QDir(base).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
             QStringList());
}

bool TestFilteringProxy::startUpstreamProxy()
{
    if (m_connectProxy.state() == QProcess::Running)
        return true;
    const QString dir = m_proxyDir.path();
    const QString script
        = QStringLiteral(
              "set -e; cd '%1'; "
              "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca-key.pem -out ca.pem "
              "-days 2 -subj '/CN=Upstream Proxy Test CA' -addext basicConstraints=critical,CA:TRUE "
              "-addext keyUsage=critical,keyCertSign 2>/dev/null; "
              "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout proxy-key.pem -out proxy.csr "
              "-subj '/CN=localhost' 2>/dev/null; "
              "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > ext.cnf; "
              "openssl x509 -req -in proxy.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out proxy.pem -days 2 "
              "-extfile ext.cnf 2>/dev/null; printf 'alice:corp-secret' > credential")
              .arg(dir);
    if (QProcess::execute(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), script }) != 0)
        return false;
    m_connectProxy.setProgram(QStringLiteral("/usr/bin/python3"));
    m_connectProxy.setArguments({ QFINDTESTDATA("../../integration/connect-proxy.py"),
                                  QStringLiteral("--credential-file"), dir + QStringLiteral("/credential"),
                                  QStringLiteral("--log"), dir + QStringLiteral("/proxied.jsonl"),
                                  QStringLiteral("--cert"), dir + QStringLiteral("/proxy.pem"), QStringLiteral("--key"),
                                  dir + QStringLiteral("/proxy-key.pem") });
    m_connectProxy.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_connectProxy.start();
    if (!m_connectProxy.waitForStarted() || !m_connectProxy.waitForReadyRead(30000))
        return false;
    const QJsonObject ports = QJsonDocument::fromJson(m_connectProxy.readLine()).object();
    m_proxyHttp = quint16(ports.value(QStringLiteral("http")).toInt());
    m_proxyHttps = quint16(ports.value(QStringLiteral("https")).toInt());
    return m_proxyHttp != 0 && m_proxyHttps != 0;
}

void TestFilteringProxy::cleanupTestCase()
{
    if (m_connectProxy.state() == QProcess::Running) {
        m_connectProxy.closeWriteChannel();
        if (!m_connectProxy.waitForFinished(10000))
            m_connectProxy.kill();
        m_connectProxy.waitForFinished(10000);
    }
}

QString TestFilteringProxy::upstreamChannel(const PolicyUpstreamProxy &policy, const QStringList &extraCaCertificates,
                                            QStringList *refusals)
{
    const Result<DomainRules> rules
        = DomainRules::parse({ QStringLiteral("127.0.0.1"), QStringLiteral("localhost") }, {});
    const Result<std::shared_ptr<const UpstreamProxy>> upstream
        = UpstreamProxy::make(policy, extraCaCertificates, m_values);
    if (!rules || !upstream)
        return {};
    ProxyRefusalListener listener;
    if (refusals) {
        listener = [this, refusals](const QString &target, const QString &reason) {
            QMutexLocker lock(&m_refusalsMutex);
            refusals->append(target + QStringLiteral(": ") + reason);
        };
    }
    const Result<QString> path = m_proxy.openChannel(rules.value(), listener, {}, upstream.value());
    return path ? path.value() : QString();
}

QList<QJsonObject> TestFilteringProxy::proxied() const
{
    QList<QJsonObject> requests;
    QFile file(m_proxyDir.filePath(QStringLiteral("proxied.jsonl")));
    if (!file.open(QIODevice::ReadOnly))
        return requests;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.isEmpty())
            requests.append(QJsonDocument::fromJson(line).object());
    }
    return requests;
}

void TestFilteringProxy::tunnelsGoThroughTheUpstreamProxy_data()
{
    QTest::addColumn<bool>("tls");
    QTest::addColumn<bool>("socks");
    QTest::newRow("http proxy, CONNECT") << false << false;
    QTest::newRow("http proxy, SOCKS5 by name") << false << true;
    QTest::newRow("https proxy, CONNECT") << true << false;
    QTest::newRow("https proxy, SOCKS5 by name") << true << true;
}

void TestFilteringProxy::tunnelsGoThroughTheUpstreamProxy()
{
    QFETCH(bool, tls);
    QFETCH(bool, socks);
    QVERIFY(startUpstreamProxy());
    m_values->set(QStringLiteral("corp"), "alice:corp-secret");
    const PolicyUpstreamProxy policy{ tls ? QStringLiteral("https://localhost:%1").arg(m_proxyHttps)
                                          : QStringLiteral("http://127.0.0.1:%1").arg(m_proxyHttp),
                                      QStringLiteral("corp") };
    const QString path = upstreamChannel(policy, { m_proxyDir.filePath(QStringLiteral("ca.pem")) });
    QVERIFY(!path.isEmpty());
    const qsizetype before = proxied().size();
    const QByteArray port = QByteArray::number(m_upstream.port());
    QByteArray reply;
    if (socks) {
        reply = exchange(path,
                         socksConnect("localhost", m_upstream.port(), true) + "GET /via HTTP/1.1\r\nHost: x\r\n\r\n",
                         "upstream-ok\nGET /via");
        QVERIFY2(reply.startsWith(QByteArray("\x05\x00\x05\x00\x00\x01", 6)), reply.toHex().constData());
    } else {
        reply = exchange(path,
                         "CONNECT " + m_target + " HTTP/1.1\r\nHost: " + m_target
                             + "\r\n\r\nGET /via HTTP/1.1\r\nHost: x\r\n\r\n",
                         "upstream-ok\nGET /via");
        QVERIFY2(reply.startsWith("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK"), reply.constData());
    }
    QVERIFY2(reply.contains("upstream-ok\nGET /via"), reply.constData());
    // One authorized tunnel, to the name the client asked for (the upstream proxy resolves it).
    const QList<QJsonObject> asked = proxied().mid(before);
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().value(QStringLiteral("target")).toString(),
             QString::fromLatin1(socks ? "localhost:" + port : m_target));
    QVERIFY(asked.first().value(QStringLiteral("authorized")).toBool());
    QCOMPARE(asked.first().value(QStringLiteral("tls")).toBool(), tls);
    m_proxy.closeChannel(path);
}

void TestFilteringProxy::upstreamFailuresAreTold_data()
{
    QTest::addColumn<QString>("url"); // %1: the plain listener, %2: the TLS one, %3: a closed port
    QTest::addColumn<QByteArray>("value"); // empty: none stored for the credential
    QTest::addColumn<bool>("trusted");
    QTest::addColumn<bool>("targetClosed");
    QTest::addColumn<QByteArray>("status");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<bool>("refusal");
    QTest::newRow("wrong credential") << QStringLiteral("http://127.0.0.1:%1") << QByteArray("alice:wrong") << true
                                      << false << QByteArray("HTTP/1.1 403")
                                      << QStringLiteral("wants credentials it was not given or did not accept") << true;
    QTest::newRow("no value") << QStringLiteral("http://127.0.0.1:%1") << QByteArray() << true << false
                              << QByteArray("HTTP/1.1 403")
                              << QStringLiteral("has no value; store it (\"user:password\") with sandboxctl "
                                                "credential set corp-absent")
                              << true;
    QTest::newRow("target unreachable") << QStringLiteral("http://127.0.0.1:%1") << QByteArray("alice:corp-secret")
                                        << true << true << QByteArray("HTTP/1.1 502")
                                        << QStringLiteral("could not open a tunnel") << false;
    QTest::newRow("proxy unreachable") << QStringLiteral("http://127.0.0.1:%3") << QByteArray("alice:corp-secret")
                                       << true << false << QByteArray("HTTP/1.1 502")
                                       << QStringLiteral("cannot connect to the upstream proxy 127.0.0.1:") << false;
    QTest::newRow("proxy certificate not trusted")
        << QStringLiteral("https://localhost:%2") << QByteArray("alice:corp-secret") << false << false
        << QByteArray("HTTP/1.1 502") << QStringLiteral("TLS connection to the upstream proxy localhost:") << false;
}

void TestFilteringProxy::upstreamFailuresAreTold()
{
    QFETCH(QString, url);
    QFETCH(QByteArray, value);
    QFETCH(bool, trusted);
    QFETCH(bool, targetClosed);
    QFETCH(QByteArray, status);
    QFETCH(QString, reason);
    QFETCH(bool, refusal);
    QVERIFY(startUpstreamProxy());
    if (!value.isEmpty())
        m_values->set(QStringLiteral("corp"), value);
    url.replace(QStringLiteral("%1"), QString::number(m_proxyHttp))
        .replace(QStringLiteral("%2"), QString::number(m_proxyHttps))
        .replace(QStringLiteral("%3"), QString::number(closedPort()));
    const PolicyUpstreamProxy policy{ url, value.isEmpty() ? QStringLiteral("corp-absent") : QStringLiteral("corp") };
    QStringList refusals;
    const QString path = upstreamChannel(
        policy, trusted ? QStringList{ m_proxyDir.filePath(QStringLiteral("ca.pem")) } : QStringList(), &refusals);
    QVERIFY(!path.isEmpty());
    const QByteArray target = targetClosed ? "127.0.0.1:" + QByteArray::number(closedPort()) : m_target;
    const QByteArray reply
        = exchange(path, "GET http://" + target + "/failing HTTP/1.1\r\nHost: " + target + "\r\n\r\n");
    QVERIFY2(reply.startsWith(status), reply.constData());
    QVERIFY2(reply.contains(reason.toUtf8()), reply.constData());
    // Neither the value nor its Basic token is ever told.
    QVERIFY(!reply.contains("corp-secret") && !reply.contains(QByteArray("alice:corp-secret").toBase64()));
    // The listener is told before the answer is written.
    m_proxy.closeChannel(path);
    QMutexLocker lock(&m_refusalsMutex);
    QCOMPARE(refusals.size(), refusal ? 1 : 0);
    if (refusal)
        QVERIFY2(refusals.first().contains(reason), qPrintable(refusals.first()));
}

QTEST_GUILESS_MAIN(TestFilteringProxy)
#include "tst_filteringproxy.moc"
