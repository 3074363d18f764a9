#pragma once

#include <memory>
#include <poll.h>
#include <string>
#include <vector>

namespace sandbox::init {

// Tier 1, in pid 1: listens on 127.0.0.1:<port> inside the sandbox's empty network
// namespace and relays each TCP connection to the engine's filtering proxy over its unix
// socket (reached through an O_PATH descriptor, so the socket need not be visible in the
// sandbox's tree).
class ProxyBridge final
{
public:
    ProxyBridge();
    ~ProxyBridge();
    ProxyBridge(const ProxyBridge &) = delete;
    ProxyBridge &operator=(const ProxyBridge &) = delete;

    bool listen(int port, int proxyPathFd, std::string &error);
    bool active() const { return m_listenFd >= 0; }

    // Appends the descriptors to poll; dispatch() gets the same entries back.
    void collect(std::vector<pollfd> &fds);
    void dispatch(const pollfd *fds, size_t count);

private:
    struct Relay;
    void accept();

    int m_listenFd = -1;
    int m_proxyPathFd = -1;
    std::vector<std::unique_ptr<Relay>> m_relays;
};

// `sandbox-init --proxy-bridge PORT SOCKET`: a ProxyBridge on its own, for a sandbox the
// engine did not set up itself (a container): relays 127.0.0.1:PORT to the unix socket
// SOCKET until killed; as pid 1 it also reaps orphans. Returns only on a setup error.
int serveProxyBridge(const char *port, const char *socketPath);
// `sandbox-init --proxy-bridge-wait PORT`: 0 once 127.0.0.1:PORT accepts a connection,
// 1 when it still does not after 10 seconds.
int waitForProxyBridge(const char *port);

} // namespace sandbox::init
