#include "ProxyBridge.h"

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::init {

namespace {

constexpr size_t kBufferSize = 64 * 1024;
constexpr size_t kMaxRelays = 256;

int parsePort(const char *text)
{
    char *end = nullptr;
    errno = 0;
    const long port = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || port < 1 || port > 65535)
        return -1;
    return static_cast<int>(port);
}

} // namespace

// One TCP connection and its unix-socket twin; bytes flow both ways through bounded
// buffers, half-closes are passed on.
struct ProxyBridge::Relay
{
    int fd[2] = { -1, -1 }; // 0: sandbox side (TCP), 1: proxy side (unix)
    std::string pending[2]; // bytes read from fd[i], waiting to be written to fd[1 - i]
    bool eof[2] = { false, false };
    bool shut[2] = { false, false };
    bool dead = false;

    ~Relay()
    {
        for (int f : fd) {
            if (f >= 0)
                close(f);
        }
    }

    short events(int side) const
    {
        short e = 0;
        if (!eof[side] && pending[side].size() < kBufferSize)
            e |= POLLIN;
        if (!pending[1 - side].empty())
            e |= POLLOUT;
        return e;
    }

    void onReady(int side, short revents)
    {
        if (revents & (POLLIN | POLLHUP | POLLERR)) {
            if (!eof[side] && pending[side].size() < kBufferSize) {
                char buffer[16384];
                const ssize_t n = read(fd[side], buffer, sizeof buffer);
                if (n > 0)
                    pending[side].append(buffer, static_cast<size_t>(n));
                else if (n == 0 || (errno != EAGAIN && errno != EINTR))
                    eof[side] = true;
            } else if (revents & POLLERR) {
                dead = true;
            }
        }
        if ((revents & POLLOUT) && !pending[1 - side].empty()) {
            const ssize_t n = send(fd[side], pending[1 - side].data(), pending[1 - side].size(), MSG_NOSIGNAL);
            if (n > 0)
                pending[1 - side].erase(0, static_cast<size_t>(n));
            else if (n < 0 && errno != EAGAIN && errno != EINTR)
                dead = true;
        }
        for (int s = 0; s < 2; ++s) {
            if (eof[s] && pending[s].empty() && !shut[1 - s]) {
                shutdown(fd[1 - s], SHUT_WR);
                shut[1 - s] = true;
            }
        }
        if (eof[0] && eof[1] && pending[0].empty() && pending[1].empty())
            dead = true;
    }
};

ProxyBridge::ProxyBridge() = default;

ProxyBridge::~ProxyBridge()
{
    if (m_listenFd >= 0)
        close(m_listenFd);
}

bool ProxyBridge::listen(int port, int proxyPathFd, std::string &error)
{
    m_proxyPathFd = proxyPathFd;
    m_listenFd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_listenFd < 0) {
        error = std::string("proxy bridge: cannot create a socket: ") + std::strerror(errno);
        return false;
    }
    const int one = 1;
    setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(m_listenFd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || ::listen(m_listenFd, 64) != 0) {
        error = std::string("proxy bridge: cannot listen on 127.0.0.1:") + std::to_string(port) + ": "
            + std::strerror(errno);
        return false;
    }
    return true;
}

void ProxyBridge::collect(std::vector<pollfd> &fds)
{
    if (m_listenFd < 0)
        return;
    fds.push_back({ m_listenFd, static_cast<short>(m_relays.size() < kMaxRelays ? POLLIN : 0), 0 });
    for (const auto &relay : m_relays) {
        fds.push_back({ relay->fd[0], relay->events(0), 0 });
        fds.push_back({ relay->fd[1], relay->events(1), 0 });
    }
}

void ProxyBridge::dispatch(const pollfd *fds, size_t count)
{
    if (m_listenFd < 0 || count == 0)
        return;
    const size_t relayCount = m_relays.size();
    for (size_t i = 0; i < relayCount && 1 + 2 * i + 1 < count; ++i) {
        Relay &relay = *m_relays[i];
        for (int side = 0; side < 2; ++side) {
            const short revents = fds[1 + 2 * i + static_cast<size_t>(side)].revents;
            if (revents)
                relay.onReady(side, revents);
        }
    }
    std::erase_if(m_relays, [](const std::unique_ptr<Relay> &relay) { return relay->dead; });
    if (fds[0].revents & POLLIN)
        accept();
}

void ProxyBridge::accept()
{
    for (;;) {
        const int client = accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0)
            return;
        auto relay = std::make_unique<Relay>();
        relay->fd[0] = client;
        relay->fd[1] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address = {};
        address.sun_family = AF_UNIX;
        const std::string path = "/proc/self/fd/" + std::to_string(m_proxyPathFd);
        std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
        if (relay->fd[1] < 0 || connect(relay->fd[1], reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
            continue; // the client sees its connection closed
        fcntl(relay->fd[1], F_SETFL, fcntl(relay->fd[1], F_GETFL) | O_NONBLOCK);
        if (m_relays.size() >= kMaxRelays)
            return;
        m_relays.push_back(std::move(relay));
    }
}

int serveProxyBridge(const char *portText, const char *socketPath)
{
    const int port = parsePort(portText);
    if (port < 0) {
        std::fprintf(stderr, "sandbox-init: proxy bridge: \"%s\" is not a port (1-65535)\n", portText);
        return 2;
    }
    // As pid 1 of a container it installs no handler, so the commands beside it cannot
    // signal it at all (only SIGKILL from outside ends it); their orphans are reaped by
    // the kernel.
    signal(SIGCHLD, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    const int socketFd = open(socketPath, O_PATH | O_CLOEXEC);
    struct stat info = {};
    if (socketFd < 0 || fstat(socketFd, &info) != 0 || !S_ISSOCK(info.st_mode)) {
        std::fprintf(stderr, "sandbox-init: proxy bridge: %s is not a socket: %s\n", socketPath,
                     socketFd < 0 ? std::strerror(errno) : "wrong file type");
        return 1;
    }
    ProxyBridge bridge;
    std::string error;
    if (!bridge.listen(port, socketFd, error)) {
        std::fprintf(stderr, "sandbox-init: %s\n", error.c_str());
        return 1;
    }
    std::vector<pollfd> fds;
    for (;;) {
        fds.clear();
        bridge.collect(fds);
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            std::fprintf(stderr, "sandbox-init: proxy bridge: poll: %s\n", std::strerror(errno));
            return 1;
        }
        bridge.dispatch(fds.data(), fds.size());
    }
}

int waitForProxyBridge(const char *portText)
{
    const int port = parsePort(portText);
    if (port < 0) {
        std::fprintf(stderr, "sandbox-init: proxy bridge: \"%s\" is not a port (1-65535)\n", portText);
        return 2;
    }
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timespec start = {};
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return 1;
        const bool connected = connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
        close(fd);
        if (connected)
            return 0;
        timespec now = {};
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= 10) {
            std::fprintf(stderr, "sandbox-init: nothing listens on 127.0.0.1:%d\n", port);
            return 1;
        }
        // The bridge is starting: try again in a millisecond.
        const timespec pause = { 0, 1000000 };
        nanosleep(&pause, nullptr);
    }
}

} // namespace sandbox::init
