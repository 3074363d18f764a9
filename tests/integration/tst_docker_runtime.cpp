// The Docker backend's OCI runtime setting on real runtimes, through the real sandboxd and
// sandboxctl: the test rig's Podman service (runc by default, runsc registered beside it) and
// a second Podman service of this test's own whose default runtime is gVisor's runsc (Podman 4
// ignores the runtime an API request names). What is checked: the runtimes the engine offers
// are listed at activation, an unknown runtime is refused naming it, commands run under runc
// on the host's kernel, runsc runs commands under gVisor's kernel, and the backend refuses
// runsc with the measured reason: sandbox-init's write gate does not start under gVisor, on a
// local engine and on one reached over SSH (Debian's sshd on loopback), where the helper is
// copied into the probe's container rather than mounted.
#include "OpenSshRig.h"
#include "ProgramRun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");
const QString rigScript = QStringLiteral(SANDBOX_SOURCE_DIR "/tests/integration/podman-runtime.sh");

using sandbox::test::binary;
using sandbox::test::OpenSshRig;
using sandbox::test::Outcome;

// A request to the Docker Engine API at `socket`, with curl (a test dependency).
Outcome dockerRequest(const QString &socket, const QString &method, const QString &path, const QJsonObject &body = {})
{
    QStringList args{ QStringLiteral("-sS"), QStringLiteral("--unix-socket"), socket, QStringLiteral("-X"), method };
    if (!body.isEmpty())
        args << QStringLiteral("-H") << QStringLiteral("Content-Type: application/json") << QStringLiteral("-d")
             << QString::fromUtf8(QJsonDocument(body).toJson(QJsonDocument::Compact));
    args << QStringLiteral("http://docker/v1.41") + path;
    return sandbox::test::runProgram(QStringLiteral("curl"), args, QDir::tempPath(), {}, 120000);
}

// The text of a container's log stream (frames of an 8-byte head and their bytes).
QByteArray demultiplexed(const QByteArray &body)
{
    QByteArray text;
    qsizetype at = 0;
    while (at + 8 <= body.size()) {
        const auto *head = reinterpret_cast<const uchar *>(body.constData() + at);
        const quint32 size
            = (quint32(head[4]) << 24) | (quint32(head[5]) << 16) | (quint32(head[6]) << 8) | quint32(head[7]);
        text += body.mid(at + 8, size);
        at += 8 + qsizetype(size);
    }
    return text;
}

} // namespace

class TestDockerRuntime final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();

    void offeredRuntimesAreListedAndRuncUsesTheHostKernel();
    void unknownRuntimeIsRefusedNamingIt();
    void runtimeTheEngineDoesNotHonourIsRefused();
    void gvisorRunsCommandsUnderItsOwnKernel();
    void backendRefusesGvisorWithTheMeasuredReason();
    void remoteEngineIsMeasuredAtActivation();
    void crunRunsCommandsOrIsRefusedWithTheEnginesWords();
    void containerUnderAnotherRuntimeThanActivatedIsRefused();

private:
    Outcome ctl(const QStringList &args, int timeoutMs = 120000);
    // Installs the Power Pack (once per daemon) and sets Docker's settings.
    void install(const QString &socket, const QString &runtime);
    // Starts a Podman service of the test's own in `dir` whose default OCI runtime is
    // `runtime`; its socket, empty when it did not start.
    QString startRig(const QString &dir, const QString &runtime);
    QJsonObject info(const QString &socket);
    QString activeRef();
    // Runs `command` (sh -c) in a new container of the image at `socket` under the engine's
    // default runtime; its exit status and output.
    std::pair<int, QByteArray> runDirectly(const QString &socket, const QString &command, const QString &runtime = {});

    QString m_socket;
    QString m_image;
    std::unique_ptr<QTemporaryDir> m_gvisorRig;
    QString m_gvisorSocket;
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_workspace;
    std::unique_ptr<QProcess> m_daemon;
    QByteArray m_daemonLog;
    bool m_packInstalled = false;
};

void TestDockerRuntime::initTestCase()
{
    m_socket = qEnvironmentVariable("SANDBOX_TEST_DOCKER_SOCKET");
    m_image = qEnvironmentVariable("SANDBOX_TEST_DOCKER_IMAGE");
    if (m_socket.isEmpty() || m_image.isEmpty()) {
        if (qEnvironmentVariableIntValue("SANDBOX_REQUIRE_DOCKER"))
            QFAIL("SANDBOX_TEST_DOCKER_SOCKET and SANDBOX_TEST_DOCKER_IMAGE are not set: test.sh starts the runtime");
        QSKIP("No Docker-compatible runtime: run through test.sh, or tests/integration/podman-runtime.sh start DIR");
    }
    QVERIFY2(QFileInfo(QStringLiteral(SANDBOX_POWER_PACK_DIR "/pack.json")).isFile(), SANDBOX_POWER_PACK_DIR);
    // installer/install-deps.sh test installs gVisor; the rig registers it.
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("runsc")).isEmpty(),
             "runsc (gVisor) is not installed: installer/install-deps.sh test");
    m_gvisorRig = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/sandbox-gvisor.XXXXXX"));
    QVERIFY(m_gvisorRig->isValid());
    m_gvisorSocket = startRig(m_gvisorRig->path(), QStringLiteral("runsc"));
    QVERIFY(!m_gvisorSocket.isEmpty());
}

QString TestDockerRuntime::startRig(const QString &dir, const QString &runtime)
{
    const Outcome started = sandbox::test::runProgram(
        QStringLiteral("bash"), { rigScript, QStringLiteral("start"), dir, runtime }, QDir::tempPath(), {}, 300000);
    if (started.exitCode != 0)
        qWarning("%s", started.err.constData());
    for (const QByteArray &line : started.out.split('\n')) {
        if (line.startsWith("SANDBOX_TEST_DOCKER_SOCKET="))
            return QString::fromUtf8(line.mid(line.indexOf('=') + 1));
    }
    return {};
}

void TestDockerRuntime::cleanupTestCase()
{
    if (m_gvisorRig)
        sandbox::test::runProgram(QStringLiteral("bash"), { rigScript, QStringLiteral("stop"), m_gvisorRig->path() },
                                  QDir::tempPath(), {}, 120000);
    m_gvisorRig.reset();
}

void TestDockerRuntime::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    m_workspace = m_root->filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(m_workspace));
    m_daemonLog.clear();
    m_packInstalled = false;
    m_daemon = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    env.remove(QStringLiteral("SANDBOX_PACK_PATH"));
    sandbox::test::startSandboxd(*m_daemon, env, m_root->filePath(QStringLiteral("run/engine.sock")), m_daemonLog);
}

void TestDockerRuntime::cleanup()
{
    if (m_daemon)
        sandbox::test::stopGracefully(*m_daemon);
    m_daemon.reset();
    m_root.reset();
}

Outcome TestDockerRuntime::ctl(const QStringList &args, int timeoutMs)
{
    return sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl")),
        QStringList{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("run/engine.sock")) } + args,
        m_workspace, {}, timeoutMs);
}

void TestDockerRuntime::install(const QString &socket, const QString &runtime)
{
    if (!m_packInstalled) {
        const Outcome installed
            = ctl({ QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) });
        QVERIFY2(installed.exitCode == 0, installed.err.constData());
        m_packInstalled = true;
    }
    const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                              QStringLiteral("endpoint=unix://") + socket, QStringLiteral("image=") + m_image,
                              QStringLiteral("runtime=") + runtime });
    QVERIFY2(set.exitCode == 0, set.err.constData());
}

QJsonObject TestDockerRuntime::info(const QString &socket)
{
    const Outcome got = dockerRequest(socket, QStringLiteral("GET"), QStringLiteral("/info"));
    return QJsonDocument::fromJson(got.out).object();
}

QString TestDockerRuntime::activeRef()
{
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    return QJsonDocument::fromJson(status.out).object().value(QStringLiteral("active")).toString();
}

std::pair<int, QByteArray> TestDockerRuntime::runDirectly(const QString &socket, const QString &command,
                                                          const QString &runtime)
{
    QJsonObject host{ { QStringLiteral("NetworkMode"), QStringLiteral("none") } };
    if (!runtime.isEmpty())
        host.insert(QStringLiteral("Runtime"), runtime);
    const Outcome created = dockerRequest(
        socket, QStringLiteral("POST"), QStringLiteral("/containers/create"),
        QJsonObject{ { QStringLiteral("Image"), m_image },
                     { QStringLiteral("Cmd"), QJsonArray{ QStringLiteral("sh"), QStringLiteral("-c"), command } },
                     { QStringLiteral("HostConfig"), host } });
    const QString id = QJsonDocument::fromJson(created.out).object().value(QStringLiteral("Id")).toString();
    if (id.isEmpty())
        return { -1, created.out + created.err };
    dockerRequest(socket, QStringLiteral("POST"), QStringLiteral("/containers/") + id + QStringLiteral("/start"));
    const Outcome waited
        = dockerRequest(socket, QStringLiteral("POST"), QStringLiteral("/containers/") + id + QStringLiteral("/wait"));
    const Outcome logs = dockerRequest(socket, QStringLiteral("GET"),
                                       QStringLiteral("/containers/") + id + QStringLiteral("/logs?stdout=1&stderr=1"));
    dockerRequest(socket, QStringLiteral("DELETE"),
                  QStringLiteral("/containers/") + id + QStringLiteral("?force=true"));
    return { QJsonDocument::fromJson(waited.out).object().value(QStringLiteral("StatusCode")).toInt(-1),
             demultiplexed(logs.out) };
}

void TestDockerRuntime::offeredRuntimesAreListedAndRuncUsesTheHostKernel()
{
    const QJsonObject engine = info(m_socket);
    QStringList offered = engine.value(QStringLiteral("Runtimes")).toObject().keys();
    offered.sort();
    QVERIFY2(offered.contains(QStringLiteral("runc")) && offered.contains(QStringLiteral("runsc")),
             qPrintable(offered.join(QLatin1Char(' '))));
    install(m_socket, QStringLiteral("runc"));
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
    const QString expected = QStringLiteral("OCI runtimes offered by the runtime at %1: %2 (default: %3).")
                                 .arg(m_socket, offered.join(QStringLiteral(", ")),
                                      engine.value(QStringLiteral("DefaultRuntime")).toString());
    QVERIFY2(QString::fromUtf8(activated.out + activated.err).contains(expected),
             QByteArray(activated.out + activated.err + "\nexpected: " + expected.toUtf8()).constData());

    // The claims name the kernel that enforces the policy: the host's, under runc.
    const Outcome backends = ctl({ QStringLiteral("backends"), QStringLiteral("--json") });
    QString confinement;
    for (const QJsonValue &value : QJsonDocument::fromJson(backends.out).array()) {
        const QJsonObject backend = value.toObject();
        if (backend.value(QStringLiteral("ref")).toString() == dockerRef)
            confinement = backend.value(QStringLiteral("descriptor"))
                              .toObject()
                              .value(QStringLiteral("enforcement"))
                              .toObject()
                              .value(QStringLiteral("confinement"))
                              .toString();
    }
    QVERIFY2(confinement.contains(QStringLiteral("OCI runtime runc: the host's Linux kernel")),
             backends.out.constData());

    // A command runs with its output and exit status, on the host's kernel.
    QFile hostVersion(QStringLiteral("/proc/version"));
    QVERIFY(hostVersion.open(QIODevice::ReadOnly));
    const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("cat /proc/version; exit 4") });
    QCOMPARE(ran.exitCode, 4);
    QCOMPARE(ran.out, hostVersion.readAll());
}

void TestDockerRuntime::unknownRuntimeIsRefusedNamingIt()
{
    QStringList offered = info(m_socket).value(QStringLiteral("Runtimes")).toObject().keys();
    offered.sort();
    install(m_socket, QStringLiteral("nosuch-runtime"));
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY(activated.exitCode != 0);
    const QString said = QString::fromUtf8(activated.out + activated.err);
    QVERIFY2(said.contains(QStringLiteral("has no OCI runtime \"nosuch-runtime\"")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("It offers: ") + offered.join(QStringLiteral(", "))), qPrintable(said));
    QCOMPARE(activeRef(), QStringLiteral("builtin:auto"));
}

void TestDockerRuntime::runtimeTheEngineDoesNotHonourIsRefused()
{
    // Measured first: does this engine run a container under the runtime a request names?
    const auto [status, output] = runDirectly(m_socket, QStringLiteral("cat /proc/version"), QStringLiteral("runsc"));
    QCOMPARE(status, 0);
    QFile hostVersion(QStringLiteral("/proc/version"));
    QVERIFY(hostVersion.open(QIODevice::ReadOnly));
    const bool honoured = output != hostVersion.readAll();
    install(m_socket, QStringLiteral("runsc"));
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY(activated.exitCode != 0);
    const QString said = QString::fromUtf8(activated.out + activated.err);
    if (honoured)
        QVERIFY2(said.contains(QStringLiteral("write gate")), qPrintable(said));
    else
        QVERIFY2(said.contains(QStringLiteral("was asked for the OCI runtime runsc but made the container under runc")),
                 qPrintable(said));
    QCOMPARE(activeRef(), QStringLiteral("builtin:auto"));
}

void TestDockerRuntime::remoteEngineIsMeasuredAtActivation()
{
    // The gVisor engine as a remote host's, its socket reachable through SSH only.
    OpenSshRig rig;
    QVERIFY2(rig.start().isEmpty(), "the SSH rig did not start");
    const QString server = rig.startServer();
    QVERIFY2(server.isEmpty(), qPrintable(server));
    const QString login = rig.path(QStringLiteral("login"));
    QVERIFY(rig.generateKey(login, QStringLiteral("login@test")).isEmpty());
    QVERIFY(OpenSshRig::writeFile(rig.path(QStringLiteral("authorized_keys")),
                                  OpenSshRig::readAll(rig.path(QStringLiteral("authorized_keys")))
                                      + OpenSshRig::readAll(login + QStringLiteral(".pub"))));
    install(m_gvisorSocket, {});
    const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                              QStringLiteral("endpoint=ssh://%1@127.0.0.1:%2%3")
                                  .arg(rig.userName())
                                  .arg(rig.serverPort())
                                  .arg(m_gvisorSocket),
                              QStringLiteral("sshIdentityFile=") + login,
                              QStringLiteral("sshKnownHostsFile=") + rig.path(QStringLiteral("known_hosts")) });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY(activated.exitCode != 0);
    const QString said = QString::fromUtf8(activated.out + activated.err);
    // Refused at activation, with the gate's own words from the remote host's runtime.
    QVERIFY2(said.contains(QStringLiteral("Commands cannot run confined under the OCI runtime runsc")),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("offers no seccomp user notification")), qPrintable(said));
    QCOMPARE(activeRef(), QStringLiteral("builtin:auto"));
    const Outcome listed
        = dockerRequest(m_gvisorSocket, QStringLiteral("GET"), QStringLiteral("/containers/json?all=1"));
    QCOMPARE(QJsonDocument::fromJson(listed.out).array().size(), 0);
    const Outcome volumes = dockerRequest(m_gvisorSocket, QStringLiteral("GET"), QStringLiteral("/volumes"));
    QCOMPARE(QJsonDocument::fromJson(volumes.out).object().value(QStringLiteral("Volumes")).toArray().size(), 0);
}

void TestDockerRuntime::gvisorRunsCommandsUnderItsOwnKernel()
{
    QCOMPARE(info(m_gvisorSocket).value(QStringLiteral("DefaultRuntime")).toString(), QStringLiteral("runsc"));
    // gVisor's kernel, the Sentry, answers: its own version and boot messages, not the host's.
    const auto [status, output]
        = runDirectly(m_gvisorSocket, QStringLiteral("cat /proc/version; dmesg; echo to-stderr >&2; exit 5"));
    QCOMPARE(status, 5);
    QVERIFY2(output.contains("Starting gVisor..."), output.constData());
    QVERIFY2(output.contains("to-stderr"), output.constData());
    QFile hostVersion(QStringLiteral("/proc/version"));
    QVERIFY(hostVersion.open(QIODevice::ReadOnly));
    QVERIFY(!output.contains(hostVersion.readAll().trimmed()));
}

void TestDockerRuntime::backendRefusesGvisorWithTheMeasuredReason()
{
    for (const QString &runtime : { QString(), QStringLiteral("runsc") }) {
        install(m_gvisorSocket, runtime);
        const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
        QVERIFY(activated.exitCode != 0);
        const QString said = QString::fromUtf8(activated.out + activated.err);
        QVERIFY2(said.contains(QStringLiteral("Commands cannot run confined under the OCI runtime runsc")),
                 qPrintable(said));
        // sandbox-init's own words under gVisor, and why.
        QVERIFY2(said.contains(QStringLiteral("seccomp: cannot build the filter: Invalid argument")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("offers no seccomp user notification")), qPrintable(said));
        QCOMPARE(activeRef(), QStringLiteral("builtin:auto"));
    }
    // The probe leaves no container behind.
    const Outcome listed
        = dockerRequest(m_gvisorSocket, QStringLiteral("GET"), QStringLiteral("/containers/json?all=1"));
    QCOMPARE(QJsonDocument::fromJson(listed.out).array().size(), 0);
}

void TestDockerRuntime::crunRunsCommandsOrIsRefusedWithTheEnginesWords()
{
    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/sandbox-crun.XXXXXX"));
    QVERIFY(dir.isValid());
    const std::shared_ptr<void> stop(nullptr, [&dir](void *) {
        sandbox::test::runProgram(QStringLiteral("bash"), { rigScript, QStringLiteral("stop"), dir.path() },
                                  QDir::tempPath(), {}, 120000);
    });
    const QString socket = startRig(dir.path(), QStringLiteral("crun"));
    QVERIFY(!socket.isEmpty());
    QCOMPARE(info(socket).value(QStringLiteral("DefaultRuntime")).toString(), QStringLiteral("crun"));
    // What crun does on this host, measured first (it refuses hybrid cgroups, DESIGN.md).
    const auto [status, output] = runDirectly(socket, QStringLiteral("exit 6"));
    install(socket, QString());
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    const QString said = QString::fromUtf8(activated.out + activated.err);
    if (status == 6) {
        QVERIFY2(activated.exitCode == 0, qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("Commands run under crun.")), qPrintable(said));
        const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                  QStringLiteral("-c"), QStringLiteral("echo under crun; exit 3") });
        QCOMPARE(ran.exitCode, 3);
        QCOMPARE(ran.out, QByteArray("under crun\n"));
        return;
    }
    // The runtime cannot start a container here: refused before the swap, in its words.
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(said.contains(QStringLiteral("The OCI runtime crun cannot run this backend's containers: it could not "
                                          "start a container")),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("crun: ")),
             qPrintable(said + QStringLiteral("\ndirectly: ") + QString::fromUtf8(output)));
    QCOMPARE(activeRef(), QStringLiteral("builtin:auto"));
}

void TestDockerRuntime::containerUnderAnotherRuntimeThanActivatedIsRefused()
{
    // The endpoint is a link: activation meets the rig's runc, the first command's container
    // is then made by the gVisor service, which would run it under runsc.
    const QString link = m_root->filePath(QStringLiteral("engine.sock"));
    QVERIFY(QFile::link(m_socket, link));
    install(link, QString());
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
    QVERIFY(QFile::remove(link));
    QVERIFY(QFile::link(m_gvisorSocket, link));
    const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo ran") });
    QVERIFY(ran.exitCode != 0);
    QVERIFY(!ran.out.contains("ran"));
    QVERIFY2(ran.err.contains("made the container under the OCI runtime runsc, not runc"), ran.err.constData());
    const Outcome listed
        = dockerRequest(m_gvisorSocket, QStringLiteral("GET"), QStringLiteral("/containers/json?all=1"));
    QCOMPARE(QJsonDocument::fromJson(listed.out).array().size(), 0);
}

QTEST_GUILESS_MAIN(TestDockerRuntime)
#include "tst_docker_runtime.moc"
