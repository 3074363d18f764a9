// libFuzzer target for the filtering proxy's request handling (engine/net/ProxyConnection):
// the bytes a sandboxed command sends to the proxy socket, as HTTP (CONNECT, absolute URI,
// origin form) or SOCKS5, over a real socket pair, half-closed after the input. The only
// allowed target is an echo server of this fuzzer on 127.0.0.1 (its port replaces
// "{port}" in the input), so allowed requests really relay.
// Beyond "no crash, no sanitizer report": every connection ends once the input has ended
// and the target has answered, and what the proxy sends back is an HTTP/1.1 response, a
// SOCKS5 reply, or nothing.
#include "net/DomainRules.h"
#include "net/ProxyConnection.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QHostAddress>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sys/socket.h>
#include <unistd.h>

using namespace sandbox;

namespace {

[[noreturn]] void contractBroken(const char *what, const QByteArray &detail)
{
    std::fprintf(stderr, "proxy contract broken: %s: %s\n", what, detail.toHex(' ').left(400).constData());
    std::abort();
}

struct Fixture
{
    QCoreApplication *app = nullptr;
    QTcpServer *echo = nullptr;
    DomainRules rules;
};

Fixture &fixture()
{
    static Fixture f = [] {
        Fixture made;
        static int argc = 1;
        static char name[] = "fuzz_proxy";
        static char *argv[] = { name, nullptr };
        made.app = new QCoreApplication(argc, argv);
        made.echo = new QTcpServer;
        if (!made.echo->listen(QHostAddress::LocalHost, 0))
            contractBroken("cannot listen for the echo target", {});
        QObject::connect(made.echo, &QTcpServer::newConnection, made.echo, [echo = made.echo] {
            while (QTcpSocket *socket = echo->nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, socket,
                                 [socket] { socket->write(socket->readAll()); });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        const Result<DomainRules> rules
            = DomainRules::parse({ QStringLiteral("127.0.0.1:%1").arg(made.echo->serverPort()) }, {});
        if (!rules)
            contractBroken("the fuzzer's own rules were refused", rules.error().toString().toUtf8());
        made.rules = rules.value();
        return made;
    }();
    return f;
}

bool plausibleReply(const QByteArray &reply)
{
    return reply.isEmpty() || reply.startsWith("HTTP/1.1 ") || reply.startsWith('\x05');
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    Fixture &f = fixture();
    QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    input.replace("{port}", QByteArray::number(f.echo->serverPort()));

    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        contractBroken("socketpair failed", {});
    QPointer<ProxyConnection> connection = new ProxyConnection(pair[0], f.rules);
    // The input fits the socket buffer whole (64 KiB at most); then nothing more comes.
    qsizetype written = 0;
    while (written < input.size()) {
        const ssize_t n = ::write(pair[1], input.constData() + written, size_t(input.size() - written));
        if (n <= 0)
            contractBroken("cannot write the input", {});
        written += n;
    }
    shutdown(pair[1], SHUT_WR);

    QByteArray reply;
    QEventLoop loop;
    QTimer bound;
    bound.setSingleShot(true);
    QObject::connect(connection, &QObject::destroyed, &loop, &QEventLoop::quit);
    QObject::connect(&bound, &QTimer::timeout, &loop, &QEventLoop::quit);
    bound.start(10000);
    if (connection)
        loop.exec();
    if (connection)
        contractBroken("the connection did not end after its input did", input);
    for (;;) {
        char buffer[4096];
        const ssize_t n = ::read(pair[1], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        reply.append(buffer, n);
    }
    close(pair[1]);
    if (!plausibleReply(reply))
        contractBroken("a reply that is neither HTTP nor SOCKS5", reply);
    return 0;
}
