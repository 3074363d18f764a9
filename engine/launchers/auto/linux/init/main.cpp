// sandbox-init: the helper the auto launcher runs to confine one command. Plain C++
// without Qt so it stays small, starts fast and is safe to fork from.
#include "InitConfig.h"
#include "ProxyBridge.h"
#include "StatusChannel.h"
#include "Supervisor.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

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
    signal(SIGCHLD, SIG_IGN);
    for (;;)
        pause();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], "--hold") == 0)
        hold();
    if (argc == 2 && std::strcmp(argv[1], "--probe") == 0)
        return probe();
    if (argc == 4 && std::strcmp(argv[1], "--proxy-bridge") == 0)
        return serveProxyBridge(argv[2], argv[3]);
    if (argc == 3 && std::strcmp(argv[1], "--proxy-bridge-wait") == 0)
        return waitForProxyBridge(argv[2]);
    if (argc != 1) {
        std::fprintf(stderr,
                     "usage: sandbox-init (configuration on fd 3, status on fd 4) | sandbox-init --probe\n"
                     "       sandbox-init --proxy-bridge PORT SOCKET | sandbox-init --proxy-bridge-wait PORT\n"
                     "       sandbox-init --hold\n");
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
