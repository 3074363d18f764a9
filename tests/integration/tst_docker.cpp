// The Power Pack's Docker backend on a real Docker-compatible runtime (Podman's service on
// a private socket, started by test.sh or tests/integration/podman-runtime.sh), through
// the real sandboxd and sandboxctl: install the pack, activate Docker, run commands, hot
// switch with long commands under each backend, disable and remove the pack.
#include "DaemonRig.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <QUuid>

#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");
const QString autoRef = QStringLiteral("builtin:auto");

using sandbox::test::binary;
using sandbox::test::Outcome;

// Processes on this host whose command line is exactly `argv`.
int processesWith(const QStringList &argv)
{
    const QByteArray wanted = argv.join(QChar(0)).toUtf8() + '\0';
    int count = 0;
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile cmdline(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll() == wanted)
            ++count;
    }
    return count;
}

} // namespace

class TestDocker final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void commandsRunInTheContainer();
    void signalsAndTimeoutsEndTheWholeCommand();
    void policyHoldsInTheContainer();
    void hotSwitchKeepsEachCommandOnItsLauncher();
    void disablingThePackFallsBackToAutoAndSettingsSurvive();
    void missingImageIsAnAvailabilityReason();
    void imageWithoutSleepOrShellRunsCommands();
    void workspaceAtTmpRuns();

private:
    void installAndActivate(const QString &image = {});
    QString activeKind();

    sandbox::test::DockerRuntime m_runtime;
    sandbox::test::DaemonRig m_rig;
};

void TestDocker::initTestCase()
{
    SANDBOX_DOCKER_RUNTIME_OR_SKIP(m_runtime);
    QVERIFY2(QFileInfo(QStringLiteral(SANDBOX_POWER_PACK_DIR "/pack.json")).isFile(), SANDBOX_POWER_PACK_DIR);
}

void TestDocker::init()
{
    QVERIFY(m_rig.create());
    m_rig.start();
}

void TestDocker::cleanup()
{
    m_rig.destroy();
}

QString TestDocker::activeKind()
{
    const Outcome status = m_rig.ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    return QJsonDocument::fromJson(status.out)
        .object()
        .value(QStringLiteral("active"))
        .toString()
        .section(QLatin1Char(':'), -1);
}

void TestDocker::installAndActivate(const QString &image)
{
    sandbox::test::activateDocker(m_rig, QStringLiteral(SANDBOX_POWER_PACK_DIR), m_runtime, image);
}

void TestDocker::commandsRunInTheContainer()
{
    installAndActivate();
    // Output on both streams and the command's own exit status.
    const Outcome mixed = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                      QStringLiteral("-c"), QStringLiteral("echo out; echo err >&2; exit 3") });
    QCOMPARE(mixed.exitCode, 3);
    QCOMPARE(mixed.out, QByteArray("out\n"));
    QVERIFY(mixed.err.contains("err\n"));
    // It ran in the container: its pid 1 is the container's keeper, not the host's init.
    const Outcome pid1 = m_rig.ctl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"), QStringLiteral("/proc/1/cmdline") });
    QCOMPARE(pid1.exitCode, 0);
    QVERIFY2(pid1.out.startsWith("/run/sandbox-studio/sandbox-init"), pid1.out.constData());
    // stdin streams through the exec's connection, and its end reaches the command.
    QByteArray input;
    for (int i = 0; i < 2000; ++i)
        input += "line " + QByteArray::number(i) + '\n';
    const Outcome counted
        = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("wc"), QStringLiteral("-l") }, input);
    QCOMPARE(counted.exitCode, 0);
    QCOMPARE(counted.out.trimmed(), QByteArray("2000"));
    // A workspace write lands on the host, owned by the caller.
    const Outcome wrote = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                      QStringLiteral("-c"), QStringLiteral("echo made > made.txt") });
    QCOMPARE(wrote.exitCode, 0);
    const QString made = QDir(m_rig.workspace()).filePath(QStringLiteral("made.txt"));
    QFile file(made);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("made\n"));
    struct stat info
    {
    };
    QCOMPARE(::stat(QFile::encodeName(made).constData(), &info), 0);
    QCOMPARE(info.st_uid, ::getuid());
    QCOMPARE(info.st_gid, ::getgid());
    // Each command is listed under the Docker backend.
    const Outcome ps = m_rig.ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    for (const QJsonValue &value : QJsonDocument::fromJson(ps.out).array())
        QCOMPARE(value.toObject().value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1),
                 QStringLiteral("docker"));
}

void TestDocker::signalsAndTimeoutsEndTheWholeCommand()
{
    installAndActivate();
    // A timeout ends the command and what it started in the background.
    const QString marker
        = QStringLiteral("4%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(6).toUInt(nullptr, 16));
    const Outcome timedOut = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("1"),
                                         QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                         QStringLiteral("sleep %1 & sleep %1; echo never").arg(marker) });
    QVERIFY2(timedOut.exitCode == 128 + 9, timedOut.err.constData());
    QVERIFY(timedOut.err.contains("timed out"));
    QVERIFY(!timedOut.out.contains("never"));
    QTRY_COMPARE_WITH_TIMEOUT(processesWith({ QStringLiteral("sleep"), marker }), 0, 10000);

    // sandboxctl kill ends a running command, also its background children.
    auto running
        = m_rig.startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                           QStringLiteral("sleep 1%1 & echo started; sleep 1%1").arg(marker) });
    QTRY_COMPARE_WITH_TIMEOUT(processesWith({ QStringLiteral("sleep"), QStringLiteral("1") + marker }), 2, 10000);
    const Outcome ps = m_rig.ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    qint64 id = 0;
    for (const QJsonValue &value : QJsonDocument::fromJson(ps.out).array()) {
        if (value.toObject().value(QStringLiteral("state")).toString() == QLatin1String("running"))
            id = value.toObject().value(QStringLiteral("id")).toInteger();
    }
    QVERIFY(id > 0);
    QCOMPARE(m_rig.ctl({ QStringLiteral("kill"), QString::number(id) }).exitCode, 0);
    QVERIFY(running->waitForFinished(20000));
    QCOMPARE(running->exitCode(), 128 + 9);
    QTRY_COMPARE_WITH_TIMEOUT(processesWith({ QStringLiteral("sleep"), QStringLiteral("1") + marker }), 0, 10000);
}

void TestDocker::policyHoldsInTheContainer()
{
    installAndActivate();
    // A denied folder inside the workspace, a read-only .git/hooks, network none.
    QVERIFY(QDir(m_rig.workspace()).mkpath(QStringLiteral("secret")));
    QVERIFY(QDir(m_rig.workspace()).mkpath(QStringLiteral(".git/hooks")));
    QVERIFY(QDir(m_rig.workspace()).mkpath(QStringLiteral("tool/.credentials")));
    QFile token(QDir(m_rig.workspace()).filePath(QStringLiteral("tool/.credentials/token")));
    QVERIFY(token.open(QIODevice::WriteOnly));
    token.write("do not read me either");
    token.close();
    QFile key(QDir(m_rig.workspace()).filePath(QStringLiteral("secret/key")));
    QVERIFY(key.open(QIODevice::WriteOnly));
    key.write("do not read me");
    key.close();
    const Outcome shown = m_rig.ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QJsonObject policy = QJsonDocument::fromJson(shown.out).object();
    QJsonObject filesystem = policy.value(QStringLiteral("filesystem")).toObject();
    QJsonArray denied = filesystem.value(QStringLiteral("denied")).toArray();
    denied.append(QStringLiteral("${workspace}/secret"));
    denied.append(QStringLiteral("${workspace}/*/.credentials"));
    filesystem.insert(QStringLiteral("denied"), denied);
    policy.insert(QStringLiteral("filesystem"), filesystem);
    const Outcome set = m_rig.ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") },
                                  QJsonDocument(policy).toJson());
    QVERIFY2(set.exitCode == 0, set.err.constData());

    const Outcome secret = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                       QStringLiteral("-c"), QStringLiteral("cat secret/key; ls -A secret | wc -l") });
    QVERIFY(!secret.out.contains("do not read me"));
    QCOMPARE(secret.out.trimmed(), QByteArray("0"));
    // A denied entry with a "*" component covers every folder it matches.
    const Outcome matched
        = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                      QStringLiteral("cat tool/.credentials/token; ls -A tool/.credentials | wc -l") });
    QVERIFY(!matched.out.contains("do not read me either"));
    QCOMPARE(matched.out.trimmed(), QByteArray("0"));
    const Outcome hooks = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                      QStringLiteral("-c"), QStringLiteral("echo x > .git/hooks/pre-commit") });
    QVERIFY(hooks.exitCode != 0);
    QVERIFY(!QFileInfo::exists(QDir(m_rig.workspace()).filePath(QStringLiteral(".git/hooks/pre-commit"))));
    // Read-only root filesystem, private /tmp, no network but loopback, no capabilities.
    const Outcome root = m_rig.ctl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("touch"), QStringLiteral("/etc/owned") });
    QVERIFY(root.exitCode != 0);
    const Outcome tmp = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                    QStringLiteral("-c"), QStringLiteral("echo t > /tmp/t && cat /tmp/t") });
    QCOMPARE(tmp.out, QByteArray("t\n"));
    const Outcome net = m_rig.ctl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("ls"), QStringLiteral("/sys/class/net") });
    QCOMPARE(net.out.trimmed(), QByteArray("lo"));
    const Outcome caps
        = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                      QStringLiteral("grep -E '^(CapEff|NoNewPrivs)' /proc/self/status") });
    QVERIFY2(caps.out.contains("CapEff:\t0000000000000000"), caps.out.constData());
    QVERIFY2(caps.out.contains("NoNewPrivs:\t1"), caps.out.constData());
    // The host's credential stores and the runtime's own socket are nowhere in the container.
    const Outcome host
        = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                      QStringLiteral("ls %1 %2 %3")
                          .arg(QDir::homePath() + QStringLiteral("/.ssh"), m_runtime.socket,
                               QStringLiteral("/var/run/docker.sock")) });
    QVERIFY(host.exitCode != 0);
    QVERIFY(host.out.isEmpty());
}

void TestDocker::hotSwitchKeepsEachCommandOnItsLauncher()
{
    const Outcome autoActive = m_rig.ctl({ QStringLiteral("activate"), autoRef });
    QVERIFY2(autoActive.exitCode == 0, autoActive.err.constData());
    const QString script = QStringLiteral("cat /proc/1/cmdline; echo; exec sleep 600");
    auto underAuto = m_rig.startCtl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
    QTRY_VERIFY_WITH_TIMEOUT(underAuto->canReadLine(), 20000);
    const QByteArray autoPid1 = underAuto->readLine();

    installAndActivate();
    auto underDocker = m_rig.startCtl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
    QTRY_VERIFY_WITH_TIMEOUT(underDocker->canReadLine(), 20000);
    QVERIFY2(underDocker->readLine().startsWith("/run/sandbox-studio/sandbox-init"), "not in the container");
    QVERIFY(!autoPid1.startsWith("/run/sandbox-studio/sandbox-init"));

    QCOMPARE(m_rig.ctl({ QStringLiteral("activate"), autoRef }).exitCode, 0);
    auto againAuto = m_rig.startCtl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
    QTRY_VERIFY_WITH_TIMEOUT(againAuto->canReadLine(), 20000);
    QCOMPARE(againAuto->readLine(), autoPid1);

    // All three still run, each owned by the launcher that started it.
    const Outcome ps = m_rig.ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    QStringList owners;
    for (const QJsonValue &value : QJsonDocument::fromJson(ps.out).array()) {
        const QJsonObject p = value.toObject();
        if (p.value(QStringLiteral("state")).toString() == QLatin1String("running"))
            owners.append(p.value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1));
    }
    QCOMPARE(owners, (QStringList{ QStringLiteral("auto"), QStringLiteral("docker"), QStringLiteral("auto") }));
    QCOMPARE(underDocker->state(), QProcess::Running);
    for (auto *run : { underAuto.get(), underDocker.get(), againAuto.get() }) {
        run->kill();
        run->waitForFinished(20000);
    }
}

void TestDocker::disablingThePackFallsBackToAutoAndSettingsSurvive()
{
    installAndActivate();
    const Outcome disabled
        = m_rig.ctl({ QStringLiteral("packs"), QStringLiteral("disable"), QStringLiteral("power-pack") });
    QVERIFY2(disabled.exitCode == 0, disabled.err.constData());
    QCOMPARE(activeKind(), QStringLiteral("auto"));
    QCOMPARE(m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("true") }).exitCode, 0);
    const Outcome refused = m_rig.ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY(refused.exitCode != 0);
    QCOMPARE(m_rig.ctl({ QStringLiteral("packs"), QStringLiteral("enable"), QStringLiteral("power-pack") }).exitCode,
             0);

    // Removed: gone, also after a restart; reinstalled: its settings are back.
    const Outcome removed
        = m_rig.ctl({ QStringLiteral("packs"), QStringLiteral("remove"), QStringLiteral("power-pack") });
    QVERIFY2(removed.exitCode == 0, removed.err.constData());
    QFile state(m_rig.filePath(QStringLiteral("config/packs.json")));
    QVERIFY(state.open(QIODevice::ReadOnly));
    QVERIFY2(state.readAll().contains("\"installed\": false"), removed.out.constData());
    m_rig.stop();
    m_rig.start();
    const Outcome listed = m_rig.ctl({ QStringLiteral("packs"), QStringLiteral("list"), QStringLiteral("--json") });
    QVERIFY2(QJsonDocument::fromJson(listed.out).array().isEmpty(),
             QByteArray(listed.out + listed.err + m_rig.log()).constData());
    const Outcome reinstalled
        = m_rig.ctl({ QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) });
    QVERIFY2(reinstalled.exitCode == 0, reinstalled.err.constData());
    const Outcome settings
        = m_rig.ctl({ QStringLiteral("settings"), QStringLiteral("get"), dockerRef, QStringLiteral("--json") });
    const QJsonObject values
        = QJsonDocument::fromJson(settings.out).object().value(QStringLiteral("values")).toObject();
    QCOMPARE(values.value(QStringLiteral("image")).toString(), m_runtime.image);
    QCOMPARE(values.value(QStringLiteral("endpoint")).toString(), QStringLiteral("unix://") + m_runtime.socket);
    const Outcome activated = m_rig.ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY2(activated.exitCode == 0, activated.err.constData());
}

void TestDocker::missingImageIsAnAvailabilityReason()
{
    QCOMPARE(m_rig.ctl({ QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) })
                 .exitCode,
             0);
    QCOMPARE(m_rig
                 .ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                        QStringLiteral("endpoint=unix://") + m_runtime.socket,
                        QStringLiteral("image=localhost/not-here:1") })
                 .exitCode,
             0);
    const Outcome activated = m_rig.ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY(activated.exitCode != 0);
    const QByteArray all = activated.out + activated.err;
    QVERIFY2(all.contains("localhost/not-here:1 is not present") && all.contains("pull"), all.constData());
    QCOMPARE(activeKind(), QStringLiteral("auto"));

    const Outcome nowhere
        = m_rig.ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                      QStringLiteral("endpoint=unix://") + m_rig.filePath(QStringLiteral("none.sock")) });
    QCOMPARE(nowhere.exitCode, 0);
    const Outcome unreachable = m_rig.ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY(unreachable.exitCode != 0);
    const QByteArray why = unreachable.out + unreachable.err;
    QVERIFY2(why.contains("No Docker-compatible runtime at"), why.constData());
}

// An image with nothing but one static program (no sleep, no shell, as distroless images
// are) still runs commands: the container is held up by the engine's own helper.
void TestDocker::imageWithoutSleepOrShellRunsCommands()
{
    const QString bare = qEnvironmentVariable("SANDBOX_TEST_DOCKER_BARE_IMAGE");
    QVERIFY2(!bare.isEmpty(), "SANDBOX_TEST_DOCKER_BARE_IMAGE is not set: test.sh starts the runtime");
    installAndActivate(bare);
    const Outcome listed = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/busybox"),
                                       QStringLiteral("ls"), QStringLiteral("/bin") });
    QVERIFY2(listed.exitCode == 0, listed.err.constData());
    QCOMPARE(listed.out, QByteArray("busybox\n"));
    const Outcome wrote = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/busybox"),
                                      QStringLiteral("touch"), QStringLiteral("made-in-bare") });
    QVERIFY2(wrote.exitCode == 0, wrote.err.constData());
    QVERIFY(QFile::exists(QDir(m_rig.workspace()).filePath(QStringLiteral("made-in-bare"))));
    // Each command was executed beside the helper, in one container.
    const Outcome pid1 = m_rig.ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/busybox"),
                                     QStringLiteral("cat"), QStringLiteral("/proc/1/cmdline") });
    QCOMPARE(pid1.exitCode, 0);
    QCOMPARE(pid1.out, QByteArray("/run/sandbox-studio/sandbox-init\0--hold\0", 40));
}

// The workspace is /tmp itself (an agent started there): the container gets it instead of
// a private /tmp, and the command runs.
void TestDocker::workspaceAtTmpRuns()
{
    installAndActivate();
    const QString marker = QStringLiteral("sandbox-docker-tmp-%1").arg(QCoreApplication::applicationPid());
    const Outcome ran = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")),
                                                  { QStringLiteral("--socket"), m_rig.socket(), QStringLiteral("run"),
                                                    QStringLiteral("--workspace"), QStringLiteral("/tmp"),
                                                    QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                                    QStringLiteral("-c"), QStringLiteral("echo made > ") + marker },
                                                  QStringLiteral("/tmp"), {}, 60000);
    const QString made = QStringLiteral("/tmp/") + marker;
    const bool exists = QFile::exists(made);
    QFile::remove(made);
    QVERIFY2(ran.exitCode == 0, ran.err.constData());
    QVERIFY(exists);
}

QTEST_GUILESS_MAIN(TestDocker)
#include "tst_docker.moc"
