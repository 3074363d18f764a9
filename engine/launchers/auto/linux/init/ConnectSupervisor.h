#pragma once

#include "MetadataSupervisor.h"
#include "WriteGate.h"

#include <deque>
#include <linux/seccomp.h>
#include <memory>
#include <mutex>
#include <string>
#include <sys/socket.h>
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

// The IPv4 and IPv6 connect()s sandbox-init makes for a command, each on the command's own
// socket: at most ConnectSupervisor::kMaxConnectThreads worker threads make them, the rest
// wait their turn. Shared with the workers, which may outlive the supervisor.
struct ConnectQueue
{
    struct Job
    {
        int socketFd = -1; // sandbox-init's copy of the command's socket
        sockaddr_storage address = {};
        socklen_t length = 0;
        seccomp_notif_resp response = {};
    };

    std::mutex mutex;
    std::deque<Job> waiting; // guarded by mutex
    int running = 0; // worker threads; guarded by mutex
    int notifyFd = -1; // a copy of the listener the workers answer on

    ~ConnectQueue();
    // A worker: makes `job`'s connection, answers it, then the waiting ones, until none is left.
    static void run(std::shared_ptr<ConnectQueue> queue, Job job);
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
// listener, one loop. In a VM guest it carries the deny list's calls as well.
class ConnectSupervisor final
{
public:
    // How many of the command's calls reached sandbox-init and how long answering them took,
    // kept by the caller: it outlives the supervisor, which goes when the command's last
    // process does. Reported when the command ends (StatusChannel.h, `supervised`).
    struct Tally
    {
        unsigned long long calls = 0;
        unsigned long long nanoseconds = 0;
    };

    // `gate` (may be null) outlives the supervisor. With `reportDeniedCalls` (a VM guest) the
    // deny list's calls arrive here too: each is refused (EPERM) and reported.
    ConnectSupervisor(int notifyFd, std::vector<UnixTarget> targets, const std::vector<std::string> &writablePaths,
                      WriteGate *gate, bool reportDeniedCalls = false);
    ~ConnectSupervisor();
    ConnectSupervisor(const ConnectSupervisor &) = delete;
    ConnectSupervisor &operator=(const ConnectSupervisor &) = delete;

    int fd() const { return m_notifyFd; }
    void countInto(Tally &tally) { m_tally = &tally; }

    // Answers one pending notification (call when fd() is readable; POLLHUP on it means
    // every process under the filter has exited).
    void handleOne();

private:
    // At most this many refusals are reported per sandbox: a command looping on refused
    // calls cannot flood the engine (the calls stay refused).
    static constexpr unsigned kMaxReportedRefusals = 64;

    // Worker threads making IPv4 and IPv6 connect()s at once.
    static constexpr int kMaxConnectThreads = 256;

    int connectTo(const UnixTarget &target, unsigned pid, int targetFd) const;
    // An IPv4, IPv6 or AF_UNSPEC connect() (the network policy, not this supervisor, decides
    // where those go): made by sandbox-init on the caller's own socket, taken with
    // pidfd_getfd, with the address copied once, on a worker thread (ConnectQueue). False
    // when the call is not one of those (left to the unix rules).
    bool connectOnItsSocket(const seccomp_notif &request, seccomp_notif_resp &response);
    void reportRefusal(const char *kind, const std::string &what);

    int m_notifyFd = -1;
    std::vector<UnixTarget> m_targets;
    MetadataSupervisor m_metadata;
    WriteGate *m_gate = nullptr;
    bool m_reportDeniedCalls = false;
    unsigned m_reportedRefusals = 0;
    std::shared_ptr<ConnectQueue> m_connects = std::make_shared<ConnectQueue>();
    Tally *m_tally = nullptr;
};

} // namespace sandbox::init
