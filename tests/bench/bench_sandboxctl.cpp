// Whole-process cost of `sandboxctl run -- /bin/true`, as an AI coding agent pays it on every
// command: interleaved with bubblewrap, with the engine embedded (no engine running) and
// through a running sandboxd (the run front, and the full Qt program it hands other command
// lines to), plus `sandboxctl --help` alone; then a load test of many runs started at once
// through one sandboxd, and the machine's load average around both. With
// SANDBOX_BENCH_BASELINE=DIR (a directory holding another build's sandboxctl,
// sandboxctl-full, sandboxd and sandbox-init), that build's rows are interleaved too, for a
// before/after table from one run. Measures only: it fails when a run fails or is lost,
// never because of a figure.
#include "LatencyTable.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace sandbox::bench;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A private runtime, configuration and state directory per engine, so the machine's own
// engine (if any) is never reached and the embedded runs never find the daemon.
struct EngineHome
{
    std::string root;
    std::vector<std::string> environment;

    explicit EngineHome(const std::string &base)
        : root(base)
    {
        for (const char *sub : { "", "/run", "/config", "/state", "/home" })
            ::mkdir((root + sub).c_str(), 0700);
        for (char **entry = environ; *entry; ++entry) {
            const std::string variable = *entry;
            const std::string name = variable.substr(0, variable.find('='));
            if (name != "XDG_RUNTIME_DIR" && name != "SANDBOX_CONFIG_DIR" && name != "SANDBOX_STATE_DIR"
                && name != "HOME")
                environment.push_back(variable);
        }
        environment.push_back("XDG_RUNTIME_DIR=" + root + "/run");
        environment.push_back("SANDBOX_CONFIG_DIR=" + root + "/config");
        environment.push_back("SANDBOX_STATE_DIR=" + root + "/state");
        environment.push_back("HOME=" + root + "/home");
    }

    std::string socketPath() const { return root + "/run/sandbox-studio/engine.sock"; }
};

struct Child
{
    pid_t pid = -1;
    int output = -1; // read end of the child's stdout, or -1
};

// Starts argv with `home`'s environment (the caller's when null); stdout to a pipe when
// `captureOutput`, else to /dev/null; stderr to /dev/null when `quiet`.
Child start(const std::vector<std::string> &argv, const EngineHome *home, bool captureOutput, bool quiet = false)
{
    std::vector<char *> args;
    for (const std::string &arg : argv)
        args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    std::vector<char *> env;
    if (home) {
        for (const std::string &variable : home->environment)
            env.push_back(const_cast<char *>(variable.c_str()));
        env.push_back(nullptr);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    int pipeFds[2] = { -1, -1 };
    if (captureOutput && ::pipe2(pipeFds, O_CLOEXEC) == 0) {
        posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
    } else {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (quiet)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    Child child;
    if (posix_spawnp(&child.pid, args[0], &actions, nullptr, args.data(), home ? env.data() : environ) != 0)
        child.pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    if (pipeFds[1] >= 0)
        ::close(pipeFds[1]);
    child.output = pipeFds[0];
    return child;
}

bool exitedCleanly(int status)
{
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool runOnce(const std::vector<std::string> &argv, const EngineHome *home)
{
    const Child child = start(argv, home, false);
    if (child.pid < 0)
        return false;
    int status = 0;
    return ::waitpid(child.pid, &status, 0) == child.pid && exitedCleanly(status);
}

std::string readAll(int fd)
{
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0)
            text.append(buffer, size_t(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    return text;
}

struct Runner
{
    std::string name;
    std::vector<std::string> argv;
    const EngineHome *home = nullptr;
    std::vector<double> times;
};

double median(std::vector<double> times)
{
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

double percentile(std::vector<double> times, double fraction)
{
    std::sort(times.begin(), times.end());
    return times[std::min(times.size() - 1, size_t(double(times.size()) * fraction))];
}

// The 1, 5 and 15 minute load averages, as /proc/loadavg gives them.
std::string loadAverage()
{
    const int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return "unknown";
    const std::string text = readAll(fd);
    ::close(fd);
    size_t end = 0;
    for (int field = 0; field < 3 && end != std::string::npos; ++field)
        end = text.find(' ', end + (field > 0 ? 1 : 0));
    return text.substr(0, end);
}

int envInt(const char *name, int fallback)
{
    const char *value = std::getenv(name);
    const int parsed = value ? std::atoi(value) : 0;
    return parsed > 0 ? parsed : fallback;
}

} // namespace

int main()
{
    const std::string sandboxctl = SANDBOX_SANDBOXCTL;
    const std::string sandboxd = SANDBOX_SANDBOXD;
    const std::string sandboxctlFull = SANDBOX_SANDBOXCTL_FULL;
    const int runs = envInt("SANDBOX_BENCH_RUNS", 50);
    const int loadRuns = envInt("SANDBOX_BENCH_LOAD_RUNS", 200);
    const int loadParallel = envInt("SANDBOX_BENCH_LOAD_PARALLEL", 16);

    char base[] = "/tmp/bench-sandboxctl-XXXXXX";
    if (!::mkdtemp(base)) {
        std::perror("bench: mkdtemp");
        return 1;
    }
    const EngineHome embeddedHome(std::string(base) + "/embedded");
    const EngineHome daemonHome(std::string(base) + "/daemon");

    const char *baselineDir = std::getenv("SANDBOX_BENCH_BASELINE");
    const std::string baseline = baselineDir && *baselineDir ? baselineDir : "";
    const EngineHome baselineEmbeddedHome(std::string(base) + "/baseline-embedded");
    const EngineHome baselineDaemonHome(std::string(base) + "/baseline-daemon");

    std::vector<pid_t> daemons;
    auto stopDaemons = [&daemons] {
        for (const pid_t pid : daemons)
            ::kill(pid, SIGTERM);
        for (const pid_t pid : daemons) {
            int daemonStatus = 0;
            ::waitpid(pid, &daemonStatus, 0);
        }
    };
    // A daemon serves once its socket exists (asking before would make the asking
    // sandboxctl host an engine itself).
    auto startDaemon = [&](const std::string &program, const EngineHome &home) {
        const Child daemon = start({ program }, &home, false, true);
        if (daemon.pid < 0) {
            std::fprintf(stderr, "bench: cannot start %s\n", program.c_str());
            return false;
        }
        daemons.push_back(daemon.pid);
        const Clock::time_point daemonStart = Clock::now();
        struct stat socketStat = {};
        while (::stat(home.socketPath().c_str(), &socketStat) != 0 || !S_ISSOCK(socketStat.st_mode)) {
            if (msSince(daemonStart) > 30000) {
                std::fprintf(stderr, "bench: %s did not serve %s within 30 s\n", program.c_str(),
                             home.socketPath().c_str());
                return false;
            }
            ::usleep(50000);
        }
        return true;
    };
    if (!startDaemon(sandboxd, daemonHome)
        || (!baseline.empty() && !startDaemon(baseline + "/sandboxd", baselineDaemonHome))) {
        stopDaemons();
        return 1;
    }

    std::vector<Runner> runners = {
        { "bubblewrap",
          { "bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
            "/bin/true" },
          nullptr,
          {} },
        { "sandboxctl run, engine embedded", { sandboxctl, "run", "--", "/bin/true" }, &embeddedHome, {} },
        { "sandboxctl run, through sandboxd", { sandboxctl, "run", "--", "/bin/true" }, &daemonHome, {} },
        // The Qt program the run front hands everything else to, as every run went before it.
        { "sandboxctl-full run, through sandboxd", { sandboxctlFull, "run", "--", "/bin/true" }, &daemonHome, {} },
        { "sandboxctl --help", { sandboxctl, "--help" }, &embeddedHome, {} },
    };
    if (!baseline.empty()) {
        runners.push_back({ "baseline: sandboxctl run, engine embedded",
                            { baseline + "/sandboxctl", "run", "--", "/bin/true" },
                            &baselineEmbeddedHome,
                            {} });
        runners.push_back({ "baseline: sandboxctl run, through sandboxd",
                            { baseline + "/sandboxctl", "run", "--", "/bin/true" },
                            &baselineDaemonHome,
                            {} });
        runners.push_back({ "baseline: sandboxctl-full run, through sandboxd",
                            { baseline + "/sandboxctl-full", "run", "--", "/bin/true" },
                            &baselineDaemonHome,
                            {} });
        runners.push_back(
            { "baseline: sandboxctl --help", { baseline + "/sandboxctl", "--help" }, &baselineEmbeddedHome, {} });
    }
    const std::string loadBefore = loadAverage();
    int status = 0;
    // Warm-up, then round-robin, so every runner sees the same background load.
    for (Runner &runner : runners) {
        for (int i = 0; i < 3 && status == 0; ++i) {
            if (!runOnce(runner.argv, runner.home)) {
                std::fprintf(stderr, "bench: %s did not run successfully\n", runner.name.c_str());
                status = 1;
            }
        }
    }
    for (int i = 0; i < runs && status == 0; ++i) {
        for (Runner &runner : runners) {
            const Clock::time_point begin = Clock::now();
            if (!runOnce(runner.argv, runner.home)) {
                std::fprintf(stderr, "bench: %s failed on run %d\n", runner.name.c_str(), i);
                status = 1;
                break;
            }
            runner.times.push_back(msSince(begin));
        }
    }
    if (status == 0) {
        std::printf("Whole-process wall time, %d interleaved runs each; load average %s before, %s after\n\n", runs,
                    loadBefore.c_str(), loadAverage().c_str());
        std::printf("| %-50s | %8s | %8s | %10s |\n", "command", "median", "p95", "x bwrap");
        std::printf("|%s|%s|%s|%s|\n", std::string(52, '-').c_str(), std::string(10, '-').c_str(),
                    std::string(10, '-').c_str(), std::string(12, '-').c_str());
        const double reference = median(runners.front().times);
        for (Runner &runner : runners) {
            std::vector<double> times = runner.times;
            const Latency latency = latencyOf(times);
            std::printf("| %-50s | %8.2f | %8.2f | %9.2fx |\n", runner.name.c_str(), latency.median, latency.p95,
                        latency.median / reference);
        }
    }

    // Load: loadRuns runs, loadParallel in flight at any time, through the one sandboxd.
    // Each prints its own number; a run is lost when its output or status is not its own.
    if (status == 0) {
        struct InFlight
        {
            Child child;
            int index = 0;
            Clock::time_point begin;
        };
        std::map<pid_t, InFlight> inFlight;
        std::vector<double> times;
        int started = 0;
        int failed = 0;
        const Clock::time_point loadBegin = Clock::now();
        while (started < loadRuns || !inFlight.empty()) {
            while (started < loadRuns && int(inFlight.size()) < loadParallel) {
                const std::string token = "run-" + std::to_string(started);
                InFlight run{ start({ sandboxctl, "run", "--", "/bin/echo", token }, &daemonHome, true), started,
                              Clock::now() };
                ++started;
                if (run.child.pid < 0) {
                    ++failed;
                    continue;
                }
                inFlight.emplace(run.child.pid, run);
            }
            int waitStatus = 0;
            const pid_t pid = ::waitpid(-1, &waitStatus, 0);
            const auto found = inFlight.find(pid);
            if (found == inFlight.end())
                continue;
            const double elapsed = msSince(found->second.begin);
            const std::string output = readAll(found->second.child.output);
            ::close(found->second.child.output);
            const std::string expected = "run-" + std::to_string(found->second.index) + "\n";
            if (!exitedCleanly(waitStatus) || output != expected) {
                ++failed;
                std::fprintf(stderr, "bench: load run %d: status %d, output \"%s\"\n", found->second.index, waitStatus,
                             output.c_str());
            }
            times.push_back(elapsed);
            inFlight.erase(found);
        }
        const double total = msSince(loadBegin);
        std::printf("\nLoad: %d `sandboxctl run -- /bin/echo N` through one sandboxd, %d at a time\n\n", loadRuns,
                    loadParallel);
        std::printf("| %-12s | %8s | %8s | %8s | %8s | %10s |\n", "failed/lost", "p50 ms", "p99 ms", "max ms",
                    "total s", "runs/s");
        std::printf("|%s|%s|%s|%s|%s|%s|\n", std::string(14, '-').c_str(), std::string(10, '-').c_str(),
                    std::string(10, '-').c_str(), std::string(10, '-').c_str(), std::string(10, '-').c_str(),
                    std::string(12, '-').c_str());
        std::printf("| %12d | %8.2f | %8.2f | %8.2f | %8.2f | %10.1f |\n", failed, percentile(times, 0.5),
                    percentile(times, 0.99), percentile(times, 1.0), total / 1000, loadRuns / (total / 1000));
        if (failed > 0)
            status = 1;
    }

    stopDaemons();
    const std::string cleanup = std::string("rm -rf '") + base + "'";
    if (std::system(cleanup.c_str()) != 0)
        std::fprintf(stderr, "bench: could not remove %s\n", base);
    return status;
}
