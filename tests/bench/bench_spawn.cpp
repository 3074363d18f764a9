// Spawn latency of /bin/true: through the auto launcher (tier 1 and tier 2), through
// bubblewrap, and through plain posix_spawn. Prints median and p95 wall time as a table.
// Measures only: it fails when a runner cannot run, never because of a figure.
#include "LauncherRun.h"
#include "launchers/auto/linux/SandboxPlan.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <functional>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace sandbox;
using namespace sandbox::test;

namespace {

struct Row
{
    QString name;
    double median = 0;
    double p95 = 0;
    int runs = 0;
};

bool posixSpawnAndWait(const std::vector<const char *> &argv)
{
    std::vector<char *> args;
    for (const char *arg : argv)
        args.push_back(const_cast<char *>(arg));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0)
        return false;
    int status = 0;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

struct Runner
{
    QString name;
    std::function<bool()> once;
    std::vector<double> times;
};

// Round-robin, so every runner sees the same background load (the machine is shared).
bool measureAll(std::vector<Runner> &runners, int runs)
{
    for (Runner &runner : runners) {
        for (int i = 0; i < 5; ++i) {
            if (!runner.once()) {
                std::fprintf(stderr, "bench: %s did not run /bin/true successfully\n", qPrintable(runner.name));
                return false;
            }
        }
    }
    QElapsedTimer timer;
    for (int i = 0; i < runs; ++i) {
        for (Runner &runner : runners) {
            timer.start();
            if (!runner.once()) {
                std::fprintf(stderr, "bench: %s failed on run %d\n", qPrintable(runner.name), i);
                return false;
            }
            runner.times.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
    }
    return true;
}

Row summarize(Runner &runner)
{
    std::sort(runner.times.begin(), runner.times.end());
    Row row;
    row.name = runner.name;
    row.runs = int(runner.times.size());
    row.median = runner.times[runner.times.size() / 2];
    row.p95 = runner.times[std::min(runner.times.size() - 1, size_t(double(runner.times.size()) * 0.95))];
    return row;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS")
        : 50;
    QTemporaryDir workspace;
    std::vector<Runner> runners;
    runners.push_back(
        { QStringLiteral("posix_spawn (no sandbox)"), [] { return posixSpawnAndWait({ "/bin/true" }); }, {} });
    runners.push_back({ QStringLiteral("QProcess (no sandbox, Qt's own cost)"),
                        [] {
                            QProcess process;
                            process.start(QStringLiteral("/bin/true"), QStringList());
                            return process.waitForFinished() && process.exitCode() == 0;
                        },
                        {} });
    const QByteArray bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap")).toLocal8Bit();
    if (!bwrap.isEmpty()) {
        runners.push_back({ QStringLiteral("bwrap --unshare-all --ro-bind / /"),
                            [bwrap] {
                                return posixSpawnAndWait({ bwrap.constData(), "--unshare-all", "--die-with-parent",
                                                           "--ro-bind", "/", "/", "/bin/true" });
                            },
                            {} });
        // The same work tier 1 does on the filesystem side (fresh /proc, minimal /dev, private /tmp).
        runners.push_back({ QStringLiteral("bwrap + --proc --dev --tmpfs /tmp"),
                            [bwrap] {
                                return posixSpawnAndWait({ bwrap.constData(), "--unshare-all", "--die-with-parent",
                                                           "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
                                                           "--tmpfs", "/tmp", "/bin/true" });
                            },
                            {} });
    } else {
        std::fprintf(stderr, "bench: bwrap not installed, its row is skipped\n");
    }
    const Policy policy = Policy::defaults();
    std::vector<std::shared_ptr<AutoLauncher>> launchers;
    for (const auto &[tier, label] :
         { std::pair{ QStringLiteral("strongest"), QStringLiteral("auto tier 1 (namespaces+Landlock+seccomp)") },
           std::pair{ QStringLiteral("landlock-seccomp"), QStringLiteral("auto tier 2 (Landlock+seccomp)") } }) {
        QString error;
        std::shared_ptr<AutoLauncher> launcher = preparedLauncher(tier, &error);
        if (!launcher) {
            std::fprintf(stderr, "bench: cannot prepare the auto launcher (%s): %s\n", qPrintable(tier),
                         qPrintable(error));
            return 1;
        }
        launchers.push_back(launcher);
        const QString path = workspace.path();
        runners.push_back({ label,
                            [launcher, &policy, path] {
                                const RunResult result
                                    = runIn(*launcher, { QStringLiteral("/bin/true") }, policy, path);
                                return result.started && result.status.exitCode == 0 && !result.status.signaled;
                            },
                            {} });
    }
    // The two halves of a tier 1 spawn: planning in the engine, and sandbox-init itself
    // started with posix_spawn from a prebuilt configuration.
    SandboxPlan::Input planInput;
    planInput.policy = policy;
    planInput.request.argv = { QStringLiteral("/bin/true") };
    planInput.request.cwd = workspace.path();
    planInput.tier = 1;
    planInput.landlockAbi = 7;
    runners.push_back({ QStringLiteral("  tier 1 plan only (policy -> configuration)"),
                        [planInput] {
                            const Result<SandboxPlan> plan = SandboxPlan::build(planInput);
                            return plan.ok() && !plan.value().serialize().isEmpty();
                        },
                        {} });
    const Result<SandboxPlan> prebuilt = SandboxPlan::build(planInput);
    const QByteArray initPath = AutoLauncher::locateInit().toLocal8Bit();
    if (prebuilt && !initPath.isEmpty()) {
        const QByteArray config = prebuilt.value().serialize();
        runners.push_back({ QStringLiteral("  tier 1 sandbox-init only (posix_spawn)"),
                            [config, initPath] {
                                const int configFd = memfd_create("bench-config", MFD_CLOEXEC);
                                int status[2];
                                if (configFd < 0
                                    || write(configFd, config.constData(), size_t(config.size())) != config.size()
                                    || lseek(configFd, 0, SEEK_SET) != 0 || pipe2(status, O_CLOEXEC) != 0)
                                    return false;
                                posix_spawn_file_actions_t actions;
                                posix_spawn_file_actions_init(&actions);
                                posix_spawn_file_actions_adddup2(&actions, configFd, 3);
                                posix_spawn_file_actions_adddup2(&actions, status[1], 4);
                                char *args[] = { const_cast<char *>(initPath.constData()), nullptr };
                                pid_t pid = 0;
                                const bool spawned = posix_spawn(&pid, args[0], &actions, nullptr, args, environ) == 0;
                                posix_spawn_file_actions_destroy(&actions);
                                close(status[1]);
                                close(configFd);
                                int wstatus = 0;
                                const bool ok = spawned && waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus)
                                    && WEXITSTATUS(wstatus) == 0;
                                close(status[0]);
                                return ok;
                            },
                            {} });
    }
    if (!measureAll(runners, runs))
        return 1;
    std::vector<Row> rows;
    for (Runner &runner : runners)
        rows.push_back(summarize(runner));

    std::printf("\nSpawn latency of /bin/true, %d runs each (after 5 warm-up runs), wall time in ms\n\n", runs);
    std::printf("| %-44s | %8s | %8s |\n", "runner", "median", "p95");
    std::printf("|%s|%s|%s|\n", std::string(46, '-').c_str(), std::string(10, '-').c_str(),
                std::string(10, '-').c_str());
    for (const Row &row : rows)
        std::printf("| %-44s | %8.2f | %8.2f |\n", qPrintable(row.name), row.median, row.p95);
    std::printf("\n(the launcher rows include building the plan from the default policy, the sealed config, "
                "QProcess and the status channel)\n");
    return 0;
}
