// sandbox-init: the helper the auto launcher runs to confine one command. Plain C++
// without Qt so it stays small, starts fast and is safe to fork from.
#include "ProxyBridge.h"
#include "SshProxyCommand.h"
#include "StatusChannel.h"
#include "Supervisor.h"
#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

extern char **environ;

using namespace sandbox::init;

namespace {

std::string readConfig()
{
    std::string data;
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(kConfigFd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            failSetup(std::string("cannot read the configuration on fd 3: ") + std::strerror(errno));
        if (n == 0)
            break;
        data.append(buffer, static_cast<size_t>(n));
        if (data.size() > (16u << 20))
            failSetup("configuration larger than 16 MiB");
    }
    close(kConfigFd);
    return data;
}

// `sandbox-init --hold`: the first process of a container that only has to stay up (its
// commands are executed beside it). As pid 1 it installs no handler, so nothing inside can
// signal it; their orphans are reaped by the kernel.
[[noreturn]] void hold()
{
    prctl(PR_SET_DUMPABLE, 0);
    signal(SIGCHLD, SIG_IGN);
    for (;;)
        pause();
}

// `sandbox-init --gate [--guest] [--guard DIR]... [--read-only PATH]... [--deny PATH]...
// [--status FIFO] [--agent SOCKET] -- COMMAND [ARG]...`: runs COMMAND, in the container sandbox-init
// was started in (a container backend's exec), under the write gate with the guarded roots,
// read-only and denied paths given, and sandbox-init's seccomp deny list; the container's
// runtime confines both as it confines every process in it. With SOCKET (the command's own
// filtering SSH agent), every connect() of the command is sandbox-init's to make: SOCKET is
// the one unix socket it reaches, so no other command's agent in the same container is.
// Its environment and working directory are the command's. With --guest the "container" is
// a VM guest whose commands run as root (InitConfig::inGuest).
// Status lines (StatusChannel.h) go to FIFO, opened for writing before anything else.
[[noreturn]] void gate(int argc, char **argv)
{
    const char *usage = "usage: sandbox-init --gate [--guest] [--guard DIR]... [--read-only PATH]... [--deny PATH]... "
                        "[--status FIFO] [--agent SOCKET] -- COMMAND [ARG]...\n";
    std::string records;
    auto add = [&records](const char *name, const std::string &value) { appendRecord(records, name, { value }); };
    add(key::kVersion, kFormatVersion);
    // Tier 1's rules: sandbox-init meets the command's mounts, user and capabilities.
    add(key::kTier, "1");
    std::string status;
    bool guest = false;
    int index = 2;
    while (index < argc && std::strcmp(argv[index], "--") != 0) {
        const char *option = argv[index];
        if (std::strcmp(option, "--guest") == 0) {
            guest = true;
            ++index;
            continue;
        }
        if (index + 1 >= argc) {
            std::fprintf(stderr, "sandbox-init: %s needs a value\n%s", option, usage);
            _exit(2);
        }
        if (std::strcmp(option, "--guard") == 0)
            add(key::kGuardRepositories, argv[index + 1]);
        else if (std::strcmp(option, "--read-only") == 0)
            add(key::kGuardReadOnly, argv[index + 1]);
        else if (std::strcmp(option, "--deny") == 0)
            add(key::kGuardDenied, argv[index + 1]);
        else if (std::strcmp(option, "--status") == 0)
            status = argv[index + 1];
        else if (std::strcmp(option, "--agent") == 0) {
            add(key::kAgent, argv[index + 1]);
            add(key::kUnix, "proxy");
        } else {
            std::fprintf(stderr, "sandbox-init: unknown option '%s'\n%s", option, usage);
            _exit(2);
        }
        index += 2;
    }
    if (index >= argc || index + 1 >= argc) {
        std::fprintf(stderr, "sandbox-init: no command after --\n%s", usage);
        _exit(2);
    }
    for (++index; index < argc; ++index)
        add(key::kArg, argv[index]);
    if (!status.empty()) {
        // The engine holds the other end open already, so this does not wait.
        const int fd = open(status.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 || fcntl(fd, F_SETFL, 0) != 0 || (fd != kStatusFd && dup2(fd, kStatusFd) != kStatusFd)) {
            std::fprintf(stderr, "sandbox: cannot open the status channel %s: %s (the command was not run)\n",
                         status.c_str(), std::strerror(errno));
            _exit(kSetupFailedStatus);
        }
        if (fd != kStatusFd)
            close(fd);
    } else if (fcntl(kStatusFd, F_GETFD) < 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        if (devnull != kStatusFd) {
            dup2(devnull, kStatusFd);
            close(devnull);
        }
    }
    close_range(kStatusFd + 1, ~0U, 0);
    fcntl(kStatusFd, F_SETFD, FD_CLOEXEC);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        failSetup(std::string("cannot read the working directory: ") + std::strerror(errno));
    add(key::kCwd, cwd);
    InitConfig config;
    std::string error;
    if (!parseConfig(records, config, error))
        failSetup(error);
    config.inContainer = true;
    config.inGuest = guest;
    for (char **entry = environ; entry && *entry; ++entry)
        config.env.emplace_back(*entry);
    // Nothing in the container (the command least of all) may trace or read this process.
    prctl(PR_SET_DUMPABLE, 0);
    sigset_t set;
    sigemptyset(&set);
    for (int sig : { SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 })
        sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    runUnshared(config);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc >= 2 && std::strcmp(argv[1], "--gate") == 0)
        gate(argc, argv);
    if (argc == 2 && std::strcmp(argv[1], "--hold") == 0)
        hold();
    if (argc == 2 && std::strcmp(argv[1], "--probe") == 0)
        return probe();
    // The proxy bridge is a container's first process, beside its commands and outside
    // their filters: nothing in the container may trace it, read or write its memory.
    if (argc == 4 && std::strcmp(argv[1], "--proxy-bridge") == 0) {
        prctl(PR_SET_DUMPABLE, 0);
        return serveProxyBridge(argv[2], argv[3]);
    }
    // An SSH ProxyCommand inside the sandbox, run by the command's own ssh: nothing more than
    // a tunnel through the proxy the sandbox already has.
    if (argc == 4 && std::strcmp(argv[1], "--ssh-proxy") == 0)
        return runSshProxy(argv[2], argv[3]);
    if (argc == 3 && std::strcmp(argv[1], "--proxy-bridge-wait") == 0) {
        prctl(PR_SET_DUMPABLE, 0);
        return waitForProxyBridge(argv[2]);
    }
    if (argc != 1) {
        std::fprintf(stderr,
                     "usage: sandbox-init (configuration on fd 3, status on fd 4) | sandbox-init --probe\n"
                     "       sandbox-init --proxy-bridge PORT SOCKET | sandbox-init --proxy-bridge-wait PORT\n"
                     "       sandbox-init --hold | sandbox-init --gate [OPTION]... -- COMMAND [ARG]...\n"
                     "       sandbox-init --ssh-proxy HOST PORT\n");
        return 2;
    }
    // Nothing of the engine's leaks into the sandbox: only stdio, config and status.
    if (fcntl(kStatusFd, F_GETFD) < 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        if (devnull != kStatusFd) {
            dup2(devnull, kStatusFd);
            close(devnull);
        }
    }
    close_range(kStatusFd + 1, ~0U, 0);
    fcntl(kStatusFd, F_SETFD, FD_CLOEXEC);
    // The launcher's end (a client killed with SIGKILL, say) asks for the same end as a kill
    // request: every process of the sandbox is killed and reaped before sandbox-init goes.
    if (prctl(PR_SET_PDEATHSIG, SIGUSR1) != 0)
        failSetup(std::string("cannot tie the sandbox to its parent: ") + std::strerror(errno));
    if (getppid() == 1)
        failSetup("the launcher went away before the sandbox started");
    sigset_t set;
    sigemptyset(&set);
    for (int sig : { SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 })
        sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, nullptr);

    // Until its configuration has arrived (the engine may start it ahead of the command),
    // no process of this user may reach its descriptors through /proc (its stdin pipe, for
    // one). Afterwards it is as examinable as before: the engine recognises sandboxed
    // clients by their ancestors' executables.
    prctl(PR_SET_DUMPABLE, 0);
    const std::string configuration = readConfig();
    prctl(PR_SET_DUMPABLE, 1);
    InitConfig config;
    std::string error;
    if (!parseConfig(configuration, config, error))
        failSetup(error);
    if (config.tier == 1)
        runNamespaced(config);
    runUnshared(config);
}
