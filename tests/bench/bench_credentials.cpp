// What credential injection costs per HTTPS request: the same loopback server
// (tests/integration/tls-recorder.py) reached directly, through the filtering proxy's plain
// tunnel, and through the proxy terminating TLS and putting the value in. Each request is a
// curl run of its own (a new TLS handshake, or two when injecting), and then 50 requests on
// one kept-alive connection (one curl run, the time divided by 50). Prints; never fails on
// a figure.
#include "LatencyTable.h"
#include "net/CredentialInjector.h"
#include "net/DomainRules.h"
#include "net/FilteringProxy.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>

using namespace sandbox;

namespace {

class FixedValue final : public CredentialSource
{
public:
    std::optional<QByteArray> value(const QString &) override { return QByteArray("bench-value"); }
};

bool runShell(const QString &script, const QString &directory)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.start(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), script });
    return process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

// Wall time in ms of one curl run with `arguments`, or a negative number when it failed.
double timeCurl(const QStringList &arguments)
{
    QProcess curl;
    curl.setStandardOutputFile(QProcess::nullDevice());
    QElapsedTimer timer;
    timer.start();
    curl.start(QStringLiteral("curl"), QStringList{ QStringLiteral("-sSf") } + arguments);
    if (!curl.waitForFinished(60000) || curl.exitStatus() != QProcess::NormalExit || curl.exitCode() != 0) {
        std::fprintf(stderr, "curl failed: %s\n", curl.readAllStandardError().constData());
        return -1;
    }
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS") > 0
        ? qMin(qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS"), 200)
        : 20;
    QTemporaryDir root(QStringLiteral("/var/tmp/bench-credentials-XXXXXX"));
    if (!root.isValid())
        return 1;
    const QString certs = root.path();
    if (!runShell(
            QStringLiteral("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca-key.pem "
                           "-out ca.pem -days 2 -subj '/CN=Bench CA' -addext basicConstraints=critical,CA:TRUE "
                           "-addext keyUsage=critical,keyCertSign && "
                           "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server-key.pem "
                           "-out server.csr -subj '/CN=localhost' && "
                           "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > ext.cnf && "
                           "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial "
                           "-out server.pem -days 2 -extfile ext.cnf"),
            certs)) {
        std::fprintf(stderr, "cannot make the server's certificates\n");
        return 1;
    }
    QProcess server;
    server.start(QStringLiteral("/usr/bin/python3"),
                 { QStringLiteral(SANDBOX_SOURCE_DIR "/tests/integration/tls-recorder.py"), QStringLiteral("--cert"),
                   certs + QStringLiteral("/server.pem"), QStringLiteral("--key"),
                   certs + QStringLiteral("/server-key.pem"), QStringLiteral("--log"), QProcess::nullDevice() });
    if (!server.waitForReadyRead(30000)) {
        std::fprintf(stderr, "the server did not start\n");
        return 1;
    }
    const int port = QJsonDocument::fromJson(server.readLine()).object().value(QStringLiteral("https")).toInt();

    CredentialInjector injector(root.filePath(QStringLiteral("ca")), root.filePath(QStringLiteral("bundles")),
                                std::make_shared<FixedValue>());
    PolicyCredential credential;
    credential.name = QStringLiteral("bench");
    credential.hosts = { QStringLiteral("localhost:%1").arg(port) };
    const QStringList extra{ certs + QStringLiteral("/ca.pem") };
    const auto channelCredentials = injector.channelFor({ credential }, extra, {});
    const auto view = injector.sandboxFor({ credential }, extra);
    const auto rules = DomainRules::parse(
        { QStringLiteral("localhost:%1").arg(port), QStringLiteral("127.0.0.1:%1").arg(port) }, {});
    FilteringProxy proxy(root.filePath(QStringLiteral("run")));
    const auto channel = channelCredentials && view && rules
        ? proxy.openChannel(rules.value(), {}, channelCredentials.value())
        : Result<QString>(Error{ QStringLiteral("bench"), QStringLiteral("setup"), {} });
    if (!channel) {
        std::fprintf(stderr, "cannot open the proxy channel: %s\n", qPrintable(channel.error().toString()));
        return 1;
    }
    const QString viaProxy = QStringLiteral("socks5h://localhost") + channel.value();
    const QString placeholder = QString::fromLatin1(injector.placeholder(credential.name));
    const QString header = QStringLiteral("Authorization: Bearer ") + placeholder;
    const QString direct = QStringLiteral("https://localhost:%1/bench").arg(port);
    const QString tunnelled = QStringLiteral("https://127.0.0.1:%1/bench").arg(port);

    // One bundle for every row: curl reads it at each start, which costs as much as a handshake.
    struct Mode
    {
        const char *name;
        QStringList arguments;
        QString url;
    };
    const QList<Mode> modes{
        { "no proxy", { QStringLiteral("--cacert"), view.value().bundlePath, QStringLiteral("-H"), header }, direct },
        { "plain CONNECT tunnel",
          { QStringLiteral("--proxy"), viaProxy, QStringLiteral("--cacert"), view.value().bundlePath,
            QStringLiteral("-H"), header },
          tunnelled },
        { "injecting proxy",
          { QStringLiteral("--proxy"), viaProxy, QStringLiteral("--cacert"), view.value().bundlePath,
            QStringLiteral("-H"), header },
          direct },
    };
    constexpr int kKeptAlive = 50;
    std::printf("HTTPS requests to a loopback server, %d runs each (ms)\n\n", runs);
    std::printf("| path | new connection, median | new connection, p95 | kept alive, per request |\n");
    std::printf("| --- | --- | --- | --- |\n");
    for (const Mode &mode : modes) {
        std::vector<double> times;
        // A path that fails once is not measured further (each failure can cost a minute).
        for (int i = 0; i < runs; ++i) {
            const double ms = timeCurl(mode.arguments + QStringList{ mode.url });
            if (ms < 0) {
                times.clear();
                break;
            }
            times.push_back(ms);
        }
        if (times.empty()) {
            std::printf("| %s | - | - | - |\n", mode.name);
            continue;
        }
        QStringList many = mode.arguments;
        for (int i = 0; i < kKeptAlive; ++i)
            many << mode.url;
        const double batch = timeCurl(many);
        const bench::Latency latency = bench::latencyOf(times);
        std::printf("| %s | %.2f | %.2f | %.3f |\n", mode.name, latency.median, latency.p95,
                    batch >= 0 ? batch / kKeptAlive : -1.0);
    }
    std::printf("\nEvery row reads the same certificate bundle (the system's authorities, the engine's, the "
                "server's), as a sandboxed curl does; a new connection includes starting curl and reading it. The "
                "injecting proxy adds its own handshake with the client and a second one with the server.\n");
    server.closeWriteChannel();
    server.waitForFinished(10000);
    return 0;
}
