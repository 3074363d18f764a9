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
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <poll.h>
#include <string>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace sandbox::guest;

namespace {

constexpr const char *kObserverPath = "/.sandbox/sandbox-vm-seccomp-observer";
constexpr const char *kForwarderPath = "/.sandbox/sandbox-vm-gvforwarder";
constexpr const char *kVersion = "sandbox-vm-agent 1";

int g_channel = -1;

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
    int reportFd = -1;
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

void forwardReports(Command &command, const char *data, size_t size)
{
    command.reportLine.append(data, size);
    size_t newline;
    while ((newline = command.reportLine.find('\n')) != std::string::npos) {
        sendText(Refusal, command.id, command.reportLine.substr(0, newline));
        command.reportLine.erase(0, newline + 1);
    }
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
    bool observe = false;
    bool withAgent = false;
    for (size_t start = 0; start <= flags.size();) {
        const size_t end = std::min(flags.find(' ', start), flags.size());
        const std::string word = flags.substr(start, end - start);
        observe = observe || word == "observe";
        withAgent = withAgent || word == "agent";
        start = end + 1;
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
                    if (other->pid == peerSession)
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
        || (observe && pipe2(report, O_CLOEXEC))) {
        sendText(SpawnFailed, id, std::string("cannot create pipes: ") + std::strerror(errno));
        return;
    }
    std::vector<std::string> fullArgv;
    if (observe) {
        fullArgv = { kObserverPath, std::to_string(3), "--" };
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
        if (observe) {
            if (report[1] == 3)
                fcntl(3, F_SETFD, 0);
            else
                dup2(report[1], 3);
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
        execvpe(av[0], av.data(), ev.data());
        fail("cannot run " + argv[0]);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    close(status[1]);
    if (observe)
        close(report[1]);
    if (pid < 0) {
        sendText(SpawnFailed, id, std::string("cannot fork: ") + std::strerror(errno));
        close(in[1]);
        close(out[0]);
        close(err[0]);
        close(status[0]);
        if (observe)
            close(report[0]);
        return;
    }
    std::string failureText;
    char buffer[1024];
    ssize_t n;
    while ((n = read(status[0], buffer, sizeof buffer)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        failureText.append(buffer, size_t(n));
    }
    close(status[0]);
    if (!failureText.empty()) {
        waitpid(pid, nullptr, 0);
        close(in[1]);
        close(out[0]);
        close(err[0]);
        if (observe)
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
    command->reportFd = observe ? report[0] : -1;
    command->agent = std::move(agent);
    if (command->agent)
        command->agent->setSession(pid);
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
    // The command's session ends with it: nothing it started outlives it.
    kill(-command.pid, SIGKILL);
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
    const bool signaled = WIFSIGNALED(status);
    putU32(exited, uint32_t(signaled ? 0 : WEXITSTATUS(status)));
    exited.push_back(char(signaled ? 1 : 0));
    putU32(exited, uint32_t(signaled ? WTERMSIG(status) : 0));
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
        if (payload.size() >= 4)
            kill(-command.pid, int(getU32(payload.data())));
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
    if (isInit)
        problems = bootGuest();
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
