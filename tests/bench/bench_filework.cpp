// Ordinary file work in the workspace, natively, under bubblewrap and in both tiers of the
// auto launcher (whose write gate makes every writing call a round trip to sandbox-init):
// unpacking 2,000 small files, `git add -A && git commit` of 4,000 files, building a C
// project of 100 files, `npm ci` of 50 vendored packages, and 2,000 bare file creations
// that show the cost of one round trip. Prints medians side by side, then for each tier how
// many of the command's calls went to sandbox-init (round trips) and what they cost, which
// is where the time over native goes; measures only, never fails on a figure.
#include "LauncherRun.h"
#include "TestFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLocale>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <unistd.h>
#include <vector>

using namespace sandbox;
using namespace sandbox::test;

namespace {

// Sizes that keep each workload's ratio to native where the larger ones had it (the costs are
// per file: round trips, compilations, packages) while the whole bench stays short. Preparing
// the commit's files for every runner, and flushing them, costs more than the commit itself;
// tier 1's ratio on the commit was higher with 10,000 files, which SANDBOX_BENCH_GIT_FILES
// brings back.
constexpr int kTarFiles = 2000;
constexpr int kGitFiles = 4000;
constexpr int kMakeFiles = 100;
constexpr int kNpmPackages = 50;

// "2,000", as the table's other figures are written.
QString counted(int count)
{
    return QLocale(QLocale::English).toString(count);
}

struct Workload
{
    QString name;
    QString script; // run with sh -c in the workspace
    std::function<bool(const QString &workspace)> prepare; // on the host, before each run
    int runs = 3;
    int calls = 0; // writing calls it makes (for the per-call figure), 0 when not counted
};

// One run: whether it succeeded and, in the auto tiers, the calls sandbox-init answered.
struct Ran
{
    bool ok = false;
    qint64 calls = 0;
    qint64 answeringUs = 0;
};

struct Runner
{
    QString name;
    std::function<Ran(const QString &script, const QString &workspace)> run;
    bool counts = false; // reports round trips (the auto tiers)
};

bool host(const QString &program, const QStringList &arguments, const QString &directory)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.start(program, arguments);
    return process.waitForFinished(600000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

Ran native(const QString &script, const QString &workspace)
{
    return { host(QStringLiteral("sh"), { QStringLiteral("-c"), script }, workspace) };
}

template <typename T> T median(std::vector<T> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? T() : values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // Under /var/tmp: a real disk, and not the private /tmp of tier 1.
    QTemporaryDir root(QStringLiteral("/var/tmp/bench-filework-XXXXXX"));
    if (!root.isValid())
        return 1;
    const QString workspace = root.filePath(QStringLiteral("ws")); // ws-N: runner N's
    const QString sources = root.filePath(QStringLiteral("sources"));

    // The inputs, made once on the host.
    for (int i = 0; i < kTarFiles; ++i) {
        if (!writeFile(sources + QStringLiteral("/tree/d%1/f%2.txt").arg(i / 100).arg(i),
                       QByteArray("file ") + QByteArray::number(i) + '\n'))
            return 1;
    }
    if (!host(QStringLiteral("tar"),
              { QStringLiteral("-cf"), root.filePath(QStringLiteral("files.tar")), QStringLiteral("tree") }, sources))
        return 1;
    QDir(sources + QStringLiteral("/tree")).removeRecursively();
    for (int i = 0; i < kMakeFiles; ++i) {
        if (!writeFile(sources + QStringLiteral("/project/src/u%1.c").arg(i),
                       QByteArray("int u") + QByteArray::number(i) + "(int x) { return x * " + QByteArray::number(i)
                           + "; }\n"))
            return 1;
    }
    if (!writeFile(sources + QStringLiteral("/project/Makefile"),
                   "SRC := $(wildcard src/*.c)\nOBJ := $(SRC:src/%.c=obj/%.o)\nall: libp.a\n"
                   "obj/%.o: src/%.c\n\t@mkdir -p obj\n\t@cc -O0 -c $< -o $@\n"
                   "libp.a: $(OBJ)\n\t@ar rcs $@ $(OBJ)\n"))
        return 1;

    // A vendored npm project: kNpmPackages packages as local tarballs and a lockfile made once on the
    // host, so `npm ci --offline` needs no network. Left out where npm is missing.
    const QString npm = QStandardPaths::findExecutable(QStringLiteral("npm"));
    const QString npmProject = root.filePath(QStringLiteral("npm-project"));
    const QString npmFlags
        = QStringLiteral("--offline --ignore-scripts --no-audit --no-fund --no-update-notifier --loglevel=error");
    if (!npm.isEmpty()) {
        QByteArray dependencies;
        QDir().mkpath(root.filePath(QStringLiteral("npm-vendor")));
        for (int i = 0; i < kNpmPackages; ++i) {
            const QString package = sources + QStringLiteral("/npm/p%1/package").arg(i);
            if (!writeFile(package + QStringLiteral("/package.json"),
                           "{\"name\":\"bench-p" + QByteArray::number(i) + "\",\"version\":\"1.0.0\"}\n")
                || !writeFile(package + QStringLiteral("/index.js"),
                              "module.exports = " + QByteArray::number(i) + ";\n"))
                return 1;
            for (int j = 0; j < 8; ++j) {
                if (!writeFile(package + QStringLiteral("/lib/f%1.js").arg(j),
                               "exports.f = () => " + QByteArray::number(i * j) + ";\n"))
                    return 1;
            }
            if (!host(QStringLiteral("tar"),
                      { QStringLiteral("-czf"), root.filePath(QStringLiteral("npm-vendor/p%1.tgz").arg(i)),
                        QStringLiteral("package") },
                      QFileInfo(package).absolutePath()))
                return 1;
            dependencies += (i ? ",\"bench-p" : "\"bench-p") + QByteArray::number(i) + "\":\"file:../npm-vendor/p"
                + QByteArray::number(i) + ".tgz\"";
        }
        if (!writeFile(npmProject + QStringLiteral("/package.json"),
                       "{\"name\":\"bench\",\"version\":\"1.0.0\",\"private\":true,\"dependencies\":{" + dependencies
                           + "}}\n")
            || !host(
                QStringLiteral("sh"),
                { QStringLiteral("-c"),
                  QStringLiteral("npm install %1 --package-lock-only --cache ../npm-cache >/dev/null").arg(npmFlags) },
                npmProject))
            return 1;
    }

    const int gitFiles = qEnvironmentVariableIntValue("SANDBOX_BENCH_GIT_FILES") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_GIT_FILES")
        : kGitFiles;
    std::vector<Workload> workloads;
    workloads.push_back({ QStringLiteral("tar -xf: %1 small files").arg(counted(kTarFiles)),
                          QStringLiteral("tar -xf %1").arg(root.filePath(QStringLiteral("files.tar"))),
                          [](const QString &ws) {
                              QDir(ws + QStringLiteral("/tree")).removeRecursively();
                              return QDir().mkpath(ws);
                          },
                          3, 0 });
    workloads.push_back(
        { QStringLiteral("git add -A && git commit: %1 files").arg(counted(gitFiles)),
          QStringLiteral("git add -A && git -c user.name=b -c user.email=b@example.com commit -qm bench"),
          [gitFiles](const QString &ws) {
              QDir(ws).removeRecursively();
              QDir().mkpath(ws);
              for (int i = 0; i < gitFiles; ++i) {
                  if (!writeFile(ws + QStringLiteral("/d%1/f%2.txt").arg(i / 200).arg(i),
                                 QByteArray("line ") + QByteArray::number(i) + '\n'))
                      return false;
              }
              return host(QStringLiteral("git"), { QStringLiteral("init"), QStringLiteral("-q") }, ws);
          },
          1, 0 });
    workloads.push_back({ QStringLiteral("make -j2: a C project of %1 files").arg(counted(kMakeFiles)),
                          QStringLiteral("make -s -j2"),
                          [sources](const QString &ws) {
                              QDir(ws).removeRecursively();
                              QDir().mkpath(ws);
                              return host(QStringLiteral("cp"),
                                          { QStringLiteral("-r"), sources + QStringLiteral("/project/."), ws }, ws);
                          },
                          1, 0 });
    workloads.push_back({ QStringLiteral("2,000 file creations (sh: : > f$i)"),
                          QStringLiteral("i=0; while [ $i -lt 2000 ]; do : > c$i; i=$((i+1)); done"),
                          [](const QString &ws) {
                              QDir(ws).removeRecursively();
                              return QDir().mkpath(ws);
                          },
                          3, 2000 });

    if (!npm.isEmpty()) {
        workloads.push_back({ QStringLiteral("npm ci: %1 vendored packages").arg(kNpmPackages),
                              QStringLiteral("npm ci %1 --cache \"$PWD/.npm-cache\" >/dev/null").arg(npmFlags),
                              [npmProject](const QString &ws) {
                                  QDir(ws).removeRecursively();
                                  QDir().mkpath(ws);
                                  return QFile::copy(npmProject + QStringLiteral("/package.json"),
                                                     ws + QStringLiteral("/package.json"))
                                      && QFile::copy(npmProject + QStringLiteral("/package-lock.json"),
                                                     ws + QStringLiteral("/package-lock.json"));
                              },
                              1, 0 });
    } else {
        std::printf("npm is not installed: the npm ci workload is left out\n");
    }

    std::vector<Runner> runners;
    runners.push_back({ QStringLiteral("native"), native });
    const QString bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
    if (!bwrap.isEmpty()) {
        runners.push_back(
            { QStringLiteral("bwrap"), [bwrap](const QString &script, const QString &ws) {
                 return Ran{ host(bwrap,
                                  { QStringLiteral("--unshare-all"), QStringLiteral("--die-with-parent"),
                                    QStringLiteral("--ro-bind"), QStringLiteral("/"), QStringLiteral("/"),
                                    QStringLiteral("--proc"), QStringLiteral("/proc"), QStringLiteral("--dev"),
                                    QStringLiteral("/dev"), QStringLiteral("--tmpfs"), QStringLiteral("/tmp"),
                                    QStringLiteral("--bind"), ws, ws, QStringLiteral("--chdir"), ws,
                                    QStringLiteral("sh"), QStringLiteral("-c"), script },
                                  ws) };
             } });
    }
    std::vector<std::shared_ptr<AutoLauncher>> launchers;
    const Policy policy = Policy::defaults();
    for (const auto &[tier, label] :
         { std::pair{ QStringLiteral("strongest"), QStringLiteral("auto tier 1") },
           std::pair{ QStringLiteral("landlock-seccomp"), QStringLiteral("auto tier 2") } }) {
        QString error;
        std::shared_ptr<AutoLauncher> launcher = preparedLauncher(tier, &error);
        if (!launcher) {
            std::fprintf(stderr, "bench: cannot prepare the auto launcher (%s): %s\n", qPrintable(tier),
                         qPrintable(error));
            return 1;
        }
        launchers.push_back(launcher);
        runners.push_back({ label,
                            [launcher, policy](const QString &script, const QString &ws) {
                                const RunResult result
                                    = runIn(*launcher, { QStringLiteral("sh"), QStringLiteral("-c"), script }, policy,
                                            ws, {}, 0, 600000);
                                if (result.status.exitCode != 0 || result.status.signaled)
                                    std::fprintf(stderr, "bench: %s\n", result.err.constData());
                                return Ran{ result.started && result.status.exitCode == 0 && !result.status.signaled,
                                            result.supervisedCalls, result.supervisedMicroseconds };
                            },
                            true });
    }

    std::printf("\nFile work in the workspace, wall time in ms (median; runs interleaved across runners, who goes "
                "first turning)\n\n");
    std::printf("| %-40s |", "workload");
    for (const Runner &runner : runners)
        std::printf(" %-20s |", qPrintable(runner.name));
    std::printf("\n|%s|", std::string(42, '-').c_str());
    for (size_t i = 0; i < runners.size(); ++i)
        std::printf("%s|", std::string(22, '-').c_str());
    std::printf("\n");
    std::fflush(stdout);
    std::vector<QString> perCall;
    std::vector<QString> roundTrips;
    for (const Workload &workload : workloads) {
        std::vector<std::vector<double>> times(runners.size());
        std::vector<std::vector<qint64>> calls(runners.size());
        std::vector<std::vector<qint64>> answering(runners.size());
        QElapsedTimer timer;
        for (int run = 0; run < workload.runs; ++run) {
            // Each runner has a workspace of its own, all prepared (the last round's removed)
            // before any runs, and who goes first turns from round to round: on a file system
            // without a journal, ext4 skips the inodes freed in the last minute when it makes
            // new ones, so a runner going right after a removal would pay for it. What
            // preparing wrote reaches the disk before the clock starts.
            for (size_t r = 0; r < runners.size(); ++r) {
                if (!workload.prepare(workspace + QLatin1Char('-') + QString::number(r))) {
                    std::fprintf(stderr, "bench: cannot prepare %s\n", qPrintable(workload.name));
                    return 1;
                }
            }
            sync();
            for (size_t k = 0; k < runners.size(); ++k) {
                const size_t r = (k + size_t(run)) % runners.size();
                timer.start();
                const Ran ran = runners[r].run(workload.script, workspace + QLatin1Char('-') + QString::number(r));
                if (!ran.ok) {
                    std::fprintf(stderr, "bench: %s failed under %s\n", qPrintable(workload.name),
                                 qPrintable(runners[r].name));
                    return 1;
                }
                times[r].push_back(double(timer.nsecsElapsed()) / 1e6);
                calls[r].push_back(ran.calls);
                answering[r].push_back(ran.answeringUs);
            }
        }
        const double base = median(times[0]);
        std::printf("| %-40s |", qPrintable(workload.name));
        for (size_t r = 0; r < runners.size(); ++r) {
            const double value = median(times[r]);
            std::printf(" %8.0f (%5.2fx)     |", value, base > 0 ? value / base : 0);
            if (!runners[r].counts)
                continue;
            const qint64 trips = median(calls[r]);
            const double answeringMs = double(median(answering[r])) / 1000.0;
            roundTrips.push_back(QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |")
                                     .arg(workload.name, -40)
                                     .arg(runners[r].name, -12)
                                     .arg(trips, 12)
                                     .arg(value - base, 14, 'f', 0)
                                     .arg(answeringMs, 16, 'f', 0)
                                     .arg(trips > 0 ? (value - base) * 1000.0 / double(trips) : 0.0, 12, 'f', 1));
            if (workload.calls > 0)
                perCall.push_back(QStringLiteral("%1: %2 us per round trip over native (%3 round trips counted)")
                                      .arg(runners[r].name)
                                      .arg(trips > 0 ? (value - base) * 1000.0 / double(trips) : 0.0, 0, 'f', 1)
                                      .arg(trips));
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    std::printf("\nWhere the time over native goes in the auto tiers: every call that creates, writes, renames,\n"
                "links or removes (and in tier 2 every chmod and utimes) is a round trip to sandbox-init\n"
                "(seccomp user notification), counted by sandbox-init itself. \"answering\" is the time\n"
                "sandbox-init spent judging and making those calls, the calls' own work included (which\n"
                "native pays too); the rest of a round trip is the kernel switching to it and back.\n\n");
    std::printf("| %-40s | %-12s | %12s | %14s | %16s | %12s |\n", "workload", "runner", "round trips",
                "over native ms", "answering ms", "us per trip");
    std::printf("|%s|%s|%s|%s|%s|%s|\n", std::string(42, '-').c_str(), std::string(14, '-').c_str(),
                std::string(14, '-').c_str(), std::string(16, '-').c_str(), std::string(18, '-').c_str(),
                std::string(14, '-').c_str());
    for (const QString &line : roundTrips)
        std::printf("%s\n", qPrintable(line));
    std::printf("\nThe cost of one round trip alone, from the 2,000 creations:\n");
    for (const QString &line : perCall)
        std::printf("  %s\n", qPrintable(line));
    return 0;
}
