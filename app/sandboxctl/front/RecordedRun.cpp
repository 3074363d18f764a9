#include "RecordedRun.h"

#include "fdio/FdIo.h"
#include "launchers/auto/linux/handoff/InitHandoff.h"
#include "launchers/auto/linux/handoff/PlanRecord.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace sandbox::front {

namespace {

int signalPipe[2] = { -1, -1 };

void onSignal(int signal)
{
    const int saved = errno;
    const unsigned char byte = static_cast<unsigned char>(signal);
    [[maybe_unused]] const ssize_t n = ::write(signalPipe[1], &byte, 1);
    errno = saved;
}

long long nowMs()
{
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000LL + now.tv_nsec / 1000000;
}

// Everything of `data` to `fd`, waiting while a non-blocking one is full; what cannot be
// written (a closed reader) is dropped.
void writeOut(int fd, const char *data, size_t size)
{
    fdio::writeAll(fd, data, size, { .waitWhenFull = true });
}

void writeText(int fd, const std::string &text)
{
    writeOut(fd, text.data(), text.size());
}

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

} // namespace

std::optional<int> RecordedRun::run(const PlanRecord &record, const Request &request)
{
    const std::string configuration = record.configuration(request.argv);
    int configFd = init::sealedConfiguration(configuration);
    int status[2] = { -1, -1 };
    int input[2] = { -1, -1 };
    int output[2] = { -1, -1 };
    int errors[2] = { -1, -1 };
    if (configFd < 0 || ::pipe2(status, O_CLOEXEC) != 0 || ::pipe2(input, O_CLOEXEC) != 0
        || ::pipe2(output, O_CLOEXEC) != 0 || ::pipe2(errors, O_CLOEXEC) != 0 || ::pipe2(signalPipe, O_CLOEXEC) != 0) {
        for (int *fd : { &configFd, &status[0], &status[1], &input[0], &input[1], &output[0], &output[1], &errors[0],
                         &errors[1], &signalPipe[0], &signalPipe[1] })
            closeFd(*fd);
        return std::nullopt;
    }
    for (const int fd : { status[0], input[1], output[0], errors[0], signalPipe[0], signalPipe[1] })
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

    struct sigaction action = {};
    sigemptyset(&action.sa_mask);
    action.sa_handler = &onSignal;
    struct sigaction previous[4] = {};
    const int watched[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    for (int k = 0; k < 4; ++k) {
        struct sigaction wanted = action;
        if (watched[k] == SIGPIPE)
            wanted.sa_handler = SIG_IGN;
        ::sigaction(watched[k], &wanted, &previous[k]);
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO);
    init::addPlacement(actions, configFd, status[1]);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (const int signal : watched)
        sigaddset(&defaults, signal);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::string initPath = record.initPath();
    char *arguments[] = { initPath.data(), nullptr };
    std::string marker = init::kEnvironmentEntry;
    char *environment[] = { marker.data(), nullptr };
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, initPath.c_str(), &actions, &attributes, arguments, environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    closeFd(configFd);
    closeFd(status[1]);
    closeFd(input[0]);
    closeFd(output[1]);
    closeFd(errors[1]);
    const int processFd = spawned == 0 ? static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)) : -1;
    if (spawned != 0 || processFd < 0) {
        if (spawned == 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        for (int *fd : { &status[0], &input[1], &output[0], &errors[0], &signalPipe[0], &signalPipe[1] })
            closeFd(*fd);
        for (int k = 0; k < 4; ++k)
            ::sigaction(watched[k], &previous[k], nullptr);
        return std::nullopt;
    }

    // Our stdin goes to the command; its end (or none at all) closes the command's.
    int stdinFd = ::fcntl(STDIN_FILENO, F_GETFD) == -1 ? -1 : STDIN_FILENO;
    std::string pendingInput;
    if (stdinFd < 0)
        closeFd(input[1]);
    bool started = false;
    bool haveExit = false;
    bool exitSignaled = false;
    int exitValue = 0;
    std::string setupError;
    std::string statusBuffer;
    bool killRequested = false;
    bool signalPassed = false;
    bool timedOut = false;
    long long killAt = -1;
    const long long startedAt = nowMs();
    int waitStatus = 0;
    bool ended = false;

    auto requestKill = [&] {
        if (killRequested)
            return;
        killRequested = true;
        init::askToEnd(pid);
        killAt = nowMs() + init::kKillFallbackMs;
    };
    auto readStatus = [&] {
        char buffer[1024];
        for (;;) {
            const ssize_t n = ::read(status[0], buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                if (n == 0 || errno != EAGAIN)
                    closeFd(status[0]);
                return;
            }
            statusBuffer.append(buffer, size_t(n));
            size_t newline;
            while ((newline = statusBuffer.find('\n')) != std::string::npos) {
                const std::string line = statusBuffer.substr(0, newline);
                statusBuffer.erase(0, newline + 1);
                const size_t space = line.find(' ');
                const std::string key = line.substr(0, space);
                const std::string value = space == std::string::npos ? std::string() : line.substr(space + 1);
                if (key == "started") {
                    started = true;
                } else if (key == "error" && setupError.empty()) {
                    setupError = value;
                } else if ((key == "exit" || key == "signal") && !haveExit) {
                    haveExit = true;
                    exitSignaled = key == "signal";
                    exitValue = std::atoi(value.c_str());
                }
            }
        }
    };
    auto relay = [](int &from, int to) {
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::read(from, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                if (n == 0 || errno != EAGAIN)
                    closeFd(from);
                return;
            }
            writeOut(to, buffer, size_t(n));
        }
    };

    while (!ended) {
        const long long now = nowMs();
        long long deadline = -1;
        auto consider = [&deadline](long long at) {
            if (at >= 0 && (deadline < 0 || at < deadline))
                deadline = at;
        };
        if (!started && !killRequested)
            consider(startedAt + record.spawnBoundMs());
        if (request.timeoutMs > 0 && !killRequested)
            consider(startedAt + request.timeoutMs);
        if (killRequested)
            consider(killAt);
        pollfd fds[7];
        int count = 0;
        auto watch = [&](int fd, short events) {
            if (fd >= 0)
                fds[count++] = { fd, events, 0 };
        };
        watch(processFd, POLLIN);
        watch(signalPipe[0], POLLIN);
        watch(status[0], POLLIN);
        watch(output[0], POLLIN);
        watch(errors[0], POLLIN);
        if (input[1] >= 0 && !pendingInput.empty())
            watch(input[1], POLLOUT);
        else if (stdinFd >= 0 && input[1] >= 0)
            watch(stdinFd, POLLIN);
        const int timeout = deadline < 0 ? -1 : int(std::max(0LL, deadline - now));
        if (::poll(fds, nfds_t(count), timeout) < 0 && errno != EINTR)
            break;
        if (nowMs() >= deadline && deadline >= 0) {
            if (killRequested) {
                init::forceEnd(pid);
                killAt = -1;
            } else {
                // The start-up bound or the --timeout: either way the engine reports a timeout.
                timedOut = true;
                requestKill();
            }
        }
        for (int i = 0; i < count; ++i) {
            if (fds[i].revents == 0)
                continue;
            const int fd = fds[i].fd;
            if (fd == signalPipe[0]) {
                unsigned char signals[16];
                ssize_t n;
                while ((n = ::read(signalPipe[0], signals, sizeof signals)) > 0) {
                    for (ssize_t k = 0; k < n; ++k) {
                        // The first goes on to the command (sandbox-init passes it to the
                        // command's process group); a second kills the sandbox.
                        if (std::exchange(signalPassed, true))
                            requestKill();
                        else
                            ::kill(pid, signals[k]);
                    }
                }
            } else if (fd == status[0]) {
                readStatus();
            } else if (fd == output[0]) {
                relay(output[0], STDOUT_FILENO);
            } else if (fd == errors[0]) {
                relay(errors[0], STDERR_FILENO);
            } else if (fd == stdinFd) {
                char buffer[65536];
                const ssize_t n = ::read(stdinFd, buffer, sizeof buffer);
                if (n > 0) {
                    pendingInput.append(buffer, size_t(n));
                } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                    stdinFd = -1;
                }
            } else if (fd == input[1]) {
                const ssize_t n = ::write(input[1], pendingInput.data(), pendingInput.size());
                if (n > 0)
                    pendingInput.erase(0, size_t(n));
                else if (n < 0 && errno != EINTR && errno != EAGAIN)
                    closeFd(input[1]); // the command closed its stdin
            } else if (fd == processFd) {
                if (::waitpid(pid, &waitStatus, WNOHANG) == pid)
                    ended = true;
            }
        }
        if (stdinFd < 0 && pendingInput.empty())
            closeFd(input[1]);
    }
    if (!ended)
        ::waitpid(pid, &waitStatus, 0);
    // sandbox-init has exited, so everything it wrote is in the pipes: drain them.
    readStatus();
    for (int *fd : { &output[0], &errors[0] }) {
        if (*fd >= 0)
            relay(*fd, fd == &output[0] ? STDOUT_FILENO : STDERR_FILENO);
    }
    for (int *fd : { &status[0], &input[1], &output[0], &errors[0], &signalPipe[0], &signalPipe[1] })
        closeFd(*fd);
    ::close(processFd);
    for (int k = 0; k < 4; ++k)
        ::sigaction(watched[k], &previous[k], nullptr);

    const std::string &program = request.argv.front();
    bool signaled = false;
    int value = 0;
    if (!started && killRequested) {
        // Killed while the sandbox was being set up: that is how it ended.
        signaled = true;
        value = SIGKILL;
    } else if (!started) {
        const std::string reason = !setupError.empty() ? setupError
                                                       : "sandbox-init ended (status "
                + std::to_string(WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 0) + ") before starting the command";
        writeText(STDERR_FILENO,
                  "sandboxctl: builtin:auto: cannot run " + program
                      + ": The sandbox could not be set up, so the command was not run: " + reason + "\n");
        return 125;
    } else if (haveExit) {
        signaled = exitSignaled;
        value = exitValue;
    } else if (WIFSIGNALED(waitStatus)) {
        signaled = true;
        value = WTERMSIG(waitStatus) > 0 ? WTERMSIG(waitStatus) : SIGKILL;
    } else {
        value = WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 0;
    }
    if (timedOut)
        writeText(STDERR_FILENO,
                  "sandboxctl: " + program + " timed out after " + request.timeoutText + " s and was killed\n");
    return signaled ? 128 + value : value;
}

} // namespace sandbox::front
