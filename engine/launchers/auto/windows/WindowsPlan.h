#pragma once

// What sandbox-init.exe does to run one command confined on Windows: the identity it runs
// as, its token, the job object around it, the access changes on paths (undone afterwards),
// and its network. Plain C++ without Qt: the engine writes a plan (WindowsPlanBuilder) and
// sandbox-init.exe, a Win32 program without Qt, reads it with the same parser.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sandbox::windows {

struct ParsedPlan;

struct Plan
{
    // AppContainer: a profile whose SID holds no capability but those listed; Account: a
    // dedicated low-privilege local account, set up once.
    enum class Identity { AppContainer, Account };
    // What the identity may do at a path (and below it, except KeepEntry):
    // Read: read and list; Write: read, create, change and delete; ReadOnly: a deny ACE on
    // writing and deleting (inside a writable path); KeepEntry: a deny ACE on deleting or
    // renaming the entry itself only (a repository's .git); Deny: a deny ACE on everything.
    // Deny ACEs come before grants in an ACL, so their order here does not matter.
    enum class Access { Read, Write, ReadOnly, KeepEntry, Deny };
    enum class Network { Off, Proxy, Full };

    struct PathRule
    {
        Access access = Access::Read;
        // Native, absolute ("C:\\Users\\..."); in a Deny rule a component "*" stands for
        // every existing name there, expanded by sandbox-init.exe when the command starts.
        std::string path;
        friend bool operator==(const PathRule &, const PathRule &) = default;
    };

    // An outbound Windows Firewall rule for the identity's SID. Block rules win over allow
    // rules there, so an allowed port is expressed by blocking every other one.
    struct FirewallRule
    {
        std::string protocol; // "tcp", "udp" or "any"
        // "127.0.0.1", "::1", "any", or "non-loopback" (every address but 127.0.0.0/8 and ::1).
        std::string remoteAddress;
        int firstPort = 0; // 0 with lastPort 0: every port
        int lastPort = 0;
        friend bool operator==(const FirewallRule &, const FirewallRule &) = default;
    };

    static constexpr int kVersion = 1;
    static constexpr int kMaxActiveProcesses = 65535;

    Identity identity = Identity::AppContainer;
    std::string identityName;
    std::vector<std::string> capabilities; // AppContainer only

    // Restricted token: Administrators and other groups as deny-only SIDs, every
    // privilege removed except traversal (SeChangeNotifyPrivilege), integrity as named.
    bool restrictedToken = true;
    std::string integrity = "low"; // "low" or "medium"

    // Job object.
    bool killOnJobClose = true;
    bool allowBreakaway = false;
    int activeProcessLimit = 1024;
    bool dieOnUnhandledException = true;
    // No access to the desktop's other windows, the clipboard, global atoms, display and
    // system settings, or logging off: how a command could make the host run something.
    bool uiRestrictions = true;

    std::vector<PathRule> paths;

    Network network = Network::Off;
    int proxyPort = 0; // Proxy only: the engine proxy's port on loopback
    // AppContainers reach loopback only with an exemption (then the firewall narrows it).
    bool loopbackExemption = false;
    std::vector<FirewallRule> blocked;

    friend bool operator==(const Plan &, const Plan &) = default;

    // One line per setting, tab-separated fields; "%", tab, line feed and carriage return
    // in a field are written as %25, %09, %0A and %0D (paths keep their backslashes as they
    // are). Starts with "sandbox-windows-plan\t1", ends with "end".
    std::string serialize() const;

    // The exact inverse of serialize(): anything else is refused with an error naming the
    // line and the field.
    static ParsedPlan parse(std::string_view text);

    // What sandbox-init.exe undoes when the command has ended (also after a crash, from a
    // journal of these steps), one line each: every ACE it added, every firewall rule, the
    // loopback exemption, and the AppContainer profile.
    std::vector<std::string> undoSteps() const;

    static const char *accessName(Access access);
    static const char *networkName(Network network);
    static const char *identityKindName(Identity identity);
};

struct ParsedPlan
{
    std::optional<Plan> plan;
    std::string error; // when no plan: "line N: <field>: what is wrong"
};

} // namespace sandbox::windows
