#pragma once

#include "MetadataSupervisor.h"
#include "WriteGate.h"

#include <atomic>
#include <linux/seccomp.h>
#include <memory>
#include <string>
#include <vector>

namespace sandbox::init {

// A unix socket a supervised command may connect to: the address it names (`name`), and
// where sandbox-init connects in its place (`connectPath`: the same path, or
// /proc/self/fd/N of a descriptor sandbox-init opened on the socket before the command ran).
struct UnixTarget
{
    std::string name;
    std::string connectPath;
};

// Tier 2 with allowed domains: the command needs unix sockets to reach the filtering proxy,
// and with no mount namespace every other unix socket of the host would be reachable too
// (agents in the home, the engine's own socket, container engines). With a filtering SSH
// agent (both tiers) the command needs its agent's socket, and nothing else. seccomp hands
// every connect() of the command to this supervisor (user notification). It connects to
// one of the targets itself, on its own copy of the address, and installs that socket in
// place of the command's descriptor; every other connect() is refused. Nothing the command
// changes in its memory after the check can redirect a connection the supervisor made.
// The same notification descriptor carries the command's chmod and utimes calls in tier 2,
// answered by MetadataSupervisor, and the calls the write gate judges (both tiers): one
// listener, one loop.
class ConnectSupervisor final
{
public:
    // `gate` (may be null) outlives the supervisor.
    ConnectSupervisor(int notifyFd, std::vector<UnixTarget> targets, const std::vector<std::string> &writablePaths,
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

    // At most this many blocking connect()s of other families wait at once.
    static constexpr int kMaxWaitingConnects = 64;

    int connectTo(const UnixTarget &target, unsigned pid, int targetFd) const;
    // An IPv4, IPv6 or AF_UNSPEC connect() (the network policy, not this supervisor, decides
    // where those go): made by sandbox-init on the caller's own socket, taken with
    // pidfd_getfd, with the address copied once; answered at once, or from a thread when the
    // socket blocks. False when the call is not one of those (left to the unix rules).
    bool connectOnItsSocket(const seccomp_notif &request, seccomp_notif_resp &response);
    void reportRefusal(const char *kind, const std::string &what);

    int m_notifyFd = -1;
    std::vector<UnixTarget> m_targets;
    MetadataSupervisor m_metadata;
    WriteGate *m_gate = nullptr;
    unsigned m_reportedRefusals = 0;
    // Shared with the waiting threads, which may outlive the supervisor.
    std::shared_ptr<std::atomic<int>> m_waitingConnects = std::make_shared<std::atomic<int>>(0);
};

} // namespace sandbox::init
