#include "Supervisor.h"

#include "Confinement.h"
#include "ConnectSupervisor.h"
#include "ProxyBridge.h"
#include "RootFilesystem.h"
#include "SeccompFilter.h"
#include "StatusChannel.h"
#include "WriteGate.h"
#include "fdio/FdIo.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <net/if.h>
#include <optional>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace sandbox::init {

namespace {

std::string errnoText(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

sigset_t handledSignals()
{
    sigset_t set;
    sigemptyset(&set);
    for (int sig : { SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 })
        sigaddset(&set, sig);
    return set;
}

bool isForwarded(int sig)
{
    return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

// How many of the command's calls sandbox-init answered, and the time it took in all
// (microseconds): what a round trip costs the command's work.
void reportTally(const ConnectSupervisor::Tally &tally)
{
    if (tally.calls > 0)
        report("supervised " + std::to_string(tally.calls) + ' ' + std::to_string(tally.nanoseconds / 1000));
}

std::string describeExit(int status)
{
    if (WIFSIGNALED(status))
        return "signal " + std::to_string(WTERMSIG(status));
    return "exit " + std::to_string(WEXITSTATUS(status));
}

int shellStatus(int status)
{
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// Passes descriptor `fd` over the unix socket `channel`, with `text` (not empty).
bool sendDescriptor(int channel, int fd, std::string_view text = "N")
{
    return fdio::sendDescriptor(channel, fd, text, MSG_NOSIGNAL);
}

// The descriptor sent over `channel`, or -1 (the sender exited without sending one).
int receiveDescriptor(int channel)
{
    return fdio::receiveDescriptor(channel, MSG_CMSG_CLOEXEC);
}

// The command's new terminal, when the configuration asks for one (tier 1: in the
// sandbox's own devpts instance, so no terminal of the host is even named there). Its
// master side goes to the launcher with a "terminal" line on the status channel (a unix
// socket then) and no copy of it stays in the sandbox. Returns the terminal's other side
// (close-on-exec), which the command makes its controlling terminal, or -1.
int openTerminal(const InitConfig &config)
{
    if (config.terminalRows == 0)
        return -1;
    const int master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0)
        failSetup(errnoText("cannot open a terminal for the command (/dev/ptmx)"));
    int locked = 0;
    if (ioctl(master, TIOCSPTLCK, &locked) != 0)
        failSetup(errnoText("cannot unlock the command's terminal"));
    const int terminal = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (terminal < 0)
        failSetup(errnoText("cannot open the command's terminal"));
    winsize size = {};
    size.ws_row = static_cast<unsigned short>(config.terminalRows);
    size.ws_col = static_cast<unsigned short>(config.terminalColumns);
    if (ioctl(terminal, TIOCSWINSZ, &size) != 0)
        failSetup(errnoText("cannot size the command's terminal"));
    if (!sendDescriptor(kStatusFd, master, "terminal\n"))
        failSetup(errnoText("cannot pass the command's terminal to the launcher"));
    close(master);
    return terminal;
}

// Forks the command. The child confines itself when `confineChild` (tier 2) and execs;
// a CLOEXEC pipe tells the parent whether exec happened. Returns the child's pid, or -1
// when the command never ran (setup failure already reported by the child).
pid_t startCommand(const InitConfig &config, bool confineChild, int *notifyFd = nullptr, int terminal = -1)
{
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0)
        failSetup(errnoText("cannot create a pipe"));
    // The command's seccomp filter hands calls to us: connect() (tier 2, allowed domains),
    // chmod and utimes (tier 2), the write gate's (both tiers).
    const bool supervise = superviseNotifications(config);
    int channel[2] = { -1, -1 };
    if (supervise && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0)
        failSetup(errnoText("cannot create the supervision channel"));
    const pid_t pid = fork();
    if (pid < 0)
        failSetup(errnoText("cannot fork the command"));
    if (pid == 0) {
        close(pipeFds[0]);
        if (supervise)
            close(channel[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        setsid();
        if (terminal >= 0
            && (ioctl(terminal, TIOCSCTTY, 0) != 0 || dup2(terminal, STDIN_FILENO) < 0
                || dup2(terminal, STDOUT_FILENO) < 0 || dup2(terminal, STDERR_FILENO) < 0)) {
            const std::string failure = errnoText("cannot make the terminal the command's own");
            const char marker = 'C';
            (void)!write(pipeFds[1], &marker, 1);
            failSetup(failure);
        }
        std::string error;
        int filterFd = -1;
        if (confineChild
            && (!confine(config, &filterFd, error)
                || (supervise && (!sendDescriptor(channel[1], filterFd) || close(filterFd) != 0)))) {
            if (error.empty())
                error = errnoText("cannot hand the seccomp notification descriptor to sandbox-init");
            const char marker = 'C';
            (void)!write(pipeFds[1], &marker, 1);
            failSetup(error);
        }
        if (!confineChild
            && (!applyCommandFilter(config, &filterFd, error)
                || (supervise && (!sendDescriptor(channel[1], filterFd) || close(filterFd) != 0)))) {
            if (error.empty())
                error = errnoText("cannot hand the seccomp notification descriptor to sandbox-init");
            const char marker = 'C';
            (void)!write(pipeFds[1], &marker, 1);
            failSetup(error);
        }
        if (supervise)
            close(channel[1]);
        if (chdir(config.cwd.c_str()) != 0) {
            const int saved = errno;
            const std::string message
                = "sandbox: cannot enter the workspace " + config.cwd + ": " + std::strerror(saved) + "\n";
            (void)!write(STDERR_FILENO, message.data(), message.size());
            const char marker = 'X';
            (void)!write(pipeFds[1], &marker, 1);
            _exit(kSetupFailedStatus);
        }
        std::vector<char *> argv;
        for (const std::string &arg : config.argv)
            argv.push_back(const_cast<char *>(arg.c_str()));
        argv.push_back(nullptr);
        std::vector<char *> envp;
        for (const std::string &entry : config.env)
            envp.push_back(const_cast<char *>(entry.c_str()));
        envp.push_back(nullptr);
        environ = envp.data();
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int sig : { SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP })
            signal(sig, SIG_DFL);
        execvp(argv[0], argv.data());
        const int saved = errno;
        const std::string message = "sandbox: cannot run " + config.argv[0] + ": " + std::strerror(saved) + "\n";
        (void)!write(STDERR_FILENO, message.data(), message.size());
        const char marker = 'E';
        (void)!write(pipeFds[1], &marker, 1);
        _exit(saved == ENOENT ? 127 : 126);
    }
    close(pipeFds[1]);
    if (terminal >= 0)
        close(terminal);
    if (supervise) {
        close(channel[1]);
        *notifyFd = receiveDescriptor(channel[0]);
        close(channel[0]);
    }
    char marker = 0;
    ssize_t n;
    do {
        n = read(pipeFds[0], &marker, 1);
    } while (n < 0 && errno == EINTR);
    close(pipeFds[0]);
    if (n == 1 && marker == 'C') {
        waitpid(pid, nullptr, 0);
        return -1;
    }
    report("started " + std::to_string(pid));
    return pid;
}

// Kills every process that is (or becomes, by reparenting to us as subreaper or pid 1)
// our child, until none is left.
void killDescendants()
{
    // As subreaper, every live descendant is our child or below one: none left to reap
    // means none left at all (the common case, and it needs no /proc walk).
    if (waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD)
        return;
    for (;;) {
        bool any = false;
        if (DIR *proc = opendir("/proc")) {
            const pid_t self = getpid();
            while (dirent *entry = readdir(proc)) {
                char *end = nullptr;
                const long pid = std::strtol(entry->d_name, &end, 10);
                if (*end != '\0' || pid <= 0)
                    continue;
                const std::string statPath = std::string("/proc/") + entry->d_name + "/stat";
                const int fd = open(statPath.c_str(), O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                    continue;
                char buffer[512];
                const ssize_t n = read(fd, buffer, sizeof buffer - 1);
                close(fd);
                if (n <= 0)
                    continue;
                buffer[n] = '\0';
                const char *paren = std::strrchr(buffer, ')');
                int ppid = 0;
                char state = 0;
                if (!paren || std::sscanf(paren + 1, " %c %d", &state, &ppid) != 2 || ppid != self)
                    continue;
                any = true;
                kill(static_cast<pid_t>(pid), SIGKILL);
            }
            closedir(proc);
        }
        while (waitpid(-1, nullptr, WNOHANG) > 0)
            any = true;
        if (!any) {
            if (waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD)
                return;
            usleep(1000);
        }
    }
}

bool bringUpLoopback(std::string &error)
{
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = errnoText("cannot create a socket for lo");
        return false;
    }
    ifreq request = {};
    std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
    request.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
    const int rc = ioctl(fd, SIOCSIFFLAGS, &request);
    const int saved = errno;
    close(fd);
    if (rc != 0) {
        errno = saved;
        error = errnoText("cannot bring up lo");
        return false;
    }
    return true;
}

// Tier 2: sandbox-init stays the user's process but acts with no capability, as the
// command does (root's included): what it does for the command (the write gate, chmod and
// utimes) meets the same file permissions.
// In a VM guest: sandbox-init's real and saved uid become nobody's, so no command (root, but
// without CAP_KILL or CAP_SETUID: Confinement.cpp) can signal it, stop it or end it before it
// has ended the command and removed what it left; its effective uid stays root for the
// writes it makes. Its effective capabilities become the command's, plus what it needs to
// read the command's memory and end its processes: the writes it makes carry no authority
// the command lacks (no device it could not open, no node it could not make).
void becomeGuestSupervisor()
{
    constexpr uid_t kNobody = 65534;
    if (setresuid(kNobody, 0, kNobody) != 0)
        failSetup(errnoText("cannot give the real uid away"));
    std::string error;
    if (!limitEffectiveCapabilities(
            { CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_FSETID, CAP_NET_BIND_SERVICE, CAP_SYS_PTRACE, CAP_KILL },
            error))
        failSetup(error);
}

void dropEffectiveCapabilities()
{
    if (std::string error; !limitEffectiveCapabilities({}, error))
        failSetup(error);
}

// A descriptor on the SSH agent's socket (policy.sshAgent), -1 when there is none.
int openAgentSocket(const InitConfig &config)
{
    if (config.agentSocket.empty())
        return -1;
    const int fd = open(config.agentSocket.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0)
        failSetup(errnoText("cannot open the SSH agent socket " + config.agentSocket));
    return fd;
}

// The unix sockets a supervised connect() may reach: the proxy's (tier 2 reaches it by
// path; tier 1 bridges it over TCP instead) and the agent's (through `agentFd`).
std::vector<UnixTarget> unixTargets(const InitConfig &config, int agentFd)
{
    std::vector<UnixTarget> targets;
    if (config.tier == 2 && !config.proxySocket.empty())
        targets.push_back({ config.proxySocket, config.proxySocket });
    if (agentFd >= 0)
        targets.push_back({ config.agentSocket, "/proc/self/fd/" + std::to_string(agentFd) });
    return targets;
}

// pid 1 of the sandbox (tier 1). `endFd` carries the command's wait status to the
// host-side process once nothing else of the sandbox is left.
[[noreturn]] void runInit(const InitConfig &config, uid_t uid, gid_t gid, int endFd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::string error;
    if (!mapIds(uid, gid, error))
        failSetup(error);
    // The agent's socket, opened while the host's tree is still in view: the supervisor
    // connects through this descriptor, whatever the command's root holds at that path.
    const int agentFd = openAgentSocket(config);
    int proxyFd = -1;
    if (!buildRoot(config, proxyFd, error))
        failSetup(error);
    if (sethostname(config.hostname.data(), config.hostname.size()) != 0)
        failSetup(errnoText("cannot set the host name"));
    // In the new root, before Landlock and seccomp: the sandbox's own /dev/ptmx.
    const int terminal = openTerminal(config);
    ProxyBridge bridge;
    if (config.network != InitConfig::Network::Full) {
        if (!bringUpLoopback(error))
            failSetup(error);
        if (config.network == InitConfig::Network::Allowlist && !bridge.listen(config.proxyPort, proxyFd, error))
            failSetup(error);
    }
    if (!confine(config, nullptr, error))
        failSetup(error);
    prctl(PR_SET_DUMPABLE, 0);

    const sigset_t signals = handledSignals();
    const int signalFd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signalFd < 0)
        failSetup(errnoText("cannot create a signalfd"));
    int notifyFd = -1;
    const pid_t command = startCommand(config, false, &notifyFd, terminal);
    if (command < 0)
        _exit(kSetupFailedStatus);
    if (superviseNotifications(config) && notifyFd < 0) {
        kill(-1, SIGKILL);
        failSetup("the command's seccomp notification descriptor did not arrive");
    }
    std::optional<WriteGate> gate;
    if (WriteGate::wanted(config))
        gate.emplace(config);
    std::optional<ConnectSupervisor> calls;
    if (notifyFd >= 0)
        // The mounts bound what the command may change; sandbox-init shares its root, so
        // every path it sees is one the command sees (chmod that sets an execute bit is
        // asked of the write gate, MetadataSupervisor).
        calls.emplace(notifyFd, unixTargets(config, agentFd), std::vector<std::string>{ "/" }, gate ? &*gate : nullptr);
    ConnectSupervisor::Tally tally;
    if (calls)
        calls->countInto(tally);

    int commandStatus = -1;
    std::vector<pollfd> fds;
    for (;;) {
        fds.clear();
        fds.push_back({ signalFd, POLLIN, 0 });
        fds.push_back({ calls ? calls->fd() : -1, POLLIN, 0 });
        bridge.collect(fds);
        if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
            break;
        if (calls && (fds[1].revents & POLLIN))
            calls->handleOne();
        if (calls && (fds[1].revents & (POLLHUP | POLLERR | POLLNVAL)) && !(fds[1].revents & POLLIN))
            calls.reset(); // every process under the filter is gone
        bridge.dispatch(fds.data() + 2, fds.size() - 2);
        if (!(fds[0].revents & POLLIN))
            continue;
        signalfd_siginfo info;
        while (read(signalFd, &info, sizeof info) == sizeof info) {
            const int sig = static_cast<int>(info.ssi_signo);
            if (isForwarded(sig))
                kill(-command, sig);
        }
        int status = 0;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
            if (pid == command)
                commandStatus = status;
        }
        if (commandStatus != -1)
            break;
    }
    // The command is over: nothing it started outlives it.
    kill(-1, SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) { }
    calls.reset();
    if (gate)
        gate->removeLeftovers();
    reportTally(tally);
    report(describeExit(commandStatus));
    // Only this process is left. The host side may finish now instead of waiting for the
    // kernel to take the namespaces down after us, which can take milliseconds.
    ssize_t sent;
    do {
        sent = write(endFd, &commandStatus, sizeof commandStatus);
    } while (sent < 0 && errno == EINTR);
    _exit(shellStatus(commandStatus));
}

} // namespace

void runNamespaced(const InitConfig &config)
{
    const uid_t uid = getuid();
    const gid_t gid = getgid();
    unsigned long flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
    if (config.network != InitConfig::Network::Full)
        flags |= CLONE_NEWNET;
    const sigset_t signals = handledSignals();
    const int signalFd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signalFd < 0)
        failSetup(errnoText("cannot create a signalfd"));
    // pid 1 writes the command's wait status here once it has ended every other process of
    // the sandbox; never inherited by the command (close-on-exec).
    int endPipe[2];
    if (pipe2(endPipe, O_CLOEXEC) != 0)
        failSetup(errnoText("cannot create a pipe"));
    const long child = syscall(SYS_clone, flags | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
    if (child < 0)
        failSetup(errnoText("cannot create the sandbox namespaces"));
    if (child == 0) {
        close(signalFd);
        close(endPipe[0]);
        runInit(config, uid, gid, endPipe[1]);
    }
    close(endPipe[1]);
    int endFd = endPipe[0];
    const pid_t init = static_cast<pid_t>(child);
    bool killed = false;
    for (;;) {
        pollfd fds[2] = { { signalFd, POLLIN, 0 }, { endFd, POLLIN, 0 } };
        if (poll(fds, endFd >= 0 ? 2 : 1, -1) < 0)
            continue;
        if (endFd >= 0 && fds[1].revents != 0) {
            int commandStatus = 0;
            ssize_t n;
            do {
                n = read(endFd, &commandStatus, sizeof commandStatus);
            } while (n < 0 && errno == EINTR);
            if (n == sizeof commandStatus) {
                // pid 1 has reported the command's end and nothing else of the sandbox
                // runs: the end is the command's, whatever arrives now.
                _exit(shellStatus(commandStatus));
            }
            // pid 1 ended without reporting (setup failed, or it was killed): its reaping
            // below says how.
            close(endFd);
            endFd = -1;
        }
        if (!(fds[0].revents & POLLIN))
            continue;
        signalfd_siginfo info;
        while (read(signalFd, &info, sizeof info) == sizeof info) {
            const int sig = static_cast<int>(info.ssi_signo);
            if (isForwarded(sig)) {
                kill(init, sig);
            } else if (sig == SIGUSR1) {
                killed = true;
                kill(init, SIGKILL);
            }
        }
        int status = 0;
        if (waitpid(init, &status, WNOHANG) == init) {
            // Every process of the sandbox is gone with its pid 1.
            // pid 1 reports the command's end itself unless it was killed from outside.
            if (WIFSIGNALED(status)) {
                report(killed ? std::string("signal 9") : describeExit(status));
                _exit(shellStatus(status));
            }
            _exit(WEXITSTATUS(status));
        }
    }
}

void runUnshared(const InitConfig &config)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        failSetup(errnoText("cannot become a child subreaper"));
    const sigset_t signals = handledSignals();
    const int signalFd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signalFd < 0)
        failSetup(errnoText("cannot create a signalfd"));
    const int agentFd = openAgentSocket(config);
    if (config.inGuest)
        becomeGuestSupervisor();
    int notifyFd = -1;
    const pid_t command = startCommand(config, true, &notifyFd, openTerminal(config));
    if (command < 0) {
        killDescendants();
        _exit(kSetupFailedStatus);
    }
    if (superviseNotifications(config) && notifyFd < 0) {
        kill(-command, SIGKILL);
        kill(command, SIGKILL);
        killDescendants();
        failSetup("the command's seccomp notification descriptor did not arrive");
    }
    // In a VM guest sandbox-init keeps the command's (becomeGuestSupervisor): the command is
    // root too, and the writes the gate makes for it need the same authority over the shares'
    // files (owned by anyone).
    if (!config.inGuest)
        dropEffectiveCapabilities();
    std::optional<WriteGate> gate;
    if (WriteGate::wanted(config))
        gate.emplace(config);
    std::optional<ConnectSupervisor> connections;
    if (notifyFd >= 0)
        // In a container its mounts bound what the command may change, as in tier 1.
        connections.emplace(notifyFd, unixTargets(config, agentFd),
                            config.inContainer ? std::vector<std::string>{ "/" } : config.landlockWritable,
                            gate ? &*gate : nullptr, config.inGuest);
    ConnectSupervisor::Tally tally;
    if (connections)
        connections->countInto(tally);
    for (;;) {
        pollfd fds[2] = { { signalFd, POLLIN, 0 }, { connections ? connections->fd() : -1, POLLIN, 0 } };
        if (poll(fds, 2, -1) < 0)
            continue;
        if (connections && (fds[1].revents & POLLIN))
            connections->handleOne();
        if (connections && (fds[1].revents & (POLLHUP | POLLERR | POLLNVAL)) && !(fds[1].revents & POLLIN))
            connections.reset(); // every process under the filter is gone
        signalfd_siginfo info;
        if (read(signalFd, &info, sizeof info) != sizeof info)
            continue;
        const int sig = static_cast<int>(info.ssi_signo);
        if (isForwarded(sig)) {
            kill(-command, sig);
        } else if (sig == SIGUSR1) {
            kill(-command, SIGKILL);
            kill(command, SIGKILL);
            killDescendants();
            connections.reset();
            if (gate)
                gate->removeLeftovers();
            report("signal 9");
            _exit(128 + SIGKILL);
        }
        int status = 0;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
            if (pid == command) {
                kill(-command, SIGKILL);
                killDescendants();
                connections.reset();
                if (gate)
                    gate->removeLeftovers();
                reportTally(tally);
                report(describeExit(status));
                _exit(shellStatus(status));
            }
        }
    }
}

int probe()
{
    std::printf("landlock %d\n", landlockAbi());
    const unsigned long flags
        = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0)
        return 1;
    const uid_t uid = getuid();
    const gid_t gid = getgid();
    const long child = syscall(SYS_clone, flags | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
    if (child == 0) {
        close(pipeFds[0]);
        std::string error;
        // The same steps tier 1 takes first: a refused namespace (AppArmor, a container's
        // seccomp policy) shows up here, not halfway through a real spawn.
        if (mapIds(uid, gid, error) && mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0
            && mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=700") == 0 && mkdir("/tmp/proc", 0755) == 0
            && mount("proc", "/tmp/proc", "proc", MS_NOSUID | MS_NODEV, nullptr) == 0)
            _exit(0);
        if (error.empty())
            error = errnoText("mount");
        (void)!write(pipeFds[1], error.data(), error.size());
        _exit(1);
    }
    close(pipeFds[1]);
    if (child < 0) {
        std::printf("userns %s\n", errnoText("clone").c_str());
    } else {
        char buffer[400] = {};
        const ssize_t n = read(pipeFds[0], buffer, sizeof buffer - 1);
        int status = 0;
        waitpid(static_cast<pid_t>(child), &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            std::printf("userns ok\n");
        else
            std::printf("userns %s\n", n > 0 ? buffer : "failed");
    }
    close(pipeFds[0]);
    const int mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
    if (mode < 0)
        std::printf("seccomp %s\n", errnoText("prctl").c_str());
    else if (seccomp_api_get() < 1)
        std::printf("seccomp libseccomp reports no kernel support\n");
    else
        std::printf("seccomp ok\n");
    return 0;
}

} // namespace sandbox::init
