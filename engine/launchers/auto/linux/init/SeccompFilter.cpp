#include "SeccompFilter.h"

#include "WriteGate.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

namespace sandbox::init {

static const char *const kNoWriteGate
    = "this kernel cannot hand calls to sandbox-init (seccomp user notification, Linux 5.9 or later), so the "
      "repository files that make git run code cannot be protected";

// No unix datagram or sequenced-packet socket, from socket() or socketpair(): a datagram
// goes to any socket path named in sendto() or sendmsg(), with no connect() to answer
// (SOCK_RAW is one too: the kernel makes a unix datagram socket of it). Stream socket pairs
// stay (a pair reaches nothing but itself).
static int addUnixDatagramRules(scmp_filter_ctx ctx, uint32_t refused)
{
    int rc = 0;
    for (int call : { SCMP_SYS(socket), SCMP_SYS(socketpair) }) {
        for (scmp_datum_t type : { SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET })
            rc = rc ? rc
                    : seccomp_rule_add(ctx, refused, call, 2, SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0xffffffffULL, AF_UNIX),
                                       SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xfULL, type));
    }
    return rc;
}

// Stream unix sockets only, and every connect() answered by sandbox-init (ConnectSupervisor).
static int addConnectSupervisionRules(scmp_filter_ctx ctx, uint32_t refused)
{
    const int rc = addUnixDatagramRules(ctx, refused);
    return rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(connect), 0);
}

static bool notificationsAvailable()
{
    // API level 5: the kernel has seccomp user notification (Linux 5.0) and libseccomp
    // can use it.
    return seccomp_api_get() >= 5;
}

bool superviseNotifications(const InitConfig &config)
{
    return config.superviseConnect || config.inGuest || (config.tier == 2 && notificationsAvailable())
        || (WriteGate::wanted(config) && notificationsAvailable());
}

// The calls WriteGate judges go to sandbox-init: opens that create, write or truncate,
// and every call that makes, links, renames or removes a name. openat2 passes its flags
// in memory seccomp cannot read: ENOSYS makes programs fall back to openat.
static int addWriteGateRules(scmp_filter_ctx ctx)
{
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
    const std::pair<int, unsigned> opens[] = { { SCMP_SYS(open), 1 }, { SCMP_SYS(openat), 2 } };
    for (const auto &[call, arg] : opens) {
        const std::pair<scmp_datum_t, scmp_datum_t> writing[]
            = { { O_ACCMODE, O_WRONLY }, { O_ACCMODE, O_RDWR }, { O_CREAT, O_CREAT }, { O_TRUNC, O_TRUNC } };
        for (const auto &[mask, value] : writing)
            rc = rc ? rc
                    : seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, call, 1, SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, mask, value));
    }
    for (int call :
         { SCMP_SYS(creat), SCMP_SYS(truncate), SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(mknod), SCMP_SYS(mknodat),
           SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(rename),
           SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rmdir) })
        rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, call, 0);
    return rc;
}

// Tier 1 and a container's gate: the mounts keep modes outside the writable paths as they
// are, but inside them a command could make an existing, inert file that git would run
// (a hook it left non-executable) executable. chmod calls that set an execute bit go to
// sandbox-init (MetadataSupervisor, which asks the write gate); the others cost nothing.
// A masked comparison has no "not zero": each of the seven non-zero execute-bit
// combinations is a rule. fchmodat2 (Linux 6.6) by number.
static int addExecutableModeRules(scmp_filter_ctx ctx)
{
    int rc = 0;
    const std::pair<int, unsigned> calls[]
        = { { SCMP_SYS(chmod), 1 }, { SCMP_SYS(fchmod), 1 }, { SCMP_SYS(fchmodat), 2 }, { 452, 2 } };
    for (const auto &[call, arg] : calls) {
        for (scmp_datum_t bits = 1; bits <= 7; ++bits) {
            const scmp_datum_t execute
                = ((bits & 4) ? S_IXUSR : 0) | ((bits & 2) ? S_IXGRP : 0) | ((bits & 1) ? S_IXOTH : 0);
            rc = rc ? rc
                    : seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, call, 1,
                                       SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, S_IXUSR | S_IXGRP | S_IXOTH, execute));
        }
    }
    return rc;
}

// The kernel allows one listener in a filter stack. Once sandbox-init's has closed (a command
// that shares its pid namespace, in a container or in tier 2 without Landlock's signal
// scoping, ended it), a listener of the command's own would be handed every call sandbox-init
// supervised, and could let each through. This rule goes into the filter that carries
// sandbox-init's listener, never an earlier one (it would refuse that very listener): with
// it, a command whose supervisor is gone gets ENOSYS for every supervised call.
static int addNoOtherListenerRule(scmp_filter_ctx ctx)
{
    return seccomp_rule_add(
        ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 2,
        SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0xffffffffULL, SECCOMP_SET_MODE_FILTER),
        SCMP_A1_64(SCMP_CMP_MASKED_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER, SECCOMP_FILTER_FLAG_NEW_LISTENER));
}

// Loads `ctx` and releases it; with `listen`, `*notifyFd` receives a close-on-exec copy of
// the filter's user-notification listener. The command must never hold the listener (it
// could answer its own calls): libseccomp's own copy goes too, whether or not releasing the
// filter closed it (no descriptor was opened in between, so the number is still that
// copy's). Returns 0 or a negative errno.
static int loadAndRelease(scmp_filter_ctx ctx, bool listen, int *notifyFd)
{
    int rc = seccomp_load(ctx);
    int listener = -1;
    if (rc == 0 && listen) {
        listener = seccomp_notify_fd(ctx);
        *notifyFd = listener >= 0 ? fcntl(listener, F_DUPFD_CLOEXEC, 0) : -1;
        if (*notifyFd < 0)
            rc = -EBADF;
    }
    seccomp_release(ctx);
    if (listener >= 0 && fcntl(listener, F_GETFD) >= 0)
        close(listener);
    return rc;
}

// What no command needs and what would let it rearrange or leave its confinement: refused
// whatever the arguments.
static const int kDeniedCalls[] = {
    SCMP_SYS(ptrace),
    SCMP_SYS(process_vm_readv),
    SCMP_SYS(process_vm_writev),
    SCMP_SYS(process_madvise),
    SCMP_SYS(kcmp),
    SCMP_SYS(io_uring_setup),
    SCMP_SYS(io_uring_enter),
    SCMP_SYS(io_uring_register),
    SCMP_SYS(bpf),
    SCMP_SYS(keyctl),
    SCMP_SYS(add_key),
    SCMP_SYS(request_key),
    SCMP_SYS(userfaultfd),
    SCMP_SYS(perf_event_open),
    SCMP_SYS(mount),
    SCMP_SYS(umount2),
    SCMP_SYS(pivot_root),
    SCMP_SYS(move_mount),
    SCMP_SYS(open_tree),
    SCMP_SYS(fsopen),
    SCMP_SYS(fsmount),
    SCMP_SYS(fsconfig),
    SCMP_SYS(fspick),
    SCMP_SYS(mount_setattr),
    SCMP_SYS(unshare),
    SCMP_SYS(setns),
    SCMP_SYS(kexec_load),
    SCMP_SYS(kexec_file_load),
    SCMP_SYS(init_module),
    SCMP_SYS(finit_module),
    SCMP_SYS(delete_module),
    SCMP_SYS(chroot),
    SCMP_SYS(acct),
    SCMP_SYS(swapon),
    SCMP_SYS(swapoff),
    SCMP_SYS(reboot),
    SCMP_SYS(syslog),
    SCMP_SYS(quotactl),
    SCMP_SYS(open_by_handle_at),
    SCMP_SYS(name_to_handle_at),
    SCMP_SYS(iopl),
    SCMP_SYS(ioperm),
    SCMP_SYS(settimeofday),
    SCMP_SYS(clock_settime),
    SCMP_SYS(clock_adjtime),
    SCMP_SYS(adjtimex),
    SCMP_SYS(vhangup),
    SCMP_SYS(uselib),
    SCMP_SYS(lookup_dcookie),
    SCMP_SYS(fanotify_init),
    SCMP_SYS(pidfd_getfd),
};

std::string deniedCallName(int nr)
{
    for (int call : kDeniedCalls) {
        if (call != nr)
            continue;
        char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
        std::string text = name ? name : std::to_string(nr);
        free(name);
        return text;
    }
    return {};
}

bool applySeccomp(const InitConfig &config, int *notifyFd, std::string &error)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        error = "seccomp: cannot create a filter";
        return false;
    }
    // Any architecture but the native one (ia32 via int 0x80, x32) kills the process.
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    const auto deny = SCMP_ACT_ERRNO(EPERM);
    for (int call : kDeniedCalls) {
        // Tier 1's pid 1 loads this filter for itself: when it answers the command's
        // connect()s it takes the command's sockets with pidfd_getfd (the command gets the
        // call refused in a filter of its own, applyCommandFilter). In a VM guest every one
        // of them is handed to sandbox-init there (an ERRNO here would win over it).
        if ((call == SCMP_SYS(pidfd_getfd) && config.tier == 1 && config.superviseConnect) || config.inGuest)
            continue;
        rc = rc ? rc : seccomp_rule_add(ctx, deny, call, 0);
    }

    // How every argument rule is written. The kernel reads int-sized arguments (socket
    // families, pids, ioctl numbers) from the low 32 bits of the register, while a
    // filter sees all 64. So:
    //  - "refuse when the argument is V" compares only the low 32 bits (masked), or
    //    upper bits set by the caller would slip past the rule;
    //  - "refuse unless the argument is 0" compares all 64 bits, so upper bits only
    //    ever make the filter refuse more, never less.
    constexpr scmp_datum_t kLow32 = 0xffffffffULL;
    auto denyWhenArg = [&](int call, unsigned arg, scmp_datum_t value, scmp_filter_ctx filter, uint32_t action) {
        return seccomp_rule_add(filter, action, call, 1, SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, kLow32, value));
    };
    auto denyUnlessArgZero
        = [&](int call, unsigned arg) { return seccomp_rule_add(ctx, deny, call, 1, SCMP_CMP(arg, SCMP_CMP_NE, 0)); };

    // clone3 passes its flags in memory seccomp cannot read: ENOSYS makes libc fall back
    // to clone, whose flags are checked below (each flag is one bit of the low 32).
    rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    static const unsigned long long namespaceFlags[]
        = { CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWPID,    CLONE_NEWNET,
            CLONE_NEWIPC,  CLONE_NEWUTS, CLONE_NEWCGROUP, 0x00000080ULL /* CLONE_NEWTIME */ };
    for (unsigned long long flag : namespaceFlags)
        rc = rc ? rc : seccomp_rule_add(ctx, deny, SCMP_SYS(clone), 1, SCMP_A0_64(SCMP_CMP_MASKED_EQ, flag, flag));
    // personality(): only the default persona (libseccomp cannot express "0 or the
    // 0xffffffff query" in one rule, and nothing common needs the query).
    rc = rc ? rc : denyUnlessArgZero(SCMP_SYS(personality), 0);
    // Terminal input injection into a shell outside the sandbox.
    rc = rc ? rc : denyWhenArg(SCMP_SYS(ioctl), 1, TIOCSTI, ctx, deny);
    rc = rc ? rc : denyWhenArg(SCMP_SYS(ioctl), 1, TIOCLINUX, ctx, deny);
    // Scheduling, resource limits, memory placement and I/O priority only for the caller
    // itself (pid or "who" 0, or its own process group): in tier 2 any other pid may be
    // a host process, and in both tiers a limit set on sandbox-init (an RLIMIT_NOFILE of
    // 3, a CPU limit) could stop it from reaping and killing what the command left.
    for (int call :
         { SCMP_SYS(prlimit64), SCMP_SYS(sched_setaffinity), SCMP_SYS(sched_setscheduler), SCMP_SYS(sched_setparam),
           SCMP_SYS(sched_setattr), SCMP_SYS(migrate_pages), SCMP_SYS(move_pages) })
        rc = rc ? rc : denyUnlessArgZero(call, 0);
    // setpriority(which, who): PRIO_PROCESS or PRIO_PGRP (0, 1) of the caller only;
    // PRIO_USER would reach every process of the user. ioprio_set likewise
    // (IOPRIO_WHO_PROCESS 1, IOPRIO_WHO_PGRP 2).
    rc = rc ? rc : denyUnlessArgZero(SCMP_SYS(setpriority), 1);
    rc = rc ? rc : seccomp_rule_add(ctx, deny, SCMP_SYS(setpriority), 1, SCMP_A0_64(SCMP_CMP_GT, PRIO_PGRP));
    rc = rc ? rc : denyUnlessArgZero(SCMP_SYS(ioprio_set), 1);
    rc = rc ? rc : seccomp_rule_add(ctx, deny, SCMP_SYS(ioprio_set), 1, SCMP_A0_64(SCMP_CMP_GT, 2));
    // Without an IPC namespace (tier 2) SysV IPC and POSIX message queues are the host's:
    // closed.
    if (config.tier == 2) {
        for (int call : { SCMP_SYS(shmget), SCMP_SYS(shmat), SCMP_SYS(shmctl), SCMP_SYS(msgget), SCMP_SYS(msgsnd),
                          SCMP_SYS(msgrcv), SCMP_SYS(msgctl), SCMP_SYS(semget), SCMP_SYS(semop), SCMP_SYS(semtimedop),
                          SCMP_SYS(semctl), SCMP_SYS(mq_open), SCMP_SYS(mq_unlink), SCMP_SYS(mq_timedsend),
                          SCMP_SYS(mq_timedreceive), SCMP_SYS(mq_notify), SCMP_SYS(mq_getsetattr) })
            rc = rc ? rc : seccomp_rule_add(ctx, deny, call, 0);
    }
    // Tier 2: Landlock has no right for extended attributes, and seccomp cannot see which
    // file a call names, so changing them is refused everywhere (tools that preserve them,
    // cp -a and tar, carry on without). Ownership goes to MetadataSupervisor below.
    if (config.tier == 2) {
        for (int call : { SCMP_SYS(setxattr), SCMP_SYS(lsetxattr), SCMP_SYS(fsetxattr), SCMP_SYS(removexattr),
                          SCMP_SYS(lremovexattr), SCMP_SYS(fremovexattr) })
            rc = rc ? rc : seccomp_rule_add(ctx, deny, call, 0);
        // setxattrat and removexattrat (Linux 6.13), by number: older libseccomp lacks them.
        for (int call : { 463, 466 })
            rc = rc ? rc : seccomp_rule_add(ctx, deny, call, 0);
        // Modes, times and ownership: answered by sandbox-init (MetadataSupervisor), which
        // makes the change itself only under a writable path (ownership: only to what it is). A kernel without user
        // notification gets them refused everywhere instead. fchmodat2 (Linux 6.6) by number.
        const uint32_t metadata = notificationsAvailable() ? SCMP_ACT_NOTIFY : deny;
        for (int call : { SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), 452, SCMP_SYS(utimensat),
                          SCMP_SYS(utimes), SCMP_SYS(utime), SCMP_SYS(futimesat), SCMP_SYS(chown), SCMP_SYS(fchown),
                          SCMP_SYS(lchown), SCMP_SYS(fchownat) })
            rc = rc ? rc : seccomp_rule_add(ctx, metadata, call, 0);
    }
    // Raw and packet sockets, always (the type's low 4 bits; the rest are flags).
    rc = rc ? rc : denyWhenArg(SCMP_SYS(socket), 0, AF_PACKET, ctx, deny);
    rc = rc ? rc : seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 1, SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xfULL, SOCK_RAW));
    rc = rc ? rc
            : seccomp_rule_add(ctx, deny, SCMP_SYS(socket), 1, SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xfULL, SOCK_PACKET));
    const auto refused = SCMP_ACT_ERRNO(EACCES);
    // Without a network namespace (tier 2) the network is cut here: every family but
    // unix (and netlink, which reaches only the kernel) is refused. Families are listed
    // one by one (a masked comparison has no "greater than") up to a bound well above
    // the kernel's AF_MAX (46 today); numbers at or above AF_MAX the kernel refuses.
    constexpr int kFamilyBound = 64;
    if (config.tier == 2 && config.network != InitConfig::Network::Full) {
        for (int family = AF_INET; family < kFamilyBound; ++family) {
            if (family != AF_NETLINK && family != AF_PACKET)
                rc = rc ? rc : denyWhenArg(SCMP_SYS(socket), 0, static_cast<scmp_datum_t>(family), ctx, refused);
        }
    }
    // vsock reaches the hypervisor's host (VMs) and is not scoped by any namespace.
    if (!config.exposeHostExecution)
        rc = rc ? rc : denyWhenArg(SCMP_SYS(socket), 0, AF_VSOCK, ctx, refused);
    // Tier 1's pid 1 bridges the proxy over a unix socket: there the command gets this
    // rule in a filter of its own (applyCommandFilter).
    if (config.denyUnixSockets && config.tier == 2) {
        rc = rc ? rc : denyWhenArg(SCMP_SYS(socket), 0, AF_UNIX, ctx, refused);
        rc = rc ? rc : addUnixDatagramRules(ctx, refused);
    }
    if (config.tier == 2 && WriteGate::wanted(config)) {
        if (!notificationsAvailable()) {
            error = kNoWriteGate;
            seccomp_release(ctx);
            return false;
        }
        rc = rc ? rc : addWriteGateRules(ctx);
    }
    // Tier 1's pid 1 loads this filter itself: there the command gets the rule in a filter
    // of its own (applyCommandFilter).
    if (config.superviseConnect && config.tier == 2)
        rc = rc ? rc : addConnectSupervisionRules(ctx, refused);
    if (notifyFd && superviseNotifications(config))
        rc = rc ? rc : addNoOtherListenerRule(ctx);
    if (rc != 0) {
        error = std::string("seccomp: cannot build the filter: ") + std::strerror(-rc);
        seccomp_release(ctx);
        return false;
    }
    rc = loadAndRelease(ctx, notifyFd && superviseNotifications(config), notifyFd);
    if (rc != 0) {
        error = std::string("seccomp: cannot load the filter: ") + std::strerror(-rc);
        return false;
    }
    return true;
}

bool applyCommandFilter(const InitConfig &config, int *notifyFd, std::string &error)
{
    const bool gate = WriteGate::wanted(config);
    const bool supervise = config.superviseConnect;
    const bool reportDenied = config.inGuest;
    const bool listen = gate || supervise || reportDenied;
    if (config.tier != 1 || (!config.denyUnixSockets && !listen))
        return true;
    if (listen && !notificationsAvailable()) {
        error = gate || reportDenied
            ? kNoWriteGate
            : "this kernel cannot hand connect() to sandbox-init (seccomp user notification), so the SSH "
              "agent's socket cannot be offered alone";
        return false;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        error = "seccomp: cannot create the command's filter";
        return false;
    }
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (config.denyUnixSockets) {
        rc = rc ? rc
                : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                   SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0xffffffffULL, AF_UNIX));
        rc = rc ? rc : addUnixDatagramRules(ctx, SCMP_ACT_ERRNO(EACCES));
    }
    if (gate) {
        rc = rc ? rc : addWriteGateRules(ctx);
        rc = rc ? rc : addExecutableModeRules(ctx);
    }
    if (supervise) {
        rc = rc ? rc : addConnectSupervisionRules(ctx, SCMP_ACT_ERRNO(EACCES));
        rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(pidfd_getfd), 0);
    }
    // The deny list, for sandbox-init to refuse and report (applySeccomp left it out).
    for (int call : kDeniedCalls) {
        if (reportDenied && !(supervise && call == SCMP_SYS(pidfd_getfd)))
            rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, call, 0);
    }
    if (listen)
        rc = rc ? rc : addNoOtherListenerRule(ctx);
    if (rc == 0)
        rc = loadAndRelease(ctx, listen, notifyFd);
    else
        seccomp_release(ctx);
    if (rc != 0) {
        error = std::string("seccomp: cannot load the command's filter: ") + std::strerror(-rc);
        return false;
    }
    return true;
}

} // namespace sandbox::init
