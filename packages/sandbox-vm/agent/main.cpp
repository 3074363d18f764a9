// sandbox-vm-agent: the guest exec agent. It is the guest's init: it prepares the guest
// (GuestBoot), then serves the engine on one channel: spawn (argv, env, cwd), stdin,
// stdout and stderr streams, signals and exit status for many concurrent commands, and
// each command's SSH agent socket (CommandAgent). Run as `sandbox-vm-agent --ssh-proxy HOST
// PORT` it is the ProxyCommand of a command's SSH configuration instead.
#include "CommandAgent.h"
#include "GuestBoot.h"
#include "GuestForwarder.h"
#include "GuestNetwork.h"
#include "GuestProtocol.h"
#include "WireU32.h"
#include "fdio/FdIo.h"
#include "launchers/auto/linux/init/SshProxyCommand.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace sandbox::guest;

namespace {

// sandbox-init, which runs each command under its write gate (StatusChannel.h's lines on
// descriptor kGateStatusFd). It runs from g_gateFd, opened once it was bound read-only over
// itself: what a command does to the path or the folder later changes nothing.
constexpr const char *kGatePath = "/.sandbox/sandbox-vm-gate";
constexpr int kGateStatusFd = 4;
constexpr const char *kForwarderPath = "/.sandbox/sandbox-vm-gvforwarder";
constexpr const char *kVersion = "sandbox-vm-agent 1";

int g_channel = -1;
int g_gateFd = -1;
std::string g_gateProblem;

using sandbox::wire::getU32;
using sandbox::wire::putU32;

void sendFrame(FrameType type, uint32_t id, const char *data, size_t size)
{
    // Large output goes in pieces so one frame never exceeds the limit.
    do {
        const size_t piece = size < kMaxFrame - 5 ? size : kMaxFrame - 5;
        std::string frame;
        putU32(frame, uint32_t(piece + 5));
        frame.push_back(char(type));
        putU32(frame, id);
        frame.append(data, piece);
        if (!sandbox::fdio::writeAll(g_channel, frame.data(), frame.size()))
            _exit(3); // the engine is gone: nothing left to serve
        data += piece;
        size -= piece;
    } while (size > 0);
}

void sendText(FrameType type, uint32_t id, const std::string &text)
{
    sendFrame(type, id, text.data(), text.size());
}

struct Command
{
    uint32_t id = 0;
    pid_t pid = -1;
    int stdinFd = -1;
    int stdoutFd = -1;
    int stderrFd = -1;
    int reportFd = -1; // sandbox-init's status lines
    bool gated = false; // run under sandbox-init's write gate
    pid_t commandPid = -1; // the command under sandbox-init, the leader of its own session
    bool haveEnd = false; // sandbox-init said how the command ended:
    bool endSignaled = false;
    int endValue = 0; // its exit code or signal
    std::string pendingStdin;
    bool stdinEofRequested = false;
    std::string reportLine;
    std::unique_ptr<CommandAgent> agent; // its SSH agent socket, when the spawn asked for one
};

std::map<uint32_t, std::unique_ptr<Command>> g_commands;

void closeFd(int &fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

// One of sandbox-init's status lines: what it refused goes to the engine, how the command
// ended is kept for its Exited frame. What follows a refusal's kind came from the command.
void takeStatusLine(Command &command, const std::string &line)
{
    const size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string rest = space == std::string::npos ? std::string() : line.substr(space + 1);
    if (key == "started" && command.commandPid < 0) {
        command.commandPid = pid_t(std::atoi(rest.c_str()));
    } else if (key == "refused") {
        if (rest.compare(0, 5, "call ") == 0)
            sendText(Refusal, command.id, rest.substr(5));
        else
            sendText(GateRefusal, command.id, rest);
    } else if ((key == "exit" || key == "signal") && !command.haveEnd) {
        command.haveEnd = true;
        command.endSignaled = key == "signal";
        command.endValue = std::atoi(rest.c_str());
    }
}

void forwardReports(Command &command, const char *data, size_t size)
{
    command.reportLine.append(data, size);
    size_t newline;
    while ((newline = command.reportLine.find('\n')) != std::string::npos) {
        takeStatusLine(command, command.reportLine.substr(0, newline));
        command.reportLine.erase(0, newline + 1);
    }
    // A line is at most ~520 bytes (StatusChannel.cpp); anything longer is not one.
    if (command.reportLine.size() > 4096)
        command.reportLine.clear();
}

// Kills every process of session `sid` (a command that left its sandbox-init, or outlived it).
void killSession(pid_t sid)
{
    if (sid <= 1)
        return;
    DIR *proc = opendir("/proc");
    if (!proc)
        return;
    while (dirent *entry = readdir(proc)) {
        const pid_t pid = pid_t(std::atoi(entry->d_name));
        if (pid > 1 && getsid(pid) == sid)
            kill(pid, SIGKILL);
    }
    closedir(proc);
}

// Reads what is there; returns false at end of stream.
bool pump(Command &command, int &fd, FrameType type)
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n > 0) {
            if (type == Refusal)
                forwardReports(command, buffer, size_t(n));
            else
                sendFrame(type, command.id, buffer, size_t(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return true;
        closeFd(fd);
        return false;
    }
}

void flushStdin(Command &command)
{
    while (!command.pendingStdin.empty() && command.stdinFd >= 0) {
        const ssize_t n = write(command.stdinFd, command.pendingStdin.data(), command.pendingStdin.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n <= 0) { // the command closed its stdin
            command.pendingStdin.clear();
            closeFd(command.stdinFd);
            return;
        }
        command.pendingStdin.erase(0, size_t(n));
    }
    if (command.pendingStdin.empty() && command.stdinEofRequested)
        closeFd(command.stdinFd);
}

std::vector<std::string> splitStrings(const std::string &payload)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start < payload.size()) {
        const size_t end = payload.find('\0', start);
        if (end == std::string::npos)
            break;
        parts.push_back(payload.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

void setNonBlocking(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// A spawn's start is waited for at most this long: a child another command stopped (same
// uid, SIGSTOP) must not hold up the agent, which serves every command of the guest.
constexpr int kStartWaitMs = 15000;

// Reads what `fd` has within what is left of `deadlineMs` (a CLOCK_MONOTONIC time): the count,
// 0 at its end, -1 on an error or when the time is up (errno ETIMEDOUT).
ssize_t readBefore(int fd, char *buffer, size_t size, long long deadlineMs)
{
    for (;;) {
        timespec now{};
        clock_gettime(CLOCK_MONOTONIC, &now);
        const long long left = deadlineMs - (now.tv_sec * 1000LL + now.tv_nsec / 1000000);
        if (left <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        pollfd pfd{ fd, POLLIN, 0 };
        const int ready = poll(&pfd, 1, int(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            continue; // the next round sees the time is up
        if (ready < 0)
            return -1;
        const ssize_t n = read(fd, buffer, size);
        if (n < 0 && errno == EINTR)
            continue;
        return n;
    }
}

long long deadlineAfter(int ms)
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000LL + now.tv_nsec / 1000000 + ms;
}

void spawnCommand(uint32_t id, const std::string &payload)
{
    const std::vector<std::string> parts = splitStrings(payload);
    size_t at = 0;
    auto next = [&](std::string &out) {
        if (at >= parts.size())
            return false;
        out = parts[at++];
        return true;
    };
    std::string cwd, flags, countText;
    std::vector<std::string> argv, env;
    bool ok = next(cwd) && next(flags) && next(countText);
    for (unsigned long i = 0, n = ok ? std::stoul(countText) : 0; ok && i < n; ++i)
        ok = next(argv.emplace_back());
    ok = ok && next(countText);
    for (unsigned long i = 0, n = ok ? std::stoul(countText) : 0; ok && i < n; ++i)
        ok = next(env.emplace_back());
    bool gated = false;
    bool withAgent = false;
    for (size_t start = 0; start <= flags.size();) {
        const size_t end = std::min(flags.find(' ', start), flags.size());
        const std::string word = flags.substr(start, end - start);
        gated = gated || word == "gate";
        withAgent = withAgent || word == "agent";
        start = end + 1;
    }
    std::vector<std::string> gateArguments;
    if (ok && gated) {
        for (const char *option : { "--guard", "--read-only" }) {
            ok = ok && next(countText) && countText.size() <= 3
                && countText.find_first_not_of("0123456789") == std::string::npos
                && std::strtoul(countText.c_str(), nullptr, 10) <= kMaxGatePaths;
            for (unsigned long i = 0, n = ok ? std::strtoul(countText.c_str(), nullptr, 10) : 0; ok && i < n; ++i) {
                std::string path;
                ok = next(path) && !path.empty() && path[0] == '/';
                gateArguments.insert(gateArguments.end(), { option, path });
            }
        }
    }
    if (ok && gated && g_gateFd < 0) {
        sendText(SpawnFailed, id, "the guest's write gate is unavailable: " + g_gateProblem);
        return;
    }
    std::string socketName;
    std::vector<CommandAgent::File> files;
    if (ok && withAgent) {
        ok = next(socketName) && next(countText);
        for (unsigned long i = 0, n = ok ? std::stoul(countText) : 0; ok && i < n && i <= kAgentMaxFiles; ++i) {
            CommandAgent::File &file = files.emplace_back();
            ok = next(file.first) && next(file.second);
        }
    }
    if (!ok || argv.empty() || g_commands.count(id)) {
        sendText(SpawnFailed, id, "malformed spawn request");
        return;
    }
    // The agent listens before the command runs (SSH_AUTH_SOCK names it from the start).
    std::unique_ptr<CommandAgent> agent;
    if (withAgent) {
        agent = std::make_unique<CommandAgent>(
            id, [id](FrameType type, const std::string &frame) { sendText(type, id, frame); },
            [id](pid_t peerSession, const std::string &what) {
                // The refusal of the command that tried, when a command's session made it.
                uint32_t offender = id;
                for (const auto &[otherId, other] : g_commands) {
                    if (other->commandPid == peerSession)
                        offender = otherId;
                }
                sendText(AgentRefused, offender, what);
            });
        const std::string problem = agent->open(socketName, files);
        if (!problem.empty()) {
            sendText(SpawnFailed, id, "SSH agent: " + problem);
            return;
        }
    }

    int in[2], out[2], err[2], report[2] = { -1, -1 }, status[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(status, O_CLOEXEC)
        || (gated && pipe2(report, O_CLOEXEC))) {
        sendText(SpawnFailed, id, std::string("cannot create pipes: ") + std::strerror(errno));
        return;
    }
    std::vector<std::string> fullArgv;
    if (gated) {
        fullArgv = { "sandbox-init", "--gate", "--guest" };
        fullArgv.insert(fullArgv.end(), gateArguments.begin(), gateArguments.end());
        fullArgv.push_back("--");
    }
    fullArgv.insert(fullArgv.end(), argv.begin(), argv.end());

    const pid_t pid = fork();
    if (pid == 0) {
        sigset_t all;
        sigemptyset(&all);
        sigprocmask(SIG_SETMASK, &all, nullptr);
        for (int s = 1; s < NSIG; ++s)
            signal(s, SIG_DFL);
        setsid();
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        if (gated) {
            if (report[1] == kGateStatusFd)
                fcntl(kGateStatusFd, F_SETFD, 0);
            else
                dup2(report[1], kGateStatusFd);
        }
        auto fail = [&](const std::string &what) {
            const std::string message = what + ": " + std::strerror(errno);
            (void)!write(status[1], message.data(), message.size());
            _exit(127);
        };
        if (chdir(cwd.c_str()) != 0)
            fail("cannot enter the working directory " + cwd);
        std::vector<char *> av, ev;
        for (std::string &a : fullArgv)
            av.push_back(a.data());
        av.push_back(nullptr);
        for (std::string &e : env)
            ev.push_back(e.data());
        ev.push_back(nullptr);
        if (gated) {
            syscall(SYS_execveat, g_gateFd, "", av.data(), ev.data(), AT_EMPTY_PATH);
            fail("cannot run the guest's write gate");
        }
        execvpe(av[0], av.data(), ev.data());
        fail("cannot run " + argv[0]);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    close(status[1]);
    if (gated)
        close(report[1]);
    if (pid < 0) {
        sendText(SpawnFailed, id, std::string("cannot fork: ") + std::strerror(errno));
        close(in[1]);
        close(out[0]);
        close(err[0]);
        close(status[0]);
        if (gated)
            close(report[0]);
        return;
    }
    std::string failureText;
    char buffer[1024];
    ssize_t n;
    const long long startBy = deadlineAfter(kStartWaitMs);
    while ((n = readBefore(status[0], buffer, sizeof buffer, startBy)) != 0) {
        if (n < 0) {
            if (errno == ETIMEDOUT) {
                kill(pid, SIGKILL);
                failureText = "the command did not start in time (was it stopped?)";
            }
            break;
        }
        failureText.append(buffer, size_t(n));
    }
    close(status[0]);
    if (!failureText.empty()) {
        waitpid(pid, nullptr, 0);
        close(in[1]);
        close(out[0]);
        close(err[0]);
        if (gated)
            close(report[0]);
        sendText(SpawnFailed, id, failureText);
        return;
    }
    auto command = std::make_unique<Command>();
    command->id = id;
    command->pid = pid;
    command->stdinFd = in[1];
    command->stdoutFd = out[0];
    command->stderrFd = err[0];
    command->reportFd = gated ? report[0] : -1;
    command->gated = gated;
    command->commandPid = gated ? -1 : pid;
    // Under the gate the command is sandbox-init's child, in a session of its own: its pid
    // comes first on the status channel (or the error that kept it from running, after
    // which sandbox-init exits and its end is reaped as any command's).
    while (gated && command->commandPid < 0) {
        char line[1024];
        const ssize_t got = readBefore(report[0], line, sizeof line, startBy);
        if (got < 0 && errno == ETIMEDOUT) {
            // sandbox-init's kill request, then its end: it is reaped as any command's.
            kill(pid, SIGKILL);
            sendText(Stderr, id, "sandbox: the write gate did not start the command in time\n");
            break;
        }
        if (got <= 0)
            break; // sandbox-init ended (the error that kept the command from running is on stderr)
        forwardReports(*command, line, size_t(got));
    }
    command->agent = std::move(agent);
    if (command->agent)
        command->agent->setSession(command->commandPid);
    for (int fd : { command->stdinFd, command->stdoutFd, command->stderrFd, command->reportFd })
        if (fd >= 0)
            setNonBlocking(fd);
    std::string started;
    putU32(started, uint32_t(pid));
    sendFrame(Started, id, started.data(), started.size());
    g_commands[id] = std::move(command);
}

void finishCommand(Command &command, int status)
{
    // The command's session ends with it: nothing it started outlives it (under the gate
    // sandbox-init has ended it already, unless the command ended sandbox-init).
    kill(-command.pid, SIGKILL);
    if (command.commandPid > 0 && command.commandPid != command.pid)
        killSession(command.commandPid);
    if (command.stdoutFd >= 0)
        pump(command, command.stdoutFd, Stdout);
    if (command.stderrFd >= 0)
        pump(command, command.stderrFd, Stderr);
    if (command.reportFd >= 0)
        pump(command, command.reportFd, Refusal);
    closeFd(command.stdinFd);
    closeFd(command.stdoutFd);
    closeFd(command.stderrFd);
    closeFd(command.reportFd);
    command.agent.reset(); // its socket and folder go with the command
    std::string exited;
    // sandbox-init exits 128 + N for a command killed by signal N, and says which it was.
    const bool signaled = command.haveEnd ? command.endSignaled : WIFSIGNALED(status);
    const int value = command.haveEnd ? command.endValue : signaled ? WTERMSIG(status) : WEXITSTATUS(status);
    putU32(exited, uint32_t(signaled ? 0 : value));
    exited.push_back(char(signaled ? 1 : 0));
    putU32(exited, uint32_t(signaled ? value : 0));
    sendFrame(Exited, command.id, exited.data(), exited.size());
}

void reap()
{
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (auto it = g_commands.begin(); it != g_commands.end(); ++it) {
            if (it->second->pid == pid) {
                finishCommand(*it->second, status);
                g_commands.erase(it);
                break;
            }
        }
    }
}

// A restored guest's shares, attached once (only before the guest's first workload: the
// engine sends it right after the restore handshake).
bool g_attached = false;

void attachShares(uint32_t id, const std::string &payload)
{
    if (g_attached) {
        sendText(SpawnFailed, id, "the shares were attached already");
        return;
    }
    g_attached = true;
    const std::vector<std::string> problems = attachLayout(payload, 10000);
    if (!problems.empty()) {
        std::string text;
        for (const std::string &problem : problems)
            text += (text.empty() ? "" : "; ") + problem;
        sendText(SpawnFailed, id, text);
        return;
    }
    std::string exited;
    putU32(exited, 0);
    exited.push_back(0);
    putU32(exited, 0);
    sendFrame(Exited, id, exited.data(), exited.size());
}

void handleFrame(uint8_t type, uint32_t id, const std::string &payload)
{
    if (type == Spawn) {
        spawnCommand(id, payload);
        return;
    }
    if (type == Attach) {
        attachShares(id, payload);
        return;
    }
    const auto it = g_commands.find(id);
    if (it == g_commands.end())
        return; // the command already ended
    Command &command = *it->second;
    switch (type) {
    case Stdin:
        if (command.stdinFd >= 0 && !command.stdinEofRequested) {
            command.pendingStdin += payload;
            flushStdin(command);
        }
        break;
    case StdinEof:
        command.stdinEofRequested = true;
        flushStdin(command);
        break;
    case Signal:
        if (payload.size() >= 4) {
            // sandbox-init forwards the others; a kill asks it to end everything of the command.
            const int sig = int(getU32(payload.data()));
            kill(-command.pid, sig == SIGKILL && command.gated ? SIGUSR1 : sig);
        }
        break;
    case AgentData:
    case AgentClose:
    case AgentCredit:
        if (command.agent)
            command.agent->fromHost(type, payload);
        break;
    default:
        break;
    }
}

} // namespace

int main(int argc, char **argv)
{
    const bool isInit = getpid() == 1;
    if (!isInit && argc == 4 && std::strcmp(argv[1], "--ssh-proxy") == 0)
        return sandbox::init::runSshProxy(argv[2], argv[3], "sandbox-vm-agent");
    std::vector<std::string> problems;
    if (isInit) {
        problems = bootGuest();
        // Nothing in the guest may read or write this process's memory or descriptors.
        prctl(PR_SET_DUMPABLE, 0);
        g_gateFd = openReadOnlyBound(kGatePath, g_gateProblem);
        if (g_gateFd < 0)
            problems.push_back("write gate: " + g_gateProblem);
    }
    // A guest booted with its shares never attaches others.
    {
        std::ifstream layout("/.sandbox/layout");
        g_attached = layout.peek() != std::ifstream::traits_type::eof();
    }
    // Descriptors 0-2 always exist, so pipes never land on them.
    int spare = open("/dev/null", O_RDWR);
    while (spare >= 0 && spare < 3)
        spare = open("/dev/null", O_RDWR);
    if (spare >= 0)
        close(spare);
    // Network allowlist: the forwarder to the engine's proxy listens before any command runs.
    if (isInit && kernelFlag("sandbox.net=proxy")) {
        const std::string problem = startForwarder(kForwarderPath, 20000);
        if (!problem.empty())
            problems.push_back("network forwarder: " + problem);
    }
    // Network full: the NIC on QEMU's user-mode network is up before any command runs.
    if (isInit && kernelFlag("sandbox.net=full")) {
        const std::string problem = configureUserNetwork(20000);
        if (!problem.empty())
            problems.push_back("network: " + problem);
    }
    g_channel = kernelFlag("sandbox.channel=vsock") ? openAgentVsock(kVsockPort) : openAgentPort(kPortName, 20000);
    if (g_channel < 0) {
        if (isInit)
            reboot(RB_POWER_OFF);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    sigset_t childSignals;
    sigemptyset(&childSignals);
    sigaddset(&childSignals, SIGCHLD);
    sigprocmask(SIG_BLOCK, &childSignals, nullptr);
    const int childFd = signalfd(-1, &childSignals, SFD_CLOEXEC | SFD_NONBLOCK);

    for (const std::string &problem : problems)
        sendText(Log, 0, problem);
    sendText(Ready, 0, kVersion);

    std::string input;
    for (;;) {
        std::vector<pollfd> fds;
        std::vector<std::pair<Command *, int>> owners;
        fds.push_back({ g_channel, POLLIN, 0 });
        owners.push_back({ nullptr, 0 });
        fds.push_back({ childFd, POLLIN, 0 });
        owners.push_back({ nullptr, 0 });
        for (auto &[id, command] : g_commands) {
            if (command->stdoutFd >= 0) {
                fds.push_back({ command->stdoutFd, POLLIN, 0 });
                owners.push_back({ command.get(), 1 });
            }
            if (command->stderrFd >= 0) {
                fds.push_back({ command->stderrFd, POLLIN, 0 });
                owners.push_back({ command.get(), 2 });
            }
            if (command->reportFd >= 0) {
                fds.push_back({ command->reportFd, POLLIN, 0 });
                owners.push_back({ command.get(), 3 });
            }
            if (command->stdinFd >= 0 && !command->pendingStdin.empty()) {
                fds.push_back({ command->stdinFd, POLLOUT, 0 });
                owners.push_back({ command.get(), 0 });
            }
        }
        // The agents' descriptors come last: each agent handles its own.
        const size_t ownedFds = fds.size();
        for (auto &[id, command] : g_commands) {
            if (command->agent)
                command->agent->collect(fds);
        }
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            return 4;
        }
        for (auto &[id, command] : g_commands) {
            if (command->agent)
                command->agent->handle(fds);
        }
        for (size_t i = 2; i < ownedFds; ++i) {
            if (!fds[i].revents)
                continue;
            Command &command = *owners[i].first;
            switch (owners[i].second) {
            case 0:
                flushStdin(command);
                break;
            case 1:
                if (command.stdoutFd == fds[i].fd)
                    pump(command, command.stdoutFd, Stdout);
                break;
            case 2:
                if (command.stderrFd == fds[i].fd)
                    pump(command, command.stderrFd, Stderr);
                break;
            default:
                if (command.reportFd == fds[i].fd)
                    pump(command, command.reportFd, Refusal);
                break;
            }
        }
        if (fds[1].revents) {
            signalfd_siginfo info;
            while (read(childFd, &info, sizeof info) > 0) { }
            reap();
        }
        if (fds[0].revents & POLLIN) {
            char buffer[65536];
            const ssize_t n = read(g_channel, buffer, sizeof buffer);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                // The engine closed the channel: the VM has nobody left to serve.
                if (isInit)
                    reboot(RB_POWER_OFF);
                return 0;
            }
            if (n > 0) {
                input.append(buffer, size_t(n));
                while (input.size() >= 4) {
                    const uint32_t length = getU32(input.data());
                    if (length < 5 || length > kMaxFrame) {
                        sendText(Log, 0, "malformed frame from the engine; channel closed");
                        return 5;
                    }
                    if (input.size() < 4 + length)
                        break;
                    handleFrame(uint8_t(input[4]), getU32(input.data() + 5), input.substr(9, length - 5));
                    input.erase(0, 4 + length);
                }
            }
        }
    }
}
