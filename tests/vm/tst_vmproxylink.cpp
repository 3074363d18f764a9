// The host end of the guest's network forwarder, driven the way a guest (or a hostile one)
// drives it: frames on the socket the VM's port would connect to, the engine's real
// filtering proxy behind it, a real HTTP server on loopback. No VM is booted.
#include "ForwarderProtocol.h"
#include "core/backends/BackendHost.h"
#include "launchers/vm/guest/GuestProxyLink.h"
#include "launchers/vm/image/LittleEndian.h"

#include <QLocalSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sandbox;
using namespace sandbox::forwarder;

namespace {

QByteArray frame(quint8 type, quint32 id, const QByteArray &payload = {})
{
    return littleEndianU32(quint32(payload.size() + 5)) + char(type) + littleEndianU32(id) + payload;
}

struct Frame
{
    quint8 type = 0;
    quint32 id = 0;
    QByteArray payload;
};

// What the guest side of the port has received, frame by frame.
class GuestEnd
{
public:
    explicit GuestEnd(const QString &path)
    {
        socket.connectToServer(path);
        socket.waitForConnected(5000);
    }
    void send(const QByteArray &bytes) { socket.write(bytes); }
    QList<Frame> frames()
    {
        input += socket.readAll();
        while (input.size() >= 4) {
            const quint32 length = readLittleEndianU32(input.constData());
            if (quint32(input.size()) < 4 + length)
                break;
            received.append(
                Frame{ quint8(input.at(4)), readLittleEndianU32(input.constData() + 5), input.mid(9, length - 5) });
            input.remove(0, 4 + length);
        }
        return received;
    }
    QByteArray data(quint32 id)
    {
        QByteArray all;
        for (const Frame &f : frames())
            if (f.id == id && f.type == Data)
                all += f.payload;
        return all;
    }
    bool closed(quint32 id)
    {
        for (const Frame &f : frames())
            if (f.id == id && f.type == Close)
                return true;
        return false;
    }

    QLocalSocket socket;
    QByteArray input;
    QList<Frame> received;
};

} // namespace

class TestVmProxyLink final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void allowedRequestReachesTheServerThroughTheProxy();
    void refusedTargetsGetTheProxysAnswer();
    void onlyOneLinkIsAccepted();
    void dataBeyondTheWindowEndsTheStream();
    void malformedFramesEndTheLink();
    void aVanishedEndClosesTheStream();
    void streamsAreBounded();

private:
    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<BackendHost> m_host;
    std::unique_ptr<GuestProxyLink> m_link;
    QTcpServer m_server;
    QList<QTcpSocket *> m_upstream;
    QString m_path;
};

void TestVmProxyLink::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    QVERIFY(m_server.listen(QHostAddress::LocalHost));
    m_upstream.clear();
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            m_upstream.append(socket);
            // A target that reads no more than a request head: what a stream sends beyond
            // it stays on its way (in the proxy, the sockets and the link).
            socket->setReadBufferSize(64 * 1024);
            connect(socket, &QTcpSocket::readyRead, socket, [socket] {
                if (socket->peek(4096).contains("\r\n\r\n") && socket->property("answered").isNull()) {
                    socket->setProperty("answered", true);
                    socket->write("HTTP/1.0 200 OK\r\nContent-Length: 6\r\n\r\nhello\n");
                    socket->disconnectFromHost();
                }
            });
        }
    });
    m_host = std::make_unique<BackendHost>(BackendRef::builtin(QStringLiteral("vm")),
                                           m_root->filePath(QStringLiteral("state")), nullptr,
                                           std::function<void(const BackendRef &)>());
    Result<std::shared_ptr<ProxyChannel>> channel
        = m_host->openProxyChannel({ QStringLiteral("localhost:%1").arg(m_server.serverPort()) }, {});
    QVERIFY2(channel.ok(), channel.ok() ? "" : qPrintable(channel.error().message));
    m_link = std::make_unique<GuestProxyLink>(channel.value());
    m_path = m_root->filePath(QStringLiteral("proxy"));
    QVERIFY(m_link->listen(m_path).ok());
}

void TestVmProxyLink::cleanup()
{
    m_link.reset();
    m_host.reset();
    m_server.close();
    disconnect(&m_server, nullptr, this, nullptr);
    qDeleteAll(m_upstream);
    m_upstream.clear();
}

void TestVmProxyLink::allowedRequestReachesTheServerThroughTheProxy()
{
    GuestEnd guest(m_path);
    QCOMPARE(guest.socket.state(), QLocalSocket::ConnectedState);
    guest.send(frame(Credit, 0, littleEndianU32(0))); // the forwarder's greeting
    guest.send(frame(Open, 1));
    guest.send(frame(Data, 1,
                     QStringLiteral("GET http://localhost:%1/marker HTTP/1.0\r\nHost: localhost\r\n\r\n")
                         .arg(m_server.serverPort())
                         .toLatin1()));
    QTRY_VERIFY_WITH_TIMEOUT(guest.data(1).endsWith("hello\n"), 20000);
    QVERIFY(guest.data(1).startsWith("HTTP/1.0 200"));
    // What reached the proxy was credited back to the guest.
    bool credited = false;
    for (const Frame &f : guest.frames())
        credited = credited || (f.id == 1 && f.type == Credit && readLittleEndianU32(f.payload.constData()) > 0);
    QVERIFY(credited);
    // The server ended the response: the stream closes.
    QTRY_VERIFY_WITH_TIMEOUT(guest.closed(1), 20000);
    QTRY_COMPARE(m_link->streamCount(), 0);

    // A client that half-closes right after its request through a CONNECT tunnel still
    // gets the answer: the half-close is passed on, not turned into a close.
    guest.send(frame(Open, 2));
    guest.send(frame(Data, 2,
                     "CONNECT localhost:" + QByteArray::number(m_server.serverPort())
                         + " HTTP/1.1\r\n\r\nGET /marker HTTP/1.0\r\nHost: localhost\r\n\r\n"));
    guest.send(frame(Eof, 2));
    QTRY_VERIFY_WITH_TIMEOUT(guest.data(2).endsWith("hello\n"), 20000);
    QVERIFY(guest.data(2).startsWith("HTTP/1.1 200"));
    QTRY_VERIFY_WITH_TIMEOUT(guest.closed(2), 20000);
}

void TestVmProxyLink::refusedTargetsGetTheProxysAnswer()
{
    GuestEnd guest(m_path);
    const QList<QByteArray> requests{
        "CONNECT 127.0.0.1:" + QByteArray::number(m_server.serverPort()) + " HTTP/1.1\r\n\r\n",
        "CONNECT localhost:1 HTTP/1.1\r\n\r\n",
        "GET http://example.invalid/ HTTP/1.0\r\n\r\n",
    };
    for (int i = 0; i < requests.size(); ++i) {
        guest.send(frame(Open, quint32(10 + i)));
        guest.send(frame(Data, quint32(10 + i), requests.at(i)));
    }
    for (int i = 0; i < requests.size(); ++i) {
        QTRY_VERIFY_WITH_TIMEOUT(guest.closed(quint32(10 + i)), 20000);
        QVERIFY2(guest.data(quint32(10 + i)).contains(" 403 "), guest.data(quint32(10 + i)).constData());
    }
    QVERIFY(m_upstream.isEmpty());
}

void TestVmProxyLink::onlyOneLinkIsAccepted()
{
    GuestEnd first(m_path);
    QCOMPARE(first.socket.state(), QLocalSocket::ConnectedState);
    QLocalSocket second;
    second.connectToServer(m_path);
    // The listener is gone once the port connected: nobody gets a second way in.
    QTRY_COMPARE_WITH_TIMEOUT(second.state(), QLocalSocket::UnconnectedState, 10000);
    first.send(frame(Open, 1));
    first.send(frame(Data, 1, "CONNECT localhost:1 HTTP/1.1\r\n\r\n"));
    QTRY_VERIFY_WITH_TIMEOUT(first.closed(1), 20000);
}

void TestVmProxyLink::dataBeyondTheWindowEndsTheStream()
{
    GuestEnd guest(m_path);
    guest.send(frame(Open, 1));
    // A tunnel to a target that stops reading, then more than every buffer on the way can
    // hold (the proxy holds 1 MiB for a slow side, the sockets a few MiB at the most): the
    // link's own buffer for the stream fills beyond the window, whatever the timing.
    guest.send(frame(Data, 1, "CONNECT localhost:" + QByteArray::number(m_server.serverPort()) + " HTTP/1.1\r\n\r\n"));
    const QByteArray piece(int(kMaxPayload), 'x');
    for (quint32 sent = 0; sent <= 16 * 1024 * 1024; sent += kMaxPayload)
        guest.send(frame(Data, 1, piece));
    QTRY_VERIFY_WITH_TIMEOUT(guest.closed(1), 20000);
    QTRY_COMPARE(m_link->streamCount(), 0);
    // The link itself goes on serving.
    guest.send(frame(Open, 2));
    guest.send(frame(Data, 2, "CONNECT localhost:1 HTTP/1.1\r\n\r\n"));
    QTRY_VERIFY_WITH_TIMEOUT(guest.closed(2), 20000);
}

void TestVmProxyLink::malformedFramesEndTheLink()
{
    const QList<QByteArray> malformed{
        littleEndianU32(3) + "abc", // shorter than a header
        littleEndianU32(kMaxFrame + 1), // longer than any frame
        frame(Open, 0), // stream 0 is not a stream
        frame(Open, 5) + frame(Open, 5), // one id twice
        frame(Open, 6) + frame(Credit, 6, "xy"), // a credit is four bytes
        frame(77, 1), // no such frame type
    };
    for (const QByteArray &bytes : malformed) {
        cleanup();
        init();
        GuestEnd guest(m_path);
        QCOMPARE(guest.socket.state(), QLocalSocket::ConnectedState);
        guest.send(bytes);
        QTRY_COMPARE_WITH_TIMEOUT(guest.socket.state(), QLocalSocket::UnconnectedState, 10000);
        QCOMPARE(m_link->streamCount(), 0);
    }
}

void TestVmProxyLink::aVanishedEndClosesTheStream()
{
    {
        GuestEnd guest(m_path);
        guest.send(frame(Open, 1));
        guest.send(
            frame(Data, 1, "CONNECT localhost:" + QByteArray::number(m_server.serverPort()) + " HTTP/1.1\r\n\r\n"));
        QTRY_VERIFY_WITH_TIMEOUT(guest.data(1).startsWith("HTTP/1.1 200"), 20000);
        QTRY_COMPARE(m_upstream.size(), 1);
        // The guest's client went: the connection through the proxy goes too.
        guest.send(frame(Close, 1));
        QTRY_COMPARE_WITH_TIMEOUT(m_upstream.first()->state(), QAbstractSocket::UnconnectedState, 20000);
        QCOMPARE(m_link->streamCount(), 0);

        // The server went: the guest's stream is closed.
        guest.send(frame(Open, 2));
        guest.send(
            frame(Data, 2, "CONNECT localhost:" + QByteArray::number(m_server.serverPort()) + " HTTP/1.1\r\n\r\n"));
        QTRY_COMPARE(m_upstream.size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(guest.data(2).startsWith("HTTP/1.1 200"), 20000);
        m_upstream.last()->disconnectFromHost();
        QTRY_VERIFY_WITH_TIMEOUT(guest.closed(2), 20000);

        // The whole guest end went (QEMU exited): every stream with it.
        guest.send(frame(Open, 3));
        guest.send(
            frame(Data, 3, "CONNECT localhost:" + QByteArray::number(m_server.serverPort()) + " HTTP/1.1\r\n\r\n"));
        QTRY_COMPARE(m_upstream.size(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(guest.data(3).startsWith("HTTP/1.1 200"), 20000);
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_upstream.last()->state(), QAbstractSocket::UnconnectedState, 20000);
    QCOMPARE(m_link->streamCount(), 0);
}

void TestVmProxyLink::streamsAreBounded()
{
    GuestEnd guest(m_path);
    for (quint32 id = 1; id <= kMaxStreams + 1; ++id)
        guest.send(frame(Open, id));
    QTRY_VERIFY_WITH_TIMEOUT(guest.closed(kMaxStreams + 1), 20000);
    QCOMPARE(m_link->streamCount(), int(kMaxStreams));
    QVERIFY(!guest.closed(1));
}

QTEST_GUILESS_MAIN(TestVmProxyLink)
#include "tst_vmproxylink.moc"
