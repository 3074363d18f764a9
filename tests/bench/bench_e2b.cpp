// Per-command latency through the Power Pack's E2B backend (the real plugin, loaded as the
// engine loads it) against the local E2B (tests/e2b/local-e2b-server.mjs), side by side
// with the official JavaScript SDK's commands.run against the same server. Both run the
// same command line the SDK sends (/bin/bash -l -c /bin/true). The SDK comes from the
// folder e2b_sdk_check installs it in. Prints median and p95 wall time; measures only,
// never fails on a figure.
#include "LatencyTable.h"
#include "LauncherCommand.h"
#include "core/AtomPack.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
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
#include <vector>

using namespace sandbox;
using sandbox::bench::spawnAndWait;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS")
        : 50;
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
    launcher->disposeIdle().waitForFinished();
    if (!ok) {
        std::fprintf(stderr, "bench_e2b: a command through the E2B backend failed\n");
        return 1;
    }
    const bench::Latency backend = bench::latencyOf(times);

    bench::Latency sdkLatency{ -1, -1 };
    if (haveSdk) {
        QProcess sdk;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("E2B_API_URL"), url);
        env.insert(QStringLiteral("E2B_SANDBOX_URL"), url);
        env.insert(QStringLiteral("E2B_API_KEY"), QString::fromLatin1(key));
        sdk.setProcessEnvironment(env);
        sdk.start(node,
                  { QStringLiteral(SANDBOX_SDK_BENCH), modules, QString::number(runs), QStringLiteral("/bin/true") });
        if (sdk.waitForFinished(300000) && sdk.exitCode() == 0) {
            const QJsonObject figures = QJsonDocument::fromJson(sdk.readAllStandardOutput().trimmed()).object();
            sdkLatency = { figures.value(QStringLiteral("median")).toDouble(-1),
                           figures.value(QStringLiteral("p95")).toDouble(-1) };
        } else {
            std::fprintf(stderr, "bench_e2b: the SDK run failed: %s\n", sdk.readAllStandardError().constData());
        }
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
    return 0;
}
