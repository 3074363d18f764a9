#include "Confinement.h"

#include "SeccompFilter.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// The distribution's kernel headers predate Landlock ABI 4-7; the values below are the
// kernel's stable UAPI.
namespace {

constexpr unsigned kCreateRulesetVersion = 1U << 0;
constexpr int kRulePathBeneath = 1;
constexpr int kRuleNetPort = 2;

constexpr unsigned long long kFsExecute = 1ULL << 0;
constexpr unsigned long long kFsWriteFile = 1ULL << 1;
constexpr unsigned long long kFsReadFile = 1ULL << 2;
constexpr unsigned long long kFsReadDir = 1ULL << 3;
constexpr unsigned long long kFsRefer = 1ULL << 13;
constexpr unsigned long long kFsTruncate = 1ULL << 14;
constexpr unsigned long long kFsIoctlDev = 1ULL << 15;
constexpr unsigned long long kNetBindTcp = 1ULL << 0;
constexpr unsigned long long kNetConnectTcp = 1ULL << 1;
constexpr unsigned long long kScopeAbstractUnix = 1ULL << 0;
constexpr unsigned long long kScopeSignal = 1ULL << 1;

struct RulesetAttr
{
    unsigned long long handledAccessFs;
    unsigned long long handledAccessNet;
    unsigned long long scoped;
};

struct __attribute__((packed)) PathBeneathAttr
{
    unsigned long long allowedAccess;
    int parentFd;
};

struct NetPortAttr
{
    unsigned long long allowedAccess;
    unsigned long long port;
};

unsigned long long fsRightsForAbi(int abi)
{
    unsigned long long rights = (1ULL << 13) - 1; // ABI 1: execute .. make_sym
    if (abi >= 2)
        rights |= kFsRefer;
    if (abi >= 3)
        rights |= kFsTruncate;
    if (abi >= 5)
        rights |= kFsIoctlDev;
    return rights;
}

// Rights that make sense on a non-directory (the kernel rejects the others).
constexpr unsigned long long kFileOnlyRights = kFsExecute | kFsWriteFile | kFsReadFile | kFsTruncate | kFsIoctlDev;

std::string errnoText(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

bool addPathRule(int rulesetFd, const std::string &path, unsigned long long rights, std::string &error)
{
    const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return true; // nothing to allow: the path does not exist in this sandbox
        error = errnoText("Landlock: cannot open " + path);
        return false;
    }
    struct stat st = {};
    if (fstat(fd, &st) != 0) {
        error = errnoText("Landlock: cannot stat " + path);
        close(fd);
        return false;
    }
    if (!S_ISDIR(st.st_mode))
        rights &= kFileOnlyRights;
    PathBeneathAttr attr = { rights, fd };
    const long rc = syscall(SYS_landlock_add_rule, rulesetFd, kRulePathBeneath, &attr, 0);
    const int saved = errno;
    close(fd);
    if (rc != 0) {
        errno = saved;
        error = errnoText("Landlock: cannot add a rule for " + path);
        return false;
    }
    return true;
}

bool hasCapability(int cap)
{
    __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0)
        return false;
    return (data[cap / 32].effective & (1U << (cap % 32))) != 0;
}

bool permittedIsEmpty()
{
    __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0)
        return false;
    return data[0].permitted == 0 && data[1].permitted == 0;
}

int rlimitResource(const std::string &name)
{
    if (name == "core")
        return RLIMIT_CORE;
    if (name == "nofile")
        return RLIMIT_NOFILE;
    if (name == "nproc")
        return RLIMIT_NPROC;
    if (name == "as")
        return RLIMIT_AS;
    if (name == "fsize")
        return RLIMIT_FSIZE;
    if (name == "cpu")
        return RLIMIT_CPU;
    return -1;
}

} // namespace

namespace sandbox::init {

int landlockAbi()
{
    const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
    return abi < 0 ? 0 : static_cast<int>(abi);
}

bool applyRlimits(const InitConfig &config, std::string &error)
{
    for (const auto &[name, value] : config.rlimits) {
        const int resource = rlimitResource(name);
        if (resource < 0) {
            error = "unknown resource limit '" + name + "'";
            return false;
        }
        struct rlimit limit = {};
        limit.rlim_cur = limit.rlim_max = value < 0 ? RLIM_INFINITY : static_cast<rlim_t>(value);
        struct rlimit current = {};
        getrlimit(resource, &current);
        // Never raise a hard limit the caller already has lower.
        if (current.rlim_max != RLIM_INFINITY && (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > current.rlim_max))
            limit.rlim_cur = limit.rlim_max = current.rlim_max;
        if (setrlimit(resource, &limit) != 0) {
            error = errnoText("cannot set resource limit " + name);
            return false;
        }
    }
    return true;
}

namespace {

// Capability numbers as a capability set's two 32-bit words hold them.
struct CapabilityWords
{
    __u32 word[2] = {};
    explicit CapabilityWords(std::initializer_list<int> capabilities)
    {
        for (int cap : capabilities)
            word[cap / 32] |= 1U << (cap % 32);
    }
    bool has(int cap) const { return word[cap / 32] & (1U << (cap % 32)); }
};

} // namespace

bool limitBoundingSet(std::initializer_list<int> keep, std::string &error)
{
    const CapabilityWords kept(keep);
    for (int cap = 0; cap <= 63; ++cap) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0)
            break; // past the last capability this kernel knows
        if (!kept.has(cap) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
            error = errnoText("cannot drop capability " + std::to_string(cap) + " from the bounding set");
            return false;
        }
    }
    return true;
}

bool limitEffectiveCapabilities(std::initializer_list<int> effective, std::string &error)
{
    const CapabilityWords wanted(effective);
    __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0) {
        error = errnoText("cannot read the capabilities");
        return false;
    }
    for (int i = 0; i < 2; ++i)
        data[i].effective = wanted.word[i] & data[i].permitted;
    if (syscall(SYS_capset, &header, data) != 0) {
        error = errnoText("cannot limit the effective capabilities");
        return false;
    }
    return true;
}

// A command in a VM guest runs as root: it keeps the capabilities ordinary file work needs
// as root (files of any owner in the shares, ownership and modes, low ports) and loses the
// rest, from its bounding set too, so neither it nor anything it runs reaches other
// processes (their memory, or signals to sandbox-init, whose real uid is not root), the
// kernel, devices or the network configuration. It gets root as its real uid back first
// (sandbox-init gave its own away before starting it).
bool dropGuestCapabilities(std::string &error)
{
    const std::initializer_list<int> kept
        = { CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_FSETID, CAP_NET_BIND_SERVICE };
    if (setresuid(0, 0, 0) != 0) {
        error = errnoText("cannot take back root as the command's real uid");
        return false;
    }
    // sandbox-init limited its effective set: dropping from the bounding set needs CAP_SETPCAP.
    if (!limitEffectiveCapabilities({ CAP_SETPCAP }, error) || !limitBoundingSet(kept, error))
        return false;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
        error = errnoText("cannot clear ambient capabilities");
        return false;
    }
    const CapabilityWords keep(kept);
    __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0) {
        error = errnoText("cannot read the capabilities");
        return false;
    }
    for (int i = 0; i < 2; ++i) {
        data[i].effective = data[i].permitted & keep.word[i];
        data[i].permitted &= keep.word[i];
        data[i].inheritable &= keep.word[i];
    }
    if (syscall(SYS_capset, &header, data) != 0) {
        error = errnoText("cannot drop capabilities");
        return false;
    }
    return true;
}

bool dropPrivileges(std::string &error)
{
    if (hasCapability(CAP_SETPCAP)) {
        // A uid 0 inside the sandbox must not regain capabilities by exec.
        const unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP
            | SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE
            | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
        if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) {
            error = errnoText("cannot lock securebits");
            return false;
        }
        if (!limitBoundingSet({}, error))
            return false;
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
        error = errnoText("cannot clear ambient capabilities");
        return false;
    }
    __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capset, &header, data) != 0) {
        error = errnoText("cannot drop capabilities");
        return false;
    }
    if (!permittedIsEmpty()) {
        error = "capabilities remain after dropping them";
        return false;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        error = errnoText("cannot set no_new_privs");
        return false;
    }
    return true;
}

bool applyLandlock(const InitConfig &config, std::string &error)
{
    const int abi = landlockAbi();
    if (abi < 1) {
        // Tier 1 walls the filesystem with its mount namespace; tier 2 has nothing else.
        if (config.tier == 1)
            return true;
        error = "Landlock is not available";
        return false;
    }
    const unsigned long long fsRights = fsRightsForAbi(abi);
    RulesetAttr attr = {};
    attr.handledAccessFs = fsRights;
    const bool restrictTcp = config.network != InitConfig::Network::Full && abi >= 4;
    if (restrictTcp)
        attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;
    if (abi >= 6)
        attr.scoped = kScopeAbstractUnix | kScopeSignal;
    size_t attrSize = sizeof(attr);
    if (abi < 6)
        attrSize = offsetof(RulesetAttr, scoped);
    if (abi < 4)
        attrSize = offsetof(RulesetAttr, handledAccessNet);
    const int rulesetFd = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, attrSize, 0));
    if (rulesetFd < 0) {
        error = errnoText("Landlock: cannot create a ruleset");
        return false;
    }
    const unsigned long long readRights = kFsExecute | kFsReadFile | kFsReadDir;
    const unsigned long long deviceRights = readRights | kFsWriteFile | (fsRights & (kFsTruncate | kFsIoctlDev));
    bool ok = true;
    for (const std::string &path : config.landlockReadable)
        ok = ok && addPathRule(rulesetFd, path, readRights, error);
    for (const std::string &path : config.landlockDirectories)
        ok = ok && addPathRule(rulesetFd, path, kFsReadDir, error);
    for (const std::string &path : config.landlockWritable)
        ok = ok && addPathRule(rulesetFd, path, fsRights, error);
    for (const std::string &path : config.landlockDevices)
        ok = ok && addPathRule(rulesetFd, path, deviceRights, error);
    if (ok && restrictTcp) {
        for (int port : config.landlockConnectPorts) {
            NetPortAttr net
                = { kNetConnectTcp | (config.tier == 1 ? kNetBindTcp : 0), static_cast<unsigned long long>(port) };
            if (syscall(SYS_landlock_add_rule, rulesetFd, kRuleNetPort, &net, 0) != 0) {
                error = errnoText("Landlock: cannot add a TCP rule");
                ok = false;
                break;
            }
        }
    }
    if (ok && syscall(SYS_landlock_restrict_self, rulesetFd, 0) != 0) {
        error = errnoText("Landlock: cannot restrict the sandbox");
        ok = false;
    }
    close(rulesetFd);
    return ok;
}

bool confine(const InitConfig &config, int *notifyFd, std::string &error)
{
    // In a container its runtime keeps the mounts, limits and capabilities; sandbox-init is
    // bound by them as the command is, and stays outside the command's filters to answer
    // the write gate: the deny list and the gate's rules, as tier 1's command gets them.
    // In a VM guest the command is root and loses what reaches beyond its files first.
    if (config.inContainer)
        return (!config.inGuest || dropGuestCapabilities(error)) && applySeccomp(config, nullptr, error)
            && applyCommandFilter(config, notifyFd, error);
    return applyRlimits(config, error) && dropPrivileges(error) && applyLandlock(config, error)
        && applySeccomp(config, notifyFd, error);
}

} // namespace sandbox::init
