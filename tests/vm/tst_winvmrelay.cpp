// winvm-helper's relay core and its arguments, natively: the relay between two real
// socket endpoints (socketpairs standing where the hv_sock and the engine's standard
// handles stand on Windows), driven the way a guest or an engine that misbehaves would.
#include "BridgeArguments.h"
#include "ByteRelay.h"

#include <QByteArray>
#include <QTest>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <future>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace sandbox::winvm;

namespace {

// A relay endpoint that reads from one socket and writes to another (the same one for a
// socket end, two for an end shaped like standard input and output).
class SocketEndpoint final : public RelayEndpoint
{
public:
    SocketEndpoint(std::string name, int readFd, int writeFd)
        : m_name(std::move(name))
        , m_readFd(readFd)
        , m_writeFd(writeFd)
    { }
    std::string name() const override { return m_name; }
    IoResult read(char *buffer, size_t size) override
    {
        const ssize_t got = recv(m_readFd, buffer, size, 0);
        if (got < 0)
            return { 0, true, std::strerror(errno) };
        return { size_t(got), false, {} };
    }
    IoResult write(const char *data, size_t size) override
    {
        const ssize_t sent = send(m_writeFd, data, size, MSG_NOSIGNAL);
        if (sent < 0)
            return { 0, true, std::strerror(errno) };
        return { size_t(sent), false, {} };
    }
    IoResult shutdownWrite() override
    {
        if (shutdown(m_writeFd, SHUT_WR) < 0)
            return { 0, true, std::strerror(errno) };
        return {};
    }
    void interrupt() override
    {
        shutdown(m_readFd, SHUT_RDWR);
        shutdown(m_writeFd, SHUT_RDWR);
    }

private:
    std::string m_name;
    int m_readFd;
    int m_writeFd;
};

struct Pair
{
    int test = -1; // the test's end
    int relay = -1; // the relay's end
    Pair()
    {
        int fds[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0) {
            test = fds[0];
            relay = fds[1];
        }
    }
    ~Pair()
    {
        closeTest();
        if (relay >= 0)
            close(relay);
    }
    void closeTest()
    {
        if (test >= 0)
            close(test);
        test = -1;
    }
};

bool writeAll(int fd, const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t sent = send(fd, data.constData() + done, size_t(data.size() - done), MSG_NOSIGNAL);
        if (sent <= 0)
            return false;
        done += sent;
    }
    return true;
}

// Everything up to the end of the stream (or an error).
QByteArray readToEnd(int fd)
{
    QByteArray all;
    char buffer[65536];
    for (;;) {
        const ssize_t got = recv(fd, buffer, sizeof buffer, 0);
        if (got <= 0)
            return all;
        all.append(buffer, got);
    }
}

QByteArray readExactly(int fd, qsizetype size)
{
    QByteArray all;
    char buffer[65536];
    while (all.size() < size) {
        const ssize_t got = recv(fd, buffer, size_t(qMin<qsizetype>(sizeof buffer, size - all.size())), 0);
        if (got <= 0)
            return all;
        all.append(buffer, got);
    }
    return all;
}

QByteArray pattern(qsizetype size, char seed)
{
    QByteArray data(size, Qt::Uninitialized);
    for (qsizetype i = 0; i < size; ++i)
        data[i] = char((i * 131 + seed) & 0xff);
    return data;
}

int sendBuffer(int fd)
{
    int size = 0;
    socklen_t length = sizeof size;
    getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, &length);
    return size;
}

} // namespace

class TestWinvmRelay : public QObject
{
    Q_OBJECT

private slots:
    void relaysBothWaysAndPassesHalfCloseOn();
    void carriesMegabytesBothWaysAtOnce();
    void anEndThatVanishesEndsTheRelayNamingIt();
    void anEndThatIsResetEndsTheRelayNamingIt();
    void aFailureInterruptsTheOtherDirectionsBlockedRead();
    void aPeerThatStopsReadingHoldsTheRelayToItsBound();
    void argumentsNameWhatIsWrong();
    void guidsParseInWindowsLayout();
};

void TestWinvmRelay::relaysBothWaysAndPassesHalfCloseOn()
{
    Pair engine;
    Pair guest;
    QVERIFY(engine.test >= 0 && guest.test >= 0);
    SocketEndpoint engineEnd("the engine", engine.relay, engine.relay);
    SocketEndpoint guestEnd("the guest", guest.relay, guest.relay);
    ByteRelay relay(engineEnd, guestEnd);
    auto running = std::async(std::launch::async, [&] { return relay.run(); });

    QVERIFY(writeAll(engine.test, "spawn /bin/true"));
    QVERIFY(shutdown(engine.test, SHUT_WR) == 0);
    // The guest gets the bytes, then the end of the stream: the engine's half-close.
    QCOMPARE(readToEnd(guest.test), QByteArray("spawn /bin/true"));
    // The other direction is still open after it.
    QVERIFY(writeAll(guest.test, "exited 0"));
    QVERIFY(shutdown(guest.test, SHUT_WR) == 0);
    QCOMPARE(readToEnd(engine.test), QByteArray("exited 0"));

    const ByteRelay::Outcome outcome = running.get();
    QVERIFY2(outcome.ok, outcome.failure.c_str());
    QCOMPARE(outcome.firstToSecond, uint64_t(15));
    QCOMPARE(outcome.secondToFirst, uint64_t(8));
}

void TestWinvmRelay::carriesMegabytesBothWaysAtOnce()
{
    Pair engine;
    Pair guest;
    SocketEndpoint engineEnd("the engine", engine.relay, engine.relay);
    SocketEndpoint guestEnd("the guest", guest.relay, guest.relay);
    ByteRelay relay(engineEnd, guestEnd);
    auto running = std::async(std::launch::async, [&] { return relay.run(); });

    const QByteArray down = pattern(6 * 1024 * 1024 + 7, 1);
    const QByteArray up = pattern(5 * 1024 * 1024 + 3, 2);
    auto sendDown = std::async(std::launch::async,
                               [&] { return writeAll(engine.test, down) && shutdown(engine.test, SHUT_WR) == 0; });
    auto sendUp = std::async(std::launch::async,
                             [&] { return writeAll(guest.test, up) && shutdown(guest.test, SHUT_WR) == 0; });
    auto receivedUp = std::async(std::launch::async, [&] { return readToEnd(engine.test); });
    const QByteArray receivedDown = readToEnd(guest.test);
    QVERIFY(sendDown.get());
    QVERIFY(sendUp.get());
    QVERIFY(receivedDown == down);
    QVERIFY(receivedUp.get() == up);
    const ByteRelay::Outcome outcome = running.get();
    QVERIFY2(outcome.ok, outcome.failure.c_str());
    QCOMPARE(outcome.firstToSecond, uint64_t(down.size()));
}

void TestWinvmRelay::anEndThatVanishesEndsTheRelayNamingIt()
{
    Pair engine;
    Pair guest;
    SocketEndpoint engineEnd("the engine", engine.relay, engine.relay);
    SocketEndpoint guestEnd("the guest's service", guest.relay, guest.relay);
    ByteRelay relay(engineEnd, guestEnd);
    auto running = std::async(std::launch::async, [&] { return relay.run(); });

    // The guest goes away entirely; the engine still writes.
    guest.closeTest();
    const QByteArray frame = pattern(4096, 3);
    bool engineStillWrites = true;
    while (engineStillWrites && running.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        engineStillWrites = writeAll(engine.test, frame);
    const ByteRelay::Outcome outcome = running.get();
    QVERIFY(!outcome.ok);
    QVERIFY2(QByteArray::fromStdString(outcome.failure).startsWith("writing to the guest's service failed: "),
             outcome.failure.c_str());
    QVERIFY2(outcome.failure.find(std::strerror(EPIPE)) != std::string::npos, outcome.failure.c_str());
    // The engine's end was shut, not left hanging: it reads the end of the stream.
    QCOMPARE(readToEnd(engine.test), QByteArray());
}

void TestWinvmRelay::anEndThatIsResetEndsTheRelayNamingIt()
{
    // A TCP connection on loopback whose far end resets it (closed with SO_LINGER 0).
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    QVERIFY(bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    QVERIFY(listen(listener, 1) == 0);
    QVERIFY(getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length) == 0);
    const int near = socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(::connect(near, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    int far = accept(listener, nullptr, nullptr);
    QVERIFY(far >= 0);
    close(listener);

    Pair engine;
    SocketEndpoint engineEnd("the engine", engine.relay, engine.relay);
    SocketEndpoint guestEnd("the guest's service", near, near);
    ByteRelay relay(engineEnd, guestEnd);
    auto running = std::async(std::launch::async, [&] { return relay.run(); });
    // The relay is reading the guest's end when the reset comes.
    QVERIFY(writeAll(far, "half a fra"));
    QCOMPARE(readExactly(engine.test, 10), QByteArray("half a fra"));
    const linger reset{ 1, 0 };
    QVERIFY(setsockopt(far, SOL_SOCKET, SO_LINGER, &reset, sizeof reset) == 0);
    close(far);
    const ByteRelay::Outcome outcome = running.get();
    close(near);
    QVERIFY(!outcome.ok);
    QVERIFY2(outcome.failure == std::string("reading from the guest's service failed: ") + std::strerror(ECONNRESET),
             outcome.failure.c_str());
    // What the guest sent before is delivered; then the engine reads the end of the stream.
    QCOMPARE(readToEnd(engine.test), QByteArray());
}

void TestWinvmRelay::aFailureInterruptsTheOtherDirectionsBlockedRead()
{
    // An end shaped like standard input and output: its input stays open and silent (the
    // relay's read of it blocks), its output's reader goes away.
    Pair input;
    Pair output;
    Pair guest;
    SocketEndpoint engineEnd("standard input/output", input.relay, output.relay);
    SocketEndpoint guestEnd("the guest", guest.relay, guest.relay);
    ByteRelay relay(engineEnd, guestEnd);
    std::string reported;
    relay.onFailure([&](const std::string &failure) { reported = failure; });
    auto running = std::async(std::launch::async, [&] { return relay.run(); });

    output.closeTest();
    QVERIFY(writeAll(guest.test, "output nobody reads"));
    const ByteRelay::Outcome outcome = running.get();
    QVERIFY(!outcome.ok);
    QCOMPARE(reported, outcome.failure);
    QVERIFY2(QByteArray::fromStdString(outcome.failure).startsWith("writing to standard input/output failed: "),
             outcome.failure.c_str());
    // Both ends were shut: the guest reads the end of the stream too.
    QCOMPARE(readToEnd(guest.test), QByteArray());
}

void TestWinvmRelay::aPeerThatStopsReadingHoldsTheRelayToItsBound()
{
    Pair engine;
    Pair guest;
    SocketEndpoint engineEnd("the engine", engine.relay, engine.relay);
    SocketEndpoint guestEnd("the guest", guest.relay, guest.relay);
    ByteRelay relay(engineEnd, guestEnd);
    auto running = std::async(std::launch::async, [&] { return relay.run(); });

    // The guest reads nothing. The engine writes until no byte has been taken for a second.
    QVERIFY(fcntl(engine.test, F_SETFL, fcntl(engine.test, F_GETFL) | O_NONBLOCK) == 0);
    const QByteArray chunk = pattern(16384, 4);
    qint64 accepted = 0;
    for (;;) {
        const ssize_t sent = send(engine.test, chunk.constData(), size_t(chunk.size()), MSG_NOSIGNAL);
        if (sent > 0) {
            accepted += sent;
            QVERIFY(accepted < 256 * 1024 * 1024);
            continue;
        }
        QCOMPARE(errno, EAGAIN);
        pollfd writable{ engine.test, POLLOUT, 0 };
        if (poll(&writable, 1, 1000) == 0)
            break;
    }
    // What is in flight: the two sockets' send buffers (unix sockets charge queued bytes to
    // the sender) and the relay's one buffer for this direction.
    const qint64 bound = sendBuffer(engine.test) + sendBuffer(guest.relay) + qint64(ByteRelay::kBufferBytes);
    QVERIFY2(accepted <= bound, qPrintable(QStringLiteral("%1 bytes taken, bound %2").arg(accepted).arg(bound)));
    QVERIFY(fcntl(engine.test, F_SETFL, fcntl(engine.test, F_GETFL) & ~O_NONBLOCK) == 0);

    // The stalled direction does not hold up the other one.
    QVERIFY(writeAll(guest.test, "still answering"));
    QVERIFY(shutdown(guest.test, SHUT_WR) == 0);
    QCOMPARE(readExactly(engine.test, 15), QByteArray("still answering"));

    // Once the guest reads, everything arrives, in order.
    QVERIFY(shutdown(engine.test, SHUT_WR) == 0);
    const QByteArray received = readToEnd(guest.test);
    QCOMPARE(qint64(received.size()), accepted);
    QVERIFY(received.startsWith(chunk));
    const ByteRelay::Outcome outcome = running.get();
    QVERIFY2(outcome.ok, outcome.failure.c_str());
}

void TestWinvmRelay::argumentsNameWhatIsWrong()
{
    std::string error;
    const BridgeArguments good = BridgeArguments::parse(
        { "--port", "1024", "--vm-id", "{6F1C2D3E-0A1B-4C5D-8E9F-0123456789AB}", "--connect-timeout-ms", "5000" },
        error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(good.port, 1024u);
    QCOMPARE(good.connectTimeoutMs, 5000u);
    QCOMPARE(good.vmId.toString(), std::string("6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab"));
    QVERIFY(BridgeArguments::parse({ "--help" }, error).help);

    const struct
    {
        std::vector<std::string> arguments;
        std::string error;
    } bad[] = {
        { {}, "--vm-id is required" },
        { { "--vm-id", "6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab" }, "--port is required" },
        { { "--vm-id" }, "--vm-id needs a value" },
        { { "--vm-id", "6f1c2d3e-0a1b-4c5d-8e9f-0123456789az", "--port", "1" },
          "--vm-id \"6f1c2d3e-0a1b-4c5d-8e9f-0123456789az\" is not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)" },
        { { "--vm-id", "6f1c2d3e0a1b4c5d8e9f0123456789ab", "--port", "1" },
          "--vm-id \"6f1c2d3e0a1b4c5d8e9f0123456789ab\" is not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)" },
        { { "--port", "4294967296" }, "--port \"4294967296\" is not a vsock port (a decimal number up to 4294967295)" },
        { { "--port", "-1" }, "--port \"-1\" is not a vsock port (a decimal number up to 4294967295)" },
        { { "--port", "1", "--port", "2" }, "--port is given more than once" },
        { { "--connect-timeout-ms", "0" },
          "--connect-timeout-ms \"0\" is not a number of milliseconds from 1 to 600000" },
        { { "--connect-timeout-ms", "600001" },
          "--connect-timeout-ms \"600001\" is not a number of milliseconds from 1 to 600000" },
        { { "--shell", "cmd.exe" }, "unknown argument \"--shell\"" },
    };
    for (const auto &row : bad) {
        BridgeArguments::parse(row.arguments, error);
        QCOMPARE(error, row.error);
    }
}

void TestWinvmRelay::guidsParseInWindowsLayout()
{
    const std::optional<Guid> guid = Guid::parse("00000400-FACB-11e6-bd58-64006a7986d3");
    QVERIFY(guid.has_value());
    QCOMPARE(guid->data1, 0x400u);
    QCOMPARE(guid->data2, quint16(0xfacb));
    QCOMPARE(guid->data3, quint16(0x11e6));
    QCOMPARE(guid->data4[0], quint8(0xbd));
    QCOMPARE(guid->data4[7], quint8(0xd3));
    QCOMPARE(Guid::vsockService(1024).toString(), std::string("00000400-facb-11e6-bd58-64006a7986d3"));
    QCOMPARE(Guid::vsockService(0xdeadbeef).toString(), std::string("deadbeef-facb-11e6-bd58-64006a7986d3"));
    QVERIFY(!Guid::parse("{00000400-facb-11e6-bd58-64006a7986d3").has_value());
    QVERIFY(!Guid::parse("00000400-facb-11e6-bd58-64006a7986d3 ").has_value());
    QVERIFY(!Guid::parse("+0000400-facb-11e6-bd58-64006a7986d3").has_value());
}

QTEST_GUILESS_MAIN(TestWinvmRelay)
#include "tst_winvmrelay.moc"
