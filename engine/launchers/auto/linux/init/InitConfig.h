#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sandbox::init {

// What sandbox-init is asked to do, decoded from the configuration the launcher passes
// on fd 3. The wire format is a sequence of NUL-terminated strings: a record key
// followed by a fixed number of fields for that key (see InitConfig.cpp). Unknown keys
// and truncated records are errors: sandbox-init never guesses.
struct MountOp
{
    enum class Kind { BindReadOnly, BindWritable, Tmpfs, Mask };
    Kind kind = Kind::BindReadOnly;
    std::string source;
    std::string target;
};

struct InitConfig
{
    enum class Network { None, Allowlist, Full };

    int tier = 0;
    std::vector<std::string> argv;
    std::vector<std::string> env;
    std::string cwd;
    std::string hostname = "sandbox";
    Network network = Network::None;
    std::string proxySocket; // host path of the filtering proxy's unix socket
    int proxyPort = 0; // tier 1: 127.0.0.1 port bridged to proxySocket
    std::vector<MountOp> mounts;
    std::vector<std::pair<std::string, std::string>> symlinks; // (target, link path) in the new root
    std::vector<std::string> landlockReadable;
    std::vector<std::string> landlockWritable;
    std::vector<std::string> landlockDirectories; // listing only
    std::vector<std::string> landlockDevices; // read + write + ioctl (device nodes, /dev dirs)
    std::vector<int> landlockConnectPorts;
    bool denyUnixSockets = false;
    bool superviseConnect = false; // unix sockets only to the proxy and the agent, via ConnectSupervisor
    // Host path of this command's filtering SSH agent socket (policy.sshAgent): the one other
    // unix socket a supervised connect() may reach, under the same name inside (SSH_AUTH_SOCK).
    std::string agentSocket;
    bool exposeHostExecution = false; // host execution allowed (or asked and granted)
    // A new terminal of this size for the command (0 rows: none): its stdin, stdout, stderr
    // and controlling terminal.
    int terminalRows = 0;
    int terminalColumns = 0;
    std::vector<std::pair<std::string, long long>> rlimits;
    std::vector<std::string> guardRepositories; // WriteGate: roots whose repositories it guards
    std::vector<std::string> guardReadOnly; // WriteGate: read-only paths inside writable ones
    std::vector<std::string> guardDenied; // WriteGate: the policy's denied paths (no write beneath)
    // `sandbox-init --gate`: the command runs in a container (a container backend) that already
    // confines it; sandbox-init adds its seccomp deny list and the write gate, nothing else.
    bool inContainer = false;
};

// Parses `data`; on failure returns false and sets `error`.
bool parseConfig(const std::string &data, InitConfig &config, std::string &error);

} // namespace sandbox::init
