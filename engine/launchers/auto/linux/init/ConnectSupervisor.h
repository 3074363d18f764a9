#pragma once

#include "MetadataSupervisor.h"
#include "WriteGate.h"

#include <string>
#include <vector>

namespace sandbox::init {

// Tier 2 with allowed domains: the command needs unix sockets to reach the filtering proxy,
// and with no mount namespace every other unix socket of the host would be reachable too
// (agents in the home, the engine's own socket, container engines). seccomp hands every
// connect() of the command to this supervisor (user notification). It connects to the
// proxy itself, on its own copy of the address, and installs that socket in place of the
// command's descriptor; every other connect() is refused. Nothing the command changes in
// its memory after the check can redirect a connection the supervisor made.
// The same notification descriptor carries the command's chmod and utimes calls in tier 2,
// answered by MetadataSupervisor, and the calls the write gate judges (both tiers; tier 1
// has no connect() supervision): one listener, one loop.
class ConnectSupervisor final
{
public:
    // `gate` (may be null) outlives the supervisor.
    ConnectSupervisor(int notifyFd, std::string proxySocket, const std::vector<std::string> &writablePaths,
                      WriteGate *gate);
    ~ConnectSupervisor();
    ConnectSupervisor(const ConnectSupervisor &) = delete;
    ConnectSupervisor &operator=(const ConnectSupervisor &) = delete;

    int fd() const { return m_notifyFd; }

    // Answers one pending notification (call when fd() is readable; POLLHUP on it means
    // every process under the filter has exited).
    void handleOne();

private:
    // At most this many refusals are reported per sandbox: a command looping on refused
    // calls cannot flood the engine (the calls stay refused).
    static constexpr unsigned kMaxReportedRefusals = 64;

    int connectToProxy(unsigned pid, int targetFd) const;
    void reportRefusal(const char *kind, const std::string &what);

    int m_notifyFd = -1;
    std::string m_proxySocket;
    MetadataSupervisor m_metadata;
    WriteGate *m_gate = nullptr;
    unsigned m_reportedRefusals = 0;
};

} // namespace sandbox::init
