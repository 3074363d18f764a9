// Per-command latency of /bin/true through the Power Pack's Docker backend (the real
// plugin, loaded as the engine loads it), side by side with `podman run --rm` and
// `podman exec` into a running container of the same image, on the runtime test.sh
// starts (SANDBOX_TEST_DOCKER_SOCKET, SANDBOX_TEST_DOCKER_IMAGE); the backend also under
// the allowlist network mode (its container runs the engine's proxy bridge), warm and from
// a new container. Prints median and p95 wall time; measures only, never fails on a figure.
#include "LatencyTable.h"
#include "LauncherCommand.h"
#include "core/backends/BackendHost.h"
#include "core/backends/HostInteractionBroker.h"
#include "core/packs/AtomPack.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPluginLoader>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sandbox;
using sandbox::bench::spawnAndWait;

namespace {

struct Runner
{
    QString name;
    std::function<bool()> once;
    std::vector<double> times;
};

bool runProcess(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    return process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString socket = qEnvironmentVariable("SANDBOX_TEST_DOCKER_SOCKET");
    const QString image = qEnvironmentVariable("SANDBOX_TEST_DOCKER_IMAGE");
    if (socket.isEmpty() || image.isEmpty()) {
        std::fprintf(stderr,
                     "bench_docker: no runtime (SANDBOX_TEST_DOCKER_SOCKET, SANDBOX_TEST_DOCKER_IMAGE); "
                     "test.sh starts one\n");
        return 1;
    }
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS")
        : 10;

    QPluginLoader loader(QStringLiteral(SANDBOX_POWER_PACK_PLUGIN));
    auto *pack = qobject_cast<AtomPack *>(loader.instance());
    if (!pack) {
        std::fprintf(stderr, "bench_docker: %s\n", qPrintable(loader.errorString()));
        return 1;
    }
    std::shared_ptr<Launcher> launcher = pack->createLaunchers().value(0);
    // The engine's own host: its filtering proxy and proxy bridge serve the allowlist rows.
    QTemporaryDir state;
    QObject timerContext;
    HostInteractionBroker broker([](const HostInteractionRequest &) { return false; }, &timerContext, 1000);
    BackendHost host(BackendRef::atomPack(QStringLiteral("power-pack"), launcher->kind()), state.path(), &broker, {});
    launcher->attach(&host);
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("endpoint"), QString(QStringLiteral("unix://") + socket));
    settings.values.values.insert(QStringLiteral("image"), image);
    launcher->configure(settings).waitForFinished();
    QFuture<Status> prepared = launcher->prepare();
    prepared.waitForFinished();
    if (!prepared.result().ok()) {
        std::fprintf(stderr, "bench_docker: %s\n", qPrintable(prepared.result().error().toString()));
        return 1;
    }

    QTemporaryDir workspace;
    SpawnRequest request;
    request.argv = { QStringLiteral("/bin/true") };
    request.cwd = workspace.path();
    const Policy policy = Policy::defaults();
    Policy allowlist = Policy::defaults();
    allowlist.network = Policy::NetworkMode::Allowlist;
    allowlist.allowedDomains = { QStringLiteral("localhost") };

    const QStringList remote{ QStringLiteral("--remote"), QStringLiteral("--url"), QStringLiteral("unix://") + socket };
    const QString keeper = QStringLiteral("sandbox-bench-exec");
    runProcess(QStringLiteral("podman"), remote + QStringList{ QStringLiteral("rm"), QStringLiteral("-f"), keeper });
    if (!runProcess(QStringLiteral("podman"),
                    remote
                        + QStringList{ QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--name"), keeper,
                                       QStringLiteral("--network"), QStringLiteral("none"), image,
                                       QStringLiteral("sleep"), QStringLiteral("2147483647") })) {
        std::fprintf(stderr, "bench_docker: podman run -d failed\n");
        return 1;
    }

    std::vector<Runner> runners;
    runners.push_back({ QStringLiteral("Docker backend (exec in its warm container)"),
                        [&] { return spawnAndWait(*launcher, request, policy); },
                        {} });
    runners.push_back({ QStringLiteral("Docker backend, allowlist (warm container)"),
                        [&] { return spawnAndWait(*launcher, request, allowlist); },
                        {} });
    runners.push_back({ QStringLiteral("podman exec (running container)"),
                        [&] {
                            return runProcess(
                                QStringLiteral("podman"),
                                remote + QStringList{ QStringLiteral("exec"), keeper, QStringLiteral("/bin/true") });
                        },
                        {} });
    runners.push_back({ QStringLiteral("podman run --rm"),
                        [&] {
                            return runProcess(QStringLiteral("podman"),
                                              remote
                                                  + QStringList{ QStringLiteral("run"), QStringLiteral("--rm"),
                                                                 QStringLiteral("--network"), QStringLiteral("none"),
                                                                 image, QStringLiteral("/bin/true") });
                        },
                        {} });

    bool ok = true;
    for (Runner &runner : runners) {
        for (int i = 0; i < 3 && ok; ++i)
            ok = runner.once();
    }
    QElapsedTimer timer;
    for (int i = 0; i < runs && ok; ++i) {
        for (Runner &runner : runners) {
            timer.start();
            if (!runner.once()) {
                std::fprintf(stderr, "bench_docker: %s failed on run %d\n", qPrintable(runner.name), i);
                ok = false;
                break;
            }
            runner.times.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
    }
    runProcess(QStringLiteral("podman"), remote + QStringList{ QStringLiteral("rm"), QStringLiteral("-f"), keeper });

    // The first command of a workspace creates its container; under the allowlist mode it
    // also opens a proxy channel and waits for the bridge to listen.
    std::vector<Runner> cold;
    cold.push_back({ QStringLiteral("Docker backend, new container, network none"),
                     [&] { return spawnAndWait(*launcher, request, policy); },
                     {} });
    cold.push_back({ QStringLiteral("Docker backend, new container, allowlist"),
                     [&] { return spawnAndWait(*launcher, request, allowlist); },
                     {} });
    // Each creates a container (seconds): a median of three by default.
    const int coldRuns = std::max(3, runs / 10);
    for (int i = 0; i < coldRuns && ok; ++i) {
        for (Runner &runner : cold) {
            launcher->disposeIdle().waitForFinished();
            timer.start();
            if (!runner.once()) {
                std::fprintf(stderr, "bench_docker: %s failed on run %d\n", qPrintable(runner.name), i);
                ok = false;
                break;
            }
            runner.times.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
    }
    launcher->disposeIdle().waitForFinished();
    if (!ok)
        return 1;

    std::printf("\nPer-command latency of /bin/true, same image, %d runs each (after 3 warm-up runs), wall time "
                "in ms\n\n",
                runs);
    bench::printLatencyHeader("runner");
    for (Runner &runner : runners) {
        bench::printLatencyRow(qPrintable(runner.name), bench::latencyOf(runner.times));
    }
    std::printf("\n(the podman rows include starting the podman client; the Docker backend rows are in-process)\n");
    std::printf("\nFirst command of a workspace (container created, then the command), %d runs each, wall time in "
                "ms\n\n",
                coldRuns);
    bench::printLatencyHeader("runner");
    for (Runner &runner : cold)
        bench::printLatencyRow(qPrintable(runner.name), bench::latencyOf(runner.times));
    return 0;
}
