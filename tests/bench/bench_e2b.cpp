// Per-command latency through the Power Pack's E2B backend (the real plugin, loaded as the
// engine loads it) against the local E2B (tests/e2b/local-e2b-server.mjs), side by side
// with the official JavaScript SDK's commands.run against the same server. Both run the
// same command line the SDK sends (/bin/bash -l -c /bin/true). The SDK comes from the
// folder e2b_sdk_check installs it in. Prints median and p95 wall time; measures only,
// never fails on a figure. Then a workspace round trip (workspace "sync"): 1,000 files of
// 100 MiB in all, uploaded, `true` run in the copy, and the copy brought back, side by side
// with the SDK writing and reading the same files with envd's file API; and the peak
// resident memory of this process, where the backend runs as it does in the engine.
#include "LatencyTable.h"
#include "LauncherCommand.h"
#include "core/packs/AtomPack.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPluginLoader>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>
#include <vector>

using namespace sandbox;
using sandbox::bench::spawnAndWait;

namespace {

constexpr int workspaceFiles = 1000;
constexpr qint64 workspaceBytes = 100ll * 1024 * 1024;

// A workspace of `workspaceFiles` files, `workspaceBytes` in all, in folders of 50.
bool makeWorkspace(const QString &root)
{
    const qint64 each = workspaceBytes / workspaceFiles;
    QByteArray data(each, 'x');
    for (int i = 0; i < workspaceFiles; ++i) {
        const QString folder = root + QStringLiteral("/d%1").arg(i / 50);
        if (!QDir().mkpath(folder))
            return false;
        QFile file(folder + QStringLiteral("/f%1.bin").arg(i));
        data[0] = char('a' + i % 26);
        if (!file.open(QIODevice::WriteOnly) || file.write(data) != each)
            return false;
    }
    return true;
}

bench::Latency sdkFigures(const QString &node, const QString &url, const QByteArray &key, const QStringList &args)
{
    QProcess sdk;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("E2B_API_URL"), url);
    env.insert(QStringLiteral("E2B_SANDBOX_URL"), url);
    env.insert(QStringLiteral("E2B_API_KEY"), QString::fromLatin1(key));
    sdk.setProcessEnvironment(env);
    sdk.start(node, QStringList{ QStringLiteral(SANDBOX_SDK_BENCH), QStringLiteral(SANDBOX_E2B_SDK_DIR) } + args);
    if (sdk.waitForFinished(600000) && sdk.exitCode() == 0) {
        const QJsonObject figures = QJsonDocument::fromJson(sdk.readAllStandardOutput().trimmed()).object();
        return { figures.value(QStringLiteral("median")).toDouble(-1),
                 figures.value(QStringLiteral("p95")).toDouble(-1) };
    }
    std::fprintf(stderr, "bench_e2b: the SDK run failed: %s\n", sdk.readAllStandardError().constData());
    return { -1, -1 };
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS")
        : 30;
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty()) {
        std::fprintf(stderr, "bench_e2b: node is not installed\n");
        return 1;
    }
    const QString modules = QStringLiteral(SANDBOX_E2B_SDK_DIR);
    const bool haveSdk = QFileInfo::exists(modules + QStringLiteral("/node_modules/e2b/package.json"));

    const QByteArray key = "e2b_bench_" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    QTemporaryDir scratch;
    QProcess server;
    server.start(node,
                 { QStringLiteral(SANDBOX_LOCAL_E2B), QStringLiteral("--exit-with-stdin"), QStringLiteral("--key"),
                   QString::fromLatin1(key), QStringLiteral("--root"), scratch.path() });
    if (!server.waitForStarted() || !server.waitForReadyRead(20000)) {
        std::fprintf(stderr, "bench_e2b: the local E2B did not start\n");
        return 1;
    }
    const QString url = QString::fromLatin1(server.readLine().trimmed().mid(int(qstrlen("listening on "))));

    QPluginLoader loader(QStringLiteral(SANDBOX_POWER_PACK_PLUGIN));
    auto *pack = qobject_cast<AtomPack *>(loader.instance());
    if (!pack) {
        std::fprintf(stderr, "bench_e2b: %s\n", qPrintable(loader.errorString()));
        return 1;
    }
    std::shared_ptr<Launcher> launcher;
    for (const std::shared_ptr<Launcher> &candidate : pack->createLaunchers()) {
        if (candidate->kind() == QLatin1String("e2b"))
            launcher = candidate;
    }
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("apiUrl"), url);
    settings.values.values.insert(QStringLiteral("sandboxUrl"), url);
    settings.values.values.insert(QStringLiteral("timeoutSeconds"), 300);
    settings.secrets.insert(QStringLiteral("apiKey"), QString::fromLatin1(key));
    launcher->configure(settings).waitForFinished();
    QFuture<Status> prepared = launcher->prepare();
    prepared.waitForFinished();
    if (!prepared.result().ok()) {
        std::fprintf(stderr, "bench_e2b: %s\n", qPrintable(prepared.result().error().toString()));
        return 1;
    }
    SpawnRequest request;
    request.argv
        = { QStringLiteral("/bin/bash"), QStringLiteral("-l"), QStringLiteral("-c"), QStringLiteral("/bin/true") };
    const Policy policy = Policy::defaults();
    std::vector<double> times;
    bool ok = true;
    for (int i = 0; i < 3 && ok; ++i)
        ok = spawnAndWait(*launcher, request, policy);
    QElapsedTimer timer;
    for (int i = 0; i < runs && ok; ++i) {
        timer.start();
        ok = spawnAndWait(*launcher, request, policy);
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    if (!ok) {
        launcher->disposeIdle().waitForFinished();
        std::fprintf(stderr, "bench_e2b: a command through the E2B backend failed\n");
        return 1;
    }
    const bench::Latency backend = bench::latencyOf(times);

    // The workspace round trip: three timed runs and no warm-up (each moves 100 MiB both ways,
    // the SDK's in seconds; a slower first run does not move the median of three).
    const int workspaceRuns = qMax(1, qMin(runs, 3));
    const QString workspace = scratch.filePath(QStringLiteral("workspace"));
    if (!makeWorkspace(workspace)) {
        std::fprintf(stderr, "bench_e2b: the workspace could not be written\n");
        return 1;
    }
    SpawnRequest inWorkspace;
    inWorkspace.argv = { QStringLiteral("true") };
    inWorkspace.cwd = workspace;
    inWorkspace.workspace = workspace;
    std::vector<double> roundTrips;
    for (int i = 0; i < workspaceRuns && ok; ++i) {
        timer.start();
        ok = spawnAndWait(*launcher, inWorkspace, policy);
        roundTrips.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    launcher->disposeIdle().waitForFinished();
    if (!ok) {
        std::fprintf(stderr, "bench_e2b: the workspace round trip through the E2B backend failed\n");
        return 1;
    }
    const bench::Latency backendRoundTrip = bench::latencyOf(roundTrips);
    struct rusage usage = {};
    getrusage(RUSAGE_SELF, &usage);
    const double peakMiB = double(usage.ru_maxrss) / 1024.0;

    bench::Latency sdkLatency{ -1, -1 };
    bench::Latency sdkRoundTrip{ -1, -1 };
    if (haveSdk) {
        sdkLatency = sdkFigures(node, url, key, { QString::number(runs), QStringLiteral("/bin/true") });
        sdkRoundTrip
            = sdkFigures(node, url, key, { QString::number(workspaceRuns), QStringLiteral("--workspace"), workspace });
    }
    server.terminate();
    server.waitForFinished(10000);

    std::printf("\nPer-command latency of /bin/bash -l -c /bin/true against the local E2B, %d runs each (after 3 "
                "warm-up runs), wall time in ms\n\n",
                runs);
    bench::printLatencyHeader("client");
    bench::printLatencyRow("E2B backend (Connect client in the plugin)", backend);
    if (sdkLatency.median >= 0)
        bench::printLatencyRow("official JS SDK commands.run", sdkLatency);
    else
        bench::printMissingLatencyRow("official JS SDK (not installed: ctest e2b_sdk_check)");

    std::printf("\nWorkspace round trip of %d files, %lld MiB, %d runs each (no warm-up run), wall time in ms\n\n",
                workspaceFiles, workspaceBytes / (1024 * 1024), workspaceRuns);
    bench::printLatencyHeader("client");
    bench::printLatencyRow("E2B backend (workspace sync, `true`)", backendRoundTrip);
    if (sdkRoundTrip.median >= 0)
        bench::printLatencyRow("official JS SDK files.write, commands.run, files.read", sdkRoundTrip);
    else
        bench::printMissingLatencyRow("official JS SDK (not installed: ctest e2b_sdk_check)");
    std::printf("\nPeak resident memory of the process running the backend: %.0f MiB\n", peakMiB);
    return 0;
}
