// engine/fdio, the one writeAll and descriptor passing of the plain C++ programs (sandbox-init,
// the run front) and the Qt ones: each way of writing, and a descriptor passed both ways.

#include "fdio/FdIo.h"

#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sandbox;

class TestFdIo final : public QObject
{
    Q_OBJECT

private slots:
    void writesEverything();
    void fullNonBlockingDescriptorFailsOrIsWaitedFor();
    void socketWhoseReaderIsGoneFailsWithoutSigpipe();
    void descriptorIsPassed();
};

namespace {

// Reads from `fd` until end of file.
std::string readToEnd(int fd)
{
    std::string all;
    char buffer[65536];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
        all.append(buffer, size_t(n));
    return all;
}

} // namespace

void TestFdIo::writesEverything()
{
    int ends[2];
    QCOMPARE(::pipe(ends), 0);
    const std::string text(200000, 'x'); // more than a pipe holds: written in several calls
    std::string read;
    std::thread reader([&] { read = readToEnd(ends[0]); });
    const bool written = fdio::writeAll(ends[1], text.data(), text.size());
    ::close(ends[1]);
    reader.join();
    ::close(ends[0]);
    QVERIFY(written);
    QCOMPARE(read.size(), text.size());
}

void TestFdIo::fullNonBlockingDescriptorFailsOrIsWaitedFor()
{
    int ends[2];
    QCOMPARE(::pipe2(ends, O_NONBLOCK), 0);
    const std::string chunk(4096, 'y');
    std::size_t filled = 0;
    while (::write(ends[1], chunk.data(), chunk.size()) > 0)
        filled += chunk.size();
    QCOMPARE(errno, EAGAIN);
    // A full descriptor fails the plain write at once.
    QVERIFY(!fdio::writeAll(ends[1], chunk.data(), chunk.size()));

    // Waited for, the write ends once a reader has taken enough.
    const int flags = ::fcntl(ends[0], F_GETFL);
    QCOMPARE(::fcntl(ends[0], F_SETFL, flags & ~O_NONBLOCK), 0);
    std::string read;
    std::thread reader([&] { read = readToEnd(ends[0]); });
    const bool written = fdio::writeAll(ends[1], chunk.data(), chunk.size(), { .waitWhenFull = true });
    ::close(ends[1]);
    reader.join();
    ::close(ends[0]);
    QVERIFY(written);
    QCOMPARE(read.size(), filled + chunk.size());
}

void TestFdIo::socketWhoseReaderIsGoneFailsWithoutSigpipe()
{
    // The default disposition: a write() here would end the test.
    const sighandler_t previous = ::signal(SIGPIPE, SIG_DFL);
    int pair[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    ::close(pair[1]);
    const bool written = fdio::writeAll(pair[0], "gone", 4, { .socket = true });
    const int error = errno;
    ::close(pair[0]);
    ::signal(SIGPIPE, previous);
    QVERIFY(!written);
    QCOMPARE(error, EPIPE);
}

void TestFdIo::descriptorIsPassed()
{
    int pair[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    int ends[2];
    QCOMPARE(::pipe(ends), 0);
    QVERIFY(fdio::sendDescriptor(pair[0], ends[1], "N", MSG_NOSIGNAL));
    const int received = fdio::receiveDescriptor(pair[1], MSG_CMSG_CLOEXEC);
    QVERIFY(received >= 0);
    QVERIFY(::fcntl(received, F_GETFD) & FD_CLOEXEC);
    struct stat sent = {}, got = {};
    QCOMPARE(::fstat(ends[1], &sent), 0);
    QCOMPARE(::fstat(received, &got), 0);
    QCOMPARE(got.st_ino, sent.st_ino);
    // Nothing more comes once the sender has closed its end: -1, not a stale descriptor.
    ::close(pair[0]);
    QCOMPARE(fdio::receiveDescriptor(pair[1], MSG_CMSG_CLOEXEC), -1);
    for (int fd : { received, ends[0], ends[1], pair[1] })
        ::close(fd);
}

QTEST_GUILESS_MAIN(TestFdIo)

#include "tst_fdio.moc"
