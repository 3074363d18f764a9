// sandbox-vm-gvforwarder READY_FD: the guest's network forwarder under network allowlist.
// The guest has no network device; this brings up loopback, listens on 127.0.0.1:3128 and
// carries each accepted connection as a stream over the virtio-serial port sandbox.proxy to
// the host, where the engine connects it to its filtering proxy (and to nothing else).
// Writes "ready" (or what failed) to READY_FD once it listens. Bytes in either direction
// wait in bounded buffers (ForwarderProtocol.h's window); when the host end goes, every
// stream closes and the forwarder exits, so nothing listens any more.
#include "ForwarderProtocol.h"
#include "GuestBoot.h"
#include "WireU32.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <map>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace sandbox::forwarder;

namespace {

int g_link = -1;
std::string g_toHost; // frames waiting for the port; bounded by the streams' windows

using sandbox::wire::getU32;
using sandbox::wire::putU32;

void queueFrame(FrameType type, uint32_t id, const char *data = nullptr, size_t size = 0)
{
    putU32(g_toHost, uint32_t(5 + size));
    g_toHost.push_back(char(type));
    putU32(g_toHost, id);
    if (size)
        g_toHost.append(data, size);
}

void queueCredit(uint32_t id, uint32_t bytes)
{
    std::string payload;
    putU32(payload, bytes);
    queueFrame(Credit, id, payload.data(), payload.size());
}

struct Stream
{
    int fd = -1;
    std::string toClient; // from the host, not yet written to the connection
    uint32_t inFlight = 0; // sent to the host, not yet credited
    bool clientEof = false; // the connection sent its last byte
    bool hostEof = false; // the host's end sent its last byte
    bool hostClosed = false; // the host forgot the stream: flush, then close
    bool shutDown = false;
};

std::map<uint32_t, Stream> g_streams;
uint32_t g_nextId = 1;

// Ends the stream here; tells the host unless it is the host that ended it.
void drop(uint32_t id, bool tellHost)
{
    const auto it = g_streams.find(id);
    if (it == g_streams.end())
        return;
    close(it->second.fd);
    g_streams.erase(it);
    if (tellHost)
        queueFrame(Close, id);
}

bool bringUpLoopback(std::string &error)
{
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = std::string("socket: ") + std::strerror(errno);
        return false;
    }
    ifreq request{};
    std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
    bool ok = ioctl(fd, SIOCGIFFLAGS, &request) == 0;
    if (ok) {
        request.ifr_flags = short(request.ifr_flags | IFF_UP | IFF_RUNNING);
        ok = ioctl(fd, SIOCSIFFLAGS, &request) == 0;
    }
    if (!ok)
        error = std::string("bring up lo: ") + std::strerror(errno);
    close(fd);
    return ok;
}

int listenOnLoopback(std::string &error)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = std::string("socket: ") + std::strerror(errno);
        return -1;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(kListenPort));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || listen(fd, 64) != 0) {
        error = std::string("listen on 127.0.0.1:") + std::to_string(kListenPort) + ": " + std::strerror(errno);
        close(fd);
        return -1;
    }
    return fd;
}

void acceptClients(int listener)
{
    while (g_streams.size() < kMaxStreams) {
        const int client = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0)
            return;
        uint32_t id = g_nextId++;
        if (g_nextId == 0)
            g_nextId = 1;
        Stream stream;
        stream.fd = client;
        g_streams.emplace(id, std::move(stream));
        queueFrame(Open, id);
    }
}

void readClient(uint32_t id, Stream &stream)
{
    char buffer[kMaxPayload];
    while (!stream.clientEof && stream.inFlight < kWindow) {
        const size_t room = std::min<size_t>(sizeof buffer, kWindow - stream.inFlight);
        const ssize_t n = read(stream.fd, buffer, room);
        if (n > 0) {
            queueFrame(Data, id, buffer, size_t(n));
            stream.inFlight += uint32_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n < 0) {
            drop(id, true);
            return;
        }
        stream.clientEof = true;
        queueFrame(Eof, id);
        if (stream.hostEof && stream.toClient.empty())
            drop(id, true);
        return;
    }
}

// Writes what the host sent; returns false when the stream is gone.
bool writeClient(uint32_t id, Stream &stream)
{
    size_t written = 0;
    while (written < stream.toClient.size()) {
        const ssize_t n
            = send(stream.fd, stream.toClient.data() + written, stream.toClient.size() - written, MSG_NOSIGNAL);
        if (n > 0) {
            written += size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        drop(id, !stream.hostClosed);
        return false;
    }
    if (written) {
        stream.toClient.erase(0, written);
        if (!stream.hostClosed)
            queueCredit(id, uint32_t(written));
    }
    if (!stream.toClient.empty())
        return true;
    if (stream.hostClosed) {
        drop(id, false);
        return false;
    }
    if (stream.hostEof && !stream.shutDown) {
        shutdown(stream.fd, SHUT_WR);
        stream.shutDown = true;
    }
    if (stream.hostEof && stream.clientEof) {
        drop(id, true);
        return false;
    }
    return true;
}

// One frame from the host; returns false when the link must end (a malformed frame).
bool handleFrame(uint8_t type, uint32_t id, const char *payload, uint32_t size)
{
    const auto it = g_streams.find(id);
    if (it == g_streams.end()) {
        // A stream this side already ended: what the host still had in flight.
        return type == Data || type == Eof || type == Close || type == Credit;
    }
    Stream &stream = it->second;
    switch (type) {
    case Data:
        if (stream.hostEof || stream.toClient.size() + size > kWindow) {
            drop(id, true); // more than the window allows: the host end misbehaves
            return true;
        }
        stream.toClient.append(payload, size);
        writeClient(id, stream);
        return true;
    case Eof:
        stream.hostEof = true;
        writeClient(id, stream);
        return true;
    case Close:
        stream.hostClosed = true;
        writeClient(id, stream);
        return true;
    case Credit:
        if (size != 4)
            return false;
        stream.inFlight -= std::min(stream.inFlight, getU32(payload));
        readClient(id, stream);
        return true;
    default:
        return false;
    }
}

// Writes queued frames to the port; false when the host end is gone.
bool flushLink()
{
    while (!g_toHost.empty()) {
        const ssize_t n = write(g_link, g_toHost.data(), g_toHost.size());
        if (n > 0) {
            g_toHost.erase(0, size_t(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return true;
        return false;
    }
    return true;
}

void report(int readyFd, const std::string &text)
{
    if (readyFd < 0)
        return;
    (void)!write(readyFd, text.data(), text.size());
    close(readyFd);
}

} // namespace

int main(int argc, char **argv)
{
    const int readyFd = argc > 1 ? std::atoi(argv[1]) : -1;
    signal(SIGPIPE, SIG_IGN);
    std::string error;
    if (!bringUpLoopback(error)) {
        report(readyFd, error);
        return 1;
    }
    g_link = sandbox::guest::openAgentPort(kPortName, 20000);
    if (g_link < 0) {
        report(readyFd, std::string("the port ") + kPortName + " did not appear");
        return 1;
    }
    // A blocking write returns once the host end is connected; from then on a hang-up on
    // the port means the host end went away.
    std::string hello;
    putU32(hello, 5);
    hello.push_back(char(Credit));
    putU32(hello, 0);
    for (size_t at = 0; at < hello.size();) {
        const ssize_t n = write(g_link, hello.data() + at, hello.size() - at);
        if (n <= 0 && errno != EINTR) {
            report(readyFd, std::string("the host end of ") + kPortName + " is not there");
            return 1;
        }
        at += n > 0 ? size_t(n) : 0;
    }
    fcntl(g_link, F_SETFL, fcntl(g_link, F_GETFL) | O_NONBLOCK);
    const int listener = listenOnLoopback(error);
    if (listener < 0) {
        report(readyFd, error);
        return 1;
    }
    // Nothing more needs root. As nobody, no command (root in the guest, but without CAP_KILL,
    // CAP_SETUID or CAP_SYS_PTRACE) can signal it or read its memory, so none can take the
    // VM's only way out down for the commands beside it.
    constexpr uid_t kNobody = 65534;
    if (setgroups(0, nullptr) != 0 || setresgid(kNobody, kNobody, kNobody) != 0
        || setresuid(kNobody, kNobody, kNobody) != 0) {
        report(readyFd, std::string("cannot become nobody: ") + std::strerror(errno));
        return 1;
    }
    report(readyFd, "ready");

    std::string fromHost;
    std::vector<pollfd> fds;
    std::vector<uint32_t> ids;
    for (;;) {
        fds.clear();
        ids.clear();
        fds.push_back({ g_link, short(POLLIN | (g_toHost.empty() ? 0 : POLLOUT)), 0 });
        fds.push_back({ listener, short(g_streams.size() < kMaxStreams ? POLLIN : 0), 0 });
        for (auto &[id, stream] : g_streams) {
            short events = 0;
            if (!stream.clientEof && stream.inFlight < kWindow)
                events |= POLLIN;
            if (!stream.toClient.empty())
                events |= POLLOUT;
            fds.push_back({ stream.fd, events, 0 });
            ids.push_back(id);
        }
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            return 4;
        }
        for (size_t i = 2; i < fds.size(); ++i) {
            if (!fds[i].revents)
                continue;
            const auto it = g_streams.find(ids[i - 2]);
            if (it == g_streams.end())
                continue;
            // A hang-up after the connection's last byte: both directions are gone.
            if ((fds[i].revents & POLLERR) || ((fds[i].revents & POLLHUP) && it->second.clientEof)) {
                drop(it->first, true);
                continue;
            }
            if (fds[i].revents & POLLOUT) {
                if (!writeClient(it->first, it->second))
                    continue;
            }
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                readClient(it->first, it->second);
        }
        if (fds[1].revents & POLLIN)
            acceptClients(listener);
        if (fds[0].revents & POLLIN) {
            char buffer[65536];
            const ssize_t n = read(g_link, buffer, sizeof buffer);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                return 0; // the host end is gone: every connection closes with this process
            if (n > 0)
                fromHost.append(buffer, size_t(n));
            size_t at = 0;
            while (fromHost.size() - at >= 4) {
                const uint32_t length = getU32(fromHost.data() + at);
                if (length < 5 || length > kMaxFrame)
                    return 5;
                if (fromHost.size() - at < 4 + length)
                    break;
                const char *frame = fromHost.data() + at + 4;
                if (!handleFrame(uint8_t(frame[0]), getU32(frame + 1), frame + 5, length - 5))
                    return 5;
                at += 4 + length;
            }
            fromHost.erase(0, at);
        } else if (fds[0].revents & (POLLHUP | POLLERR)) {
            return 0;
        }
        if (!flushLink())
            return 0;
    }
}
