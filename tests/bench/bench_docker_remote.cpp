// The Docker backend beyond the local socket, each row beside Podman's own client doing the
// same on the same engine, on the runtime test.sh starts (SANDBOX_TEST_DOCKER_SOCKET,
// SANDBOX_TEST_DOCKER_IMAGE):
//   1. per-command latency of `true` and of `echo` (its output checked) on the local unix
//      socket and on an ssh:// endpoint, Debian's sshd on a loopback port standing for the
//      remote host (OpenSshRig, as tst_docker_remote sets it up), against `podman --url`;
//   2. the OCI runtimes runc, crun and runsc (gVisor): `podman run --runtime X` with the rig's
//      storage, and the backend set to each runtime on a Podman service whose default it is
//      (Podman 4 ignores the runtime a request names); a runtime the backend refuses is a row
//      with its reason;
//   3. the workspace sync of 1,000 files, 100 MiB through the ssh:// endpoint: a command that
//      changes nothing and one that changes 100 files, against `podman --url ssh:// cp` of the
//      folder into a container and back.
// Prints median and p90 wall times; measures only, never fails on a figure. A run that fails
// is listed under its table, and the exit status says so once every table is printed.
#include "LatencyTable.h"
#include "LauncherCommand.h"
#include "OpenSshRig.h"
#include "TlsFrontRig.h"
#include "core/backends/BackendHost.h"
#include "core/backends/HostInteractionBroker.h"
#include "core/packs/AtomPack.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPluginLoader>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

using namespace sandbox;
using sandbox::bench::spawnAndWait;
using sandbox::test::OpenSshRig;
using sandbox::test::TlsFrontRig;

namespace {

constexpr int workspaceFiles = 1000;
constexpr qint64 workspaceBytes = 100ll * 1024 * 1024;
constexpr int changedFiles = 100; // the files of the folders d0 and d1
const QByteArray echoed = "sandbox-bench\n";

struct Runner
{
    QString name;
    std::function<QString()> once; // empty when the run succeeded, else what failed
    std::vector<double> times;
    QString refused; // why this runner has no figures
    QStringList failures = {}; // the timed runs that failed, and why
};

struct Ran
{
    bool ok = false;
    QByteArray out;
    QByteArray err;
};

Ran runProcess(const QString &program, const QStringList &arguments,
               const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    const bool ended = process.waitForFinished(120000);
    Ran ran{ ended && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             process.readAllStandardOutput(), process.readAllStandardError() };
    if (!ended)
        process.kill();
    return ran;
}

// The first line of what a failed program said, for a refused row.
QString firstLine(const QByteArray &said)
{
    const QString text = QString::fromUtf8(said).trimmed();
    return text.isEmpty() ? QStringLiteral("(it said nothing)") : text.section(QLatin1Char('\n'), 0, 0);
}

// Empty when the command ran through the backend and exited with status 0, else what failed.
QString backendRun(Launcher &launcher, const SpawnRequest &request, const Policy &policy,
                   const std::function<void(const QByteArray &)> &onOutput = {})
{
    QString why;
    return spawnAndWait(launcher, request, policy, onOutput, &why) ? QString() : why;
}

QString failure(const Ran &ran)
{
    return ran.ok ? QString() : firstLine(ran.err);
}

// The Docker backend of the Power Pack, configured and prepared as an activation does.
struct Backend
{
    std::shared_ptr<Launcher> launcher;
    std::unique_ptr<BackendHost> host;
    QString error; // why prepare() failed
};

std::unique_ptr<Backend> prepareBackend(AtomPack &pack, HostInteractionBroker &broker, const QString &state,
                                        const QString &runtimeDirectory, const ResolvedSettings &settings)
{
    auto backend = std::make_unique<Backend>();
    for (const std::shared_ptr<Launcher> &candidate : pack.createLaunchers()) {
        if (candidate->kind() == QLatin1String("docker"))
            backend->launcher = candidate;
    }
    backend->host
        = std::make_unique<BackendHost>(BackendRef::atomPack(QStringLiteral("power-pack"), backend->launcher->kind()),
                                        state, &broker, std::function<void(const BackendRef &)>());
    backend->host->setEngineDirectories({}, runtimeDirectory);
    backend->launcher->attach(backend->host.get());
    backend->launcher->configure(settings).waitForFinished();
    QFuture<Status> prepared = backend->launcher->prepare();
    prepared.waitForFinished();
    if (!prepared.result().ok())
        backend->error = prepared.result().error().message;
    return backend;
}

// One way to reach an engine: the backend's settings for it, and the global arguments and
// environment `podman --remote` needs to reach the same engine (none: podman cannot, and its
// rows are left out). A tcp:// endpoint with TLS client certificates becomes one more of these,
// its settings carrying tlsCaCert, tlsCert and the tlsKey secret.
struct Endpoint
{
    QString name;
    ResolvedSettings settings;
    QStringList podman;
    QProcessEnvironment podmanEnvironment;
    std::unique_ptr<Backend> backend;
};

// The per-command rows of one endpoint: the backend and podman, `true` and `echo`.
void addCommandRunners(Endpoint &endpoint, const QString &image, const QString &workspace, const Policy &policy,
                       std::vector<Runner> &runners)
{
    SpawnRequest truth;
    truth.argv = { QStringLiteral("/bin/true") };
    truth.cwd = workspace;
    SpawnRequest echo = truth;
    echo.argv = { QStringLiteral("/bin/echo"), QString::fromLatin1(echoed.trimmed()) };
    Launcher *launcher = endpoint.backend->launcher.get();
    const QString refused = endpoint.backend->error;
    runners.push_back({ QStringLiteral("backend, %1: true").arg(endpoint.name),
                        [launcher, truth, &policy] { return backendRun(*launcher, truth, policy); },
                        {},
                        refused });
    runners.push_back({ QStringLiteral("backend, %1: echo").arg(endpoint.name),
                        [launcher, echo, &policy] {
                            QByteArray out;
                            const QString failed
                                = backendRun(*launcher, echo, policy, [&out](const QByteArray &data) { out += data; });
                            return failed.isEmpty() && out != echoed ? QStringLiteral("its output differed") : failed;
                        },
                        {},
                        refused });
    if (endpoint.podman.isEmpty())
        return;
    const QStringList run = endpoint.podman
        + QStringList{ QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--network"),
                       QStringLiteral("none"), image };
    const QProcessEnvironment environment = endpoint.podmanEnvironment;
    runners.push_back({ QStringLiteral("podman --url %1 run --rm: true").arg(endpoint.name),
                        [run, environment] {
                            return failure(runProcess(QStringLiteral("podman"),
                                                      run + QStringList{ QStringLiteral("/bin/true") }, environment));
                        },
                        {},
                        {} });
    runners.push_back({ QStringLiteral("podman --url %1 run --rm: echo").arg(endpoint.name),
                        [run, environment] {
                            const Ran ran = runProcess(
                                QStringLiteral("podman"),
                                run + QStringList{ QStringLiteral("/bin/echo"), QString::fromLatin1(echoed.trimmed()) },
                                environment);
                            return ran.ok && ran.out != echoed ? QStringLiteral("its output differed") : failure(ran);
                        },
                        {},
                        {} });
}

// Round-robin, so every runner sees the same background load; a runner that fails its
// first try (the warm-up) is refused with what it said; a timed run that fails is left out
// of the figures and listed under the table. False when a timed run failed.
bool measure(std::vector<Runner> &runners, int runs)
{
    for (Runner &runner : runners) {
        if (runner.refused.isEmpty())
            runner.refused = runner.once();
    }
    QElapsedTimer timer;
    bool ok = true;
    for (int i = 0; i < runs; ++i) {
        for (Runner &runner : runners) {
            if (!runner.refused.isEmpty())
                continue;
            timer.start();
            if (const QString failed = runner.once(); !failed.isEmpty()) {
                runner.failures.append(QStringLiteral("run %1: %2").arg(i + 1).arg(failed));
                ok = false;
                continue;
            }
            runner.times.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
    }
    return ok;
}

void printRunners(std::vector<Runner> &runners)
{
    bench::printLatencyHeader("runner", bench::Tail::P90);
    for (Runner &runner : runners) {
        if (!runner.refused.isEmpty())
            bench::printRefusedLatencyRow(qPrintable(runner.name), qPrintable(runner.refused));
        else if (runner.times.empty())
            bench::printMissingLatencyRow(qPrintable(runner.name));
        else
            bench::printLatencyRow(qPrintable(runner.name), bench::latencyOf(runner.times), bench::Tail::P90);
    }
    for (const Runner &runner : runners) {
        for (const QString &failure : runner.failures)
            std::printf("\nFAILED: %s, %s (left out of its figures)", qPrintable(runner.name), qPrintable(failure));
    }
}

// A workspace of `workspaceFiles` files, `workspaceBytes` in all, in folders of 50 (as
// bench_e2b's); `onlyChanged` rewrites the files the changing command changes.
bool writeWorkspace(const QString &root, bool onlyChanged = false)
{
    const qint64 each = workspaceBytes / workspaceFiles;
    QByteArray data(each, 'x');
    for (int i = 0; i < (onlyChanged ? changedFiles : workspaceFiles); ++i) {
        const QString folder = root + QStringLiteral("/d%1").arg(i / 50);
        if (!QDir().mkpath(folder))
            return false;
        QFile file(folder + QStringLiteral("/f%1.bin").arg(i));
        data[0] = char('a' + i % 26);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) != each)
            return false;
    }
    return true;
}

// The phases of a workspace round trip, in ms: until the command's first output (the
// container made and the workspace sent), after its last (the changes brought back and the
// container removed), and in all.
struct SyncTimes
{
    std::vector<double> in;
    std::vector<double> back;
    std::vector<double> total;
};

struct SyncRunner
{
    QString name;
    std::function<bool(SyncTimes &)> once;
    SyncTimes times;
    QString refused;
};

// The command both sides run in the workspace: it prints before and after its work.
QString syncScript(bool changes)
{
    return changes ? QStringLiteral("echo in; for f in d0/*.bin d1/*.bin; do echo changed >> \"$f\"; done; echo out")
                   : QStringLiteral("echo in; echo out");
}

// The workspace round trips through one endpoint: the backend's sync, and podman cp of the
// whole folder into a created container and back (podman has no sync of its own, and a
// remote engine cannot bind-mount this computer's folder).
void addSyncRunners(Endpoint &endpoint, const QString &image, const QString &workspace, const QString &scratch,
                    const Policy &policy, std::vector<SyncRunner> &runners)
{
    Launcher *launcher = endpoint.backend->launcher.get();
    for (const bool changes : { false, true }) {
        SpawnRequest request;
        request.argv = { QStringLiteral("/bin/sh"), QStringLiteral("-c"), syncScript(changes) };
        request.cwd = workspace;
        runners.push_back({ QStringLiteral("backend, %1: %2")
                                .arg(endpoint.name,
                                     changes ? QStringLiteral("100 files changed") : QStringLiteral("nothing changed")),
                            [launcher, request, &policy, workspace, changes](SyncTimes &times) {
                                QElapsedTimer timer;
                                timer.start();
                                double first = -1;
                                double last = -1;
                                const QString failed = backendRun(*launcher, request, policy, [&](const QByteArray &) {
                                    last = double(timer.nsecsElapsed()) / 1e6;
                                    if (first < 0)
                                        first = last;
                                });
                                const double total = double(timer.nsecsElapsed()) / 1e6;
                                if (!failed.isEmpty() || first < 0) {
                                    std::fprintf(stderr, "bench_docker_remote: a workspace round trip failed: %s\n",
                                                 qPrintable(failed));
                                    return false;
                                }
                                times.in.push_back(first);
                                times.back.push_back(total - last);
                                times.total.push_back(total);
                                return !changes || writeWorkspace(workspace, true);
                            },
                            {},
                            endpoint.backend->error });
        if (endpoint.podman.isEmpty())
            continue;
        const QStringList podman = endpoint.podman;
        const QProcessEnvironment environment = endpoint.podmanEnvironment;
        runners.push_back(
            { QStringLiteral("podman --url %1 cp: %2")
                  .arg(endpoint.name,
                       changes ? QStringLiteral("100 files changed") : QStringLiteral("nothing changed")),
              [podman, environment, image, workspace, scratch, changes](SyncTimes &times) {
                  const QString name = QStringLiteral("sandbox-bench-sync");
                  const QString back = scratch + QStringLiteral("/back");
                  QDir(back).removeRecursively();
                  runProcess(QStringLiteral("podman"),
                             podman + QStringList{ QStringLiteral("rm"), QStringLiteral("-f"), name }, environment);
                  QElapsedTimer timer;
                  timer.start();
                  bool ok = runProcess(QStringLiteral("podman"),
                                       podman
                                           + QStringList{ QStringLiteral("create"), QStringLiteral("--name"), name,
                                                          QStringLiteral("--network"), QStringLiteral("none"),
                                                          QStringLiteral("-w"), QStringLiteral("/ws"), image,
                                                          QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                                          syncScript(changes) },
                                       environment)
                                .ok
                      && runProcess(QStringLiteral("podman"),
                                    podman
                                        + QStringList{ QStringLiteral("cp"), workspace + QStringLiteral("/."),
                                                       name + QStringLiteral(":/ws") },
                                    environment)
                             .ok;
                  const double in = double(timer.nsecsElapsed()) / 1e6;
                  const Ran ran = runProcess(
                      QStringLiteral("podman"),
                      podman + QStringList{ QStringLiteral("start"), QStringLiteral("-a"), name }, environment);
                  const double ranAt = double(timer.nsecsElapsed()) / 1e6;
                  ok = ok && ran.ok && ran.out == "in\nout\n"
                      && runProcess(QStringLiteral("podman"),
                                    podman + QStringList{ QStringLiteral("cp"), name + QStringLiteral(":/ws"), back },
                                    environment)
                             .ok
                      && runProcess(QStringLiteral("podman"),
                                    podman + QStringList{ QStringLiteral("rm"), QStringLiteral("-f"), name },
                                    environment)
                             .ok;
                  const double total = double(timer.nsecsElapsed()) / 1e6;
                  // What came back is the whole folder, changed where the command changed it.
                  ok = ok
                      && QFileInfo(back + QStringLiteral("/d0/f0.bin")).size()
                          == workspaceBytes / workspaceFiles + (changes ? qint64(qstrlen("changed\n")) : 0);
                  if (!ok)
                      return false;
                  times.in.push_back(in);
                  times.back.push_back(total - ranAt);
                  times.total.push_back(total);
                  QDir(back).removeRecursively();
                  return true;
              },
              {},
              {} });
    }
}

double meanOf(const std::vector<double> &times)
{
    double sum = 0;
    for (const double time : times)
        sum += time;
    return sum / double(times.size());
}

// A Podman service on the rig's storage whose default OCI runtime is `runtime`, at
// `folder`/`runtime`.sock; the rig's own containers.conf with that one line changed.
std::unique_ptr<QProcess> startService(const QString &rig, const QString &folder, const QString &runtime,
                                       QString *socket)
{
    QByteArray conf = OpenSshRig::readAll(rig + QStringLiteral("/containers.conf"));
    conf.replace("runtime = \"runc\"", QByteArray("runtime = \"" + runtime.toUtf8() + '"'));
    const QString confPath = folder + QStringLiteral("/%1.conf").arg(runtime);
    *socket = folder + QStringLiteral("/%1.sock").arg(runtime);
    if (!OpenSshRig::writeFile(confPath, conf))
        return {};
    auto service = std::make_unique<QProcess>();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("CONTAINERS_CONF"), confPath);
    service->setProcessEnvironment(environment);
    service->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    service->setStandardOutputFile(QProcess::nullDevice());
    service->start(QStringLiteral("podman"),
                   { QStringLiteral("--root"), rig + QStringLiteral("/storage"), QStringLiteral("--runroot"),
                     rig + QStringLiteral("/run"), QStringLiteral("--storage-driver"), QStringLiteral("vfs"),
                     QStringLiteral("--cgroup-manager"), QStringLiteral("cgroupfs"), QStringLiteral("system"),
                     QStringLiteral("service"), QStringLiteral("--time=0"), QStringLiteral("unix://") + *socket });
    if (!service->waitForStarted())
        return {};
    for (int i = 0; i < 100 && !QFileInfo(*socket).exists(); ++i)
        QThread::msleep(50);
    return service;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString socket = qEnvironmentVariable("SANDBOX_TEST_DOCKER_SOCKET");
    const QString image = qEnvironmentVariable("SANDBOX_TEST_DOCKER_IMAGE");
    if (socket.isEmpty() || image.isEmpty()) {
        std::fprintf(stderr,
                     "bench_docker_remote: no runtime (SANDBOX_TEST_DOCKER_SOCKET, SANDBOX_TEST_DOCKER_IMAGE); "
                     "test.sh starts one\n");
        return 1;
    }
    // Each remote command makes a container (most of a second) and each round trip moves
    // 100 MiB both ways (seconds): few runs keep the whole benchmark near a minute and a half
    // on two cores.
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_RUNS")
        : 5;
    const int syncRuns = qMax(1, qMin(runs, 2));
    // The rig's folder (tests/integration/podman-runtime.sh): its storage and containers.conf
    // serve the podman rows of the runtimes.
    const QString rig = QFileInfo(socket).absolutePath();
    QElapsedTimer whole;
    whole.start();

    QPluginLoader loader(QStringLiteral(SANDBOX_POWER_PACK_PLUGIN));
    auto *pack = qobject_cast<AtomPack *>(loader.instance());
    if (!pack) {
        std::fprintf(stderr, "bench_docker_remote: %s\n", qPrintable(loader.errorString()));
        return 1;
    }
    // Only the key given: neither the backend's ssh nor podman may find an agent.
    qunsetenv("SSH_AUTH_SOCK");
    OpenSshRig ssh;
    QString problem = ssh.start();
    if (problem.isEmpty())
        problem = ssh.startServer();
    const QString identity = ssh.path(QStringLiteral("login"));
    if (problem.isEmpty())
        problem = ssh.generateKey(identity, QStringLiteral("login@bench"));
    if (!problem.isEmpty()
        || !OpenSshRig::writeFile(ssh.path(QStringLiteral("authorized_keys")),
                                  OpenSshRig::readAll(ssh.path(QStringLiteral("authorized_keys")))
                                      + OpenSshRig::readAll(identity + QStringLiteral(".pub")))) {
        std::fprintf(stderr, "bench_docker_remote: the SSH server did not start: %s\n", qPrintable(problem));
        return 1;
    }

    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/bench-remote.XXXXXX"));
    const QString workspace = scratch.filePath(QStringLiteral("ws"));
    const QString synced = scratch.filePath(QStringLiteral("synced"));
    const QString runtimeDirectory = scratch.filePath(QStringLiteral("run"));
    // Podman's client checks host keys against ~/.ssh/known_hosts: a home of its own holds the rig's.
    const QString home = scratch.filePath(QStringLiteral("home"));
    if (!QDir().mkpath(workspace) || !QDir().mkpath(runtimeDirectory) || !QDir().mkpath(home + QStringLiteral("/.ssh"))
        || !writeWorkspace(synced)
        || !OpenSshRig::writeFile(home + QStringLiteral("/.ssh/known_hosts"),
                                  OpenSshRig::readAll(ssh.path(QStringLiteral("known_hosts"))))) {
        std::fprintf(stderr, "bench_docker_remote: the scratch folders could not be written\n");
        return 1;
    }
    QFile::setPermissions(runtimeDirectory, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QObject timerContext;
    HostInteractionBroker broker([](const HostInteractionRequest &) { return false; }, &timerContext, 1000);
    const Policy policy = Policy::defaults();

    auto settingsFor = [&image](const QString &endpoint, const QString &runtime = {}) -> ResolvedSettings {
        ResolvedSettings settings;
        settings.values.values.insert(QStringLiteral("endpoint"), endpoint);
        settings.values.values.insert(QStringLiteral("image"), image);
        if (!runtime.isEmpty())
            settings.values.values.insert(QStringLiteral("runtime"), runtime);
        return settings;
    };
    std::vector<Endpoint> endpoints;
    {
        Endpoint local{ QStringLiteral("unix://"),
                        settingsFor(QStringLiteral("unix://") + socket),
                        { QStringLiteral("--remote"), QStringLiteral("--url"), QStringLiteral("unix://") + socket },
                        QProcessEnvironment::systemEnvironment(),
                        {} };
        endpoints.push_back(std::move(local));
        const QString url
            = QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(ssh.userName()).arg(ssh.serverPort()).arg(socket);
        ResolvedSettings remote = settingsFor(url);
        remote.values.values.insert(QStringLiteral("sshIdentityFile"), identity);
        remote.values.values.insert(QStringLiteral("sshKnownHostsFile"), ssh.path(QStringLiteral("known_hosts")));
        QProcessEnvironment podmanEnvironment = QProcessEnvironment::systemEnvironment();
        podmanEnvironment.insert(QStringLiteral("HOME"), home);
        Endpoint overSsh{ QStringLiteral("ssh://"),
                          remote,
                          { QStringLiteral("--remote"), QStringLiteral("--url"), url, QStringLiteral("--identity"),
                            identity },
                          podmanEnvironment,
                          {} };
        endpoints.push_back(std::move(overSsh));
    }
    // tcp:// with TLS client certificates, through Debian's stunnel before the same socket
    // (the tests' TlsFrontRig). Podman's client speaks no TLS to an engine: no podman row.
    TlsFrontRig front;
    if (const QString tlsProblem = front.start(socket); tlsProblem.isEmpty()) {
        ResolvedSettings overTls = settingsFor(QStringLiteral("tcp://127.0.0.1:%1").arg(front.port()));
        overTls.values.values.insert(QStringLiteral("tlsCaCert"), front.path(QStringLiteral("ca.pem")));
        overTls.values.values.insert(QStringLiteral("tlsCert"), front.path(QStringLiteral("client.pem")));
        QFile key(front.path(QStringLiteral("client-key.pem")));
        if (key.open(QIODevice::ReadOnly))
            overTls.secrets.insert(QStringLiteral("tlsKey"), QString::fromUtf8(key.readAll()));
        endpoints.push_back(Endpoint{ QStringLiteral("tcp:// (TLS)"), overTls, {}, {}, {} });
    } else {
        std::fprintf(stderr, "bench_docker_remote: no TLS front, so no tcp:// rows: %s\n", qPrintable(tlsProblem));
    }
    for (size_t i = 0; i < endpoints.size(); ++i)
        endpoints[i].backend = prepareBackend(*pack, broker, scratch.filePath(QStringLiteral("state-%1").arg(i)),
                                              runtimeDirectory, endpoints[i].settings);

    // 1. Per command, each endpoint.
    std::vector<Runner> commands;
    for (Endpoint &endpoint : endpoints)
        addCommandRunners(endpoint, image, workspace, policy, commands);
    bool complete = measure(commands, runs);

    // 2. The OCI runtimes: podman on the rig's storage, and the backend on a service whose
    // default each runtime is (the rig's own for runc).
    const QStringList podmanLocal{ QStringLiteral("--root"),           rig + QStringLiteral("/storage"),
                                   QStringLiteral("--runroot"),        rig + QStringLiteral("/run"),
                                   QStringLiteral("--storage-driver"), QStringLiteral("vfs"),
                                   QStringLiteral("--cgroup-manager"), QStringLiteral("cgroupfs") };
    QProcessEnvironment rigEnvironment = QProcessEnvironment::systemEnvironment();
    rigEnvironment.insert(QStringLiteral("CONTAINERS_CONF"), rig + QStringLiteral("/containers.conf"));
    const QStringList runtimes{ QStringLiteral("runc"), QStringLiteral("crun"), QStringLiteral("runsc") };
    std::vector<Runner> underRuntimes;
    std::vector<std::unique_ptr<QProcess>> services;
    std::vector<std::unique_ptr<Backend>> runtimeBackends;
    const bool haveRig = QFileInfo::exists(rig + QStringLiteral("/containers.conf"));
    for (const QString &runtime : runtimes) {
        const QStringList run = podmanLocal + QStringList{ QStringLiteral("--runtime"),
                                                           runtime,
                                                           QStringLiteral("run"),
                                                           QStringLiteral("--rm"),
                                                           QStringLiteral("--network"),
                                                           QStringLiteral("none"),
                                                           image,
                                                           QStringLiteral("/bin/true") };
        underRuntimes.push_back(
            { QStringLiteral("podman run --runtime %1").arg(runtime),
              [run, rigEnvironment] { return failure(runProcess(QStringLiteral("podman"), run, rigEnvironment)); },
              {},
              haveRig ? QString() : QStringLiteral("the rig's folder is not beside its socket") });
    }
    for (const QString &runtime : runtimes) {
        QString serviceSocket = socket;
        if (runtime != QLatin1String("runc") && haveRig) {
            std::unique_ptr<QProcess> service = startService(rig, scratch.path(), runtime, &serviceSocket);
            if (service)
                services.push_back(std::move(service));
        }
        runtimeBackends.push_back(prepareBackend(*pack, broker, scratch.filePath(QStringLiteral("state-") + runtime),
                                                 runtimeDirectory,
                                                 settingsFor(QStringLiteral("unix://") + serviceSocket, runtime)));
        Launcher *launcher = runtimeBackends.back()->launcher.get();
        SpawnRequest truth;
        truth.argv = { QStringLiteral("/bin/true") };
        truth.cwd = workspace;
        underRuntimes.push_back({ QStringLiteral("backend, runtime=%1 (warm container)").arg(runtime),
                                  [launcher, truth, &policy] { return backendRun(*launcher, truth, policy); },
                                  {},
                                  runtimeBackends.back()->error });
    }
    complete = measure(underRuntimes, runs) && complete;
    for (const std::unique_ptr<Backend> &backend : runtimeBackends)
        backend->launcher->disposeIdle().waitForFinished();
    for (const std::unique_ptr<QProcess> &service : services) {
        service->terminate();
        service->waitForFinished(10000);
    }

    // 3. The workspace round trip through the remote endpoints.
    std::vector<SyncRunner> syncs;
    for (Endpoint &endpoint : endpoints) {
        if (endpoint.name != QLatin1String("unix://"))
            addSyncRunners(endpoint, image, synced, scratch.path(), policy, syncs);
    }
    for (int i = 0; i < syncRuns; ++i) {
        for (SyncRunner &runner : syncs) {
            if (runner.refused.isEmpty() && !runner.once(runner.times)) {
                runner.refused = QStringLiteral("run %1 failed").arg(i + 1);
                complete = false;
            }
        }
    }
    for (Endpoint &endpoint : endpoints)
        endpoint.backend->launcher->disposeIdle().waitForFinished();

    std::printf("\nPer-command latency through each endpoint, same image, %d runs each (after 1 warm-up run), wall "
                "time in ms\n\n",
                runs);
    printRunners(commands);
    std::printf("\n(the backend execs in a warm container on the local socket, and makes a container per command, "
                "the workspace synced, on an engine over SSH, through one ssh connection kept open; each podman row "
                "starts the client, which over SSH makes a new connection, and a container)\n");
    std::printf("\nOCI runtimes, /bin/true, %d runs each (after 1 warm-up run), wall time in ms\n\n", runs);
    printRunners(underRuntimes);
    std::printf("\n(podman runs a new container with the rig's storage; the backend, on a Podman service whose "
                "default runtime it is, execs in its warm container)\n");
    std::printf("\nWorkspace round trip of %d files, %lld MiB, through the ssh:// endpoint, mean wall time of %d "
                "runs each, in ms\n\n",
                workspaceFiles, workspaceBytes / (1024 * 1024), syncRuns);
    std::printf("| %-46s | %10s | %10s | %10s |\n", "runner", "in", "back", "total");
    std::printf("|%s|%s|%s|%s|\n", std::string(48, '-').c_str(), std::string(12, '-').c_str(),
                std::string(12, '-').c_str(), std::string(12, '-').c_str());
    for (SyncRunner &runner : syncs) {
        if (!runner.refused.isEmpty())
            std::printf("| %-46s | refused: %s | %10s | %10s |\n", qPrintable(runner.name), qPrintable(runner.refused),
                        "-", "-");
        else
            std::printf("| %-46s | %10.0f | %10.0f | %10.0f |\n", qPrintable(runner.name), meanOf(runner.times.in),
                        meanOf(runner.times.back), meanOf(runner.times.total));
    }
    std::printf("\n(in: until the command's first output, the container made and the workspace sent; back: after its "
                "last output, the changes brought back and the container removed. podman cannot mount this "
                "computer's folder into a container of a remote engine, so its honest equivalent is podman create, "
                "cp of the whole folder in, start -a, cp of the whole folder back, rm: it has no notion of what "
                "changed)\n");
    std::printf("\nThe whole benchmark took %.1f s\n", double(whole.nsecsElapsed()) / 1e9);
    return complete ? 0 : 1;
}
