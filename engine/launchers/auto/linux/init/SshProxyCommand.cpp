#include "SshProxyCommand.h"

#include "fdio/FdIo.h"

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::init {

namespace {

constexpr size_t kMaxAnswerHead = 8192;

const char *g_program = "sandbox-init"; // who speaks in the messages

bool validHost(const std::string &host)
{
    if (host.empty() || host.size() > 253)
        return false;
    for (const char c : host) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
            || c == '-' || c == ':' || c == '_';
        if (!ok)
            return false;
    }
    return true;
}

int parsePort(const char *text)
{
    char *end = nullptr;
    errno = 0;
    const long value = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < 1 || value > 65535)
        return -1;
    return static_cast<int>(value);
}

// A stream socket of `family` connected to `address`, or -1 with a message on stderr.
int connectedSocket(int family, const sockaddr *address, socklen_t length)
{
    const int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, address, length) == 0)
        return fd;
    std::fprintf(stderr, "%s: ssh proxy: cannot reach the filtering proxy: %s\n", g_program, std::strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

// A connection to the proxy this sandbox has, or -1 with a message on stderr.
int connectToProxy()
{
    const char *unixPath = std::getenv("SANDBOX_PROXY_SOCKET");
    if (unixPath && *unixPath) {
        sockaddr_un address = {};
        if (std::strlen(unixPath) >= sizeof address.sun_path) {
            std::fprintf(stderr, "%s: ssh proxy: the proxy socket path is too long\n", g_program);
            return -1;
        }
        address.sun_family = AF_UNIX;
        std::strcpy(address.sun_path, unixPath);
        return connectedSocket(AF_UNIX, reinterpret_cast<sockaddr *>(&address), sizeof address);
    }
    // Tier 1: SANDBOX_PROXY is http://127.0.0.1:PORT, the bridge inside the sandbox.
    const char *url = std::getenv("SANDBOX_PROXY");
    const char *prefix = "http://127.0.0.1:";
    if (!url || std::strncmp(url, prefix, std::strlen(prefix)) != 0) {
        std::fprintf(stderr,
                     "%s: ssh proxy: this sandbox has no filtering proxy (its policy allows no "
                     "domains or SSH hosts)\n",
                     g_program);
        return -1;
    }
    const int port = parsePort(url + std::strlen(prefix));
    if (port < 0) {
        std::fprintf(stderr, "%s: ssh proxy: bad SANDBOX_PROXY \"%s\"\n", g_program, url);
        return -1;
    }
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return connectedSocket(AF_INET, reinterpret_cast<sockaddr *>(&address), sizeof address);
}

// Reads the proxy's answer head byte by byte (nothing of the tunnel is read past it) and
// tells whether it is a 2xx; `head` is what was read.
bool readAnswer(int fd, std::string &head)
{
    char c = 0;
    while (head.size() < kMaxAnswerHead && head.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        head.push_back(c);
    }
    return head.size() > 12 && head.compare(0, 9, "HTTP/1.1 ") == 0 && head[9] == '2';
}

// Copies between standard input/output and the tunnel until both directions have ended.
int relay(int tunnel)
{
    bool inputOpen = true;
    bool tunnelOpen = true;
    char buffer[16384];
    while (tunnelOpen) {
        pollfd fds[2] = { { inputOpen ? STDIN_FILENO : -1, POLLIN, 0 }, { tunnel, POLLIN, 0 } };
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (inputOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
            if (n > 0) {
                if (!fdio::writeAll(tunnel, buffer, static_cast<size_t>(n)))
                    return 1;
            } else if (n == 0 || errno != EINTR) {
                inputOpen = false;
                shutdown(tunnel, SHUT_WR);
            }
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = read(tunnel, buffer, sizeof buffer);
            if (n > 0) {
                if (!fdio::writeAll(STDOUT_FILENO, buffer, static_cast<size_t>(n)))
                    return 1;
            } else if (n == 0 || errno != EINTR) {
                tunnelOpen = false;
            }
        }
    }
    return 0;
}

} // namespace

int runSshProxy(const char *hostText, const char *portText, const char *program)
{
    g_program = program;
    const std::string host = hostText;
    const int port = parsePort(portText);
    if (!validHost(host) || port < 0) {
        std::fprintf(stderr, "%s: ssh proxy: \"%s\" port \"%s\" is not a host and port\n", g_program, hostText,
                     portText);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    const int tunnel = connectToProxy();
    if (tunnel < 0)
        return 1;
    // An IPv6 literal is bracketed, as in a URL's authority.
    const std::string authority
        = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
    const std::string request = "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
    std::string head;
    if (!fdio::writeAll(tunnel, request.data(), request.size()) || !readAnswer(tunnel, head)) {
        const std::string line = head.substr(0, head.find("\r\n"));
        std::fprintf(stderr, "%s: ssh proxy: %s refused by the filtering proxy%s%s\n", g_program, authority.c_str(),
                     line.empty() ? "" : ": ", line.c_str());
        close(tunnel);
        return 1;
    }
    const int status = relay(tunnel);
    close(tunnel);
    return status;
}

} // namespace sandbox::init
