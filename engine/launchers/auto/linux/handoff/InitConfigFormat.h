#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// sandbox-init's configuration, the one definition of its format: the keys, the writer
// (the engine's SandboxPlan, the run front's recorded plans, `sandbox-init --gate`) and the
// reader (sandbox-init). Plain C++, no Qt: sandbox-init and the run front compile it in.
namespace sandbox::init {

// The wire format is a sequence of NUL-terminated strings: a record key followed by a
// fixed number of fields for that key (the arity in InitConfigFormat.cpp). Unknown keys
// and truncated records are errors: sandbox-init never guesses.
namespace key {
inline constexpr char kVersion[] = "version"; // "1"
inline constexpr char kTier[] = "tier"; // 1 | 2
inline constexpr char kArg[] = "arg";
inline constexpr char kEnv[] = "env"; // NAME=value
inline constexpr char kCwd[] = "cwd";
inline constexpr char kHostname[] = "hostname";
inline constexpr char kNet[] = "net"; // none | allowlist | full
inline constexpr char kProxy[] = "proxy";
inline constexpr char kProxyPort[] = "proxyport";
inline constexpr char kMount[] = "mount"; // ro | rw | tmpfs | mask, source, target
inline constexpr char kSymlink[] = "symlink"; // target, link path
inline constexpr char kLandlockReadable[] = "llro";
inline constexpr char kLandlockWritable[] = "llrw";
inline constexpr char kLandlockDirectory[] = "lldir";
inline constexpr char kLandlockDevice[] = "lldev";
inline constexpr char kLandlockConnect[] = "llconnect";
inline constexpr char kUnix[] = "unix"; // allow | deny | proxy
inline constexpr char kRlimit[] = "rlimit"; // name, value
inline constexpr char kHostExecution[] = "hostexec"; // allow | deny
inline constexpr char kGuardRepositories[] = "guardgit";
inline constexpr char kGuardReadOnly[] = "guardro";
inline constexpr char kGuardDenied[] = "guarddeny";
inline constexpr char kTerminal[] = "terminal"; // rows, columns
inline constexpr char kAgent[] = "agent";
} // namespace key

inline constexpr char kFormatVersion[] = "1";

// What sandbox-init is asked to do, decoded from the configuration the launcher passes
// on fd 3.
struct MountOp
{
    enum class Kind { BindReadOnly, BindWritable, Tmpfs, Mask };
    Kind kind = Kind::BindReadOnly;
    std::string source;
    std::string target;
    friend bool operator==(const MountOp &, const MountOp &) = default;
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
    // `sandbox-init --gate --guest`: that container is a VM guest whose commands run as root.
    // The deny list's calls go to sandbox-init, which refuses and reports each one; the
    // command keeps only the capabilities file work needs (Confinement.cpp), and sandbox-init
    // keeps its own, so the writes it makes for the command carry the command's authority.
    bool inGuest = false;
    friend bool operator==(const InitConfig &, const InitConfig &) = default;
};

// Parses `data`; on failure returns false and sets `error`.
bool parseConfig(const std::string &data, InitConfig &config, std::string &error);

// Appends one record: `name` (a key::) and its fields, each NUL-terminated.
void appendRecord(std::string &out, std::string_view name, std::initializer_list<std::string_view> fields);

// `config` in the format parseConfig() reads, records in a fixed order: version, tier, the
// arguments (one "arg" record each, right after the tier, where a recorded plan puts a new
// command), env, cwd, hostname (only when not the default), net, proxy, proxyport,
// llconnect, mount, symlink, llro, lldir, llrw, lldev, agent, unix, hostexec, rlimit,
// guardgit, guardro, guarddeny, terminal. `inContainer` and `inGuest` are no records
// (sandbox-init --gate sets them).
std::string writeConfig(const InitConfig &config);

// The kind a mount record names ("ro", "rw", "tmpfs", "mask"); false for any other name.
bool mountKindFromName(std::string_view name, MountOp::Kind &kind);

} // namespace sandbox::init
