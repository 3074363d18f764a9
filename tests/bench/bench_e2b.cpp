// Per-command latency through the Power Pack's E2B backend (the real plugin, loaded as the
// engine loads it) against the local E2B (tests/e2b/local-e2b-server.mjs), side by side
// with the official JavaScript SDK's commands.run against the same server. Both run the
// same command line the SDK sends (/bin/bash -l -c /bin/true). The SDK comes from the
// folder e2b_sdk_check installs it in. Prints median and p95 wall time; measures only,
// never fails on a figure.
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

namespace {

bool spawnAndWait(Launcher &launcher, const SpawnRequest &request, const Policy &policy)
{
    Result<std::shared_ptr<SandboxProcess>> spawned = launcher.spawn(request, policy);
    if (!spawned.ok())
        return false;
    QEventLoop loop;
    bool ok = false;
    QObject::connect(spawned.value().get(), &SandboxProcess::finished, &loop, [&](const ExitStatus &status) {
        ok = !status.signaled && status.exitCode == 0;
        loop.quit();
    });
    QObject::connect(spawned.value().get(), &SandboxProcess::failedToStart, &loop, [&] { loop.quit(); });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    return ok;
}

} // namespace

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
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    const double p95 = times[std::min(times.size() - 1, size_t(double(times.size()) * 0.95))];

    double sdkMedian = -1;
    double sdkP95 = -1;
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
            sdkMedian = figures.value(QStringLiteral("median")).toDouble(-1);
            sdkP95 = figures.value(QStringLiteral("p95")).toDouble(-1);
        } else {
            std::fprintf(stderr, "bench_e2b: the SDK run failed: %s\n", sdk.readAllStandardError().constData());
        }
    }
    server.terminate();
    server.waitForFinished(10000);

    std::printf("\nPer-command latency of /bin/bash -l -c /bin/true against the local E2B, %d runs each (after 3 "
                "warm-up runs), wall time in ms\n\n",
                runs);
    std::printf("| %-46s | %8s | %8s |\n", "client", "median", "p95");
    std::printf("|%s|%s|%s|\n", std::string(48, '-').c_str(), std::string(10, '-').c_str(),
                std::string(10, '-').c_str());
    std::printf("| %-46s | %8.2f | %8.2f |\n", "E2B backend (Connect client in the plugin)", median, p95);
    if (sdkMedian >= 0)
        std::printf("| %-46s | %8.2f | %8.2f |\n", "official JS SDK commands.run", sdkMedian, sdkP95);
    else
        std::printf("| %-46s | %8s | %8s |\n", "official JS SDK (not installed: ctest e2b_sdk_check)", "-", "-");
    return 0;
}
