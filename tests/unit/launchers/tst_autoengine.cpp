// The auto backend served through a real Engine (registerBuiltinLaunchers): what the engine
// reports about it (enforcement claims of the tier actually serving) and how a spawn's
// timeout ends it, whichever state the sandbox is in.
#include "LauncherRun.h"
#include "core/Engine.h"
#include "launchers/Builtins.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sandbox;
using namespace sandbox::test;

namespace {

template <typename T> T await(QFuture<T> future)
{
    [[maybe_unused]] const bool done = QTest::qWaitFor([&] { return future.isFinished(); }, 60000);
    return future.result();
}

BackendRef autoRef()
{
    return BackendRef::builtin(QStringLiteral("auto"));
}

} // namespace

class TestAutoEngine final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void enforcementFollowsTheServingTier();
    void autoIsProbedWhileAnotherBackendServes();
    void timeoutEndsTheWholeSandboxOnce_data();
    void timeoutEndsTheWholeSandboxOnce();
    void timeoutBeforeTheSandboxStartedIsATimeout();
    void timeoutWhileTheSandboxIsBeingSetUpIsATimeout_data();
    void timeoutWhileTheSandboxIsBeingSetUpIsATimeout();
    void sandboxctlReportsATimeout_data();
    void sandboxctlReportsATimeout();

private:
    bool activate(const QString &tier);
    std::unique_ptr<QTemporaryDir> m_config;
    std::unique_ptr<QTemporaryDir> m_workspace;
    std::unique_ptr<Engine> m_engine;
};

void TestAutoEngine::init()
{
    // Not under /tmp: tier 2 shares the host's /tmp, which the default policy makes writable,
    // and refuses to run anything while the engine's directories are within reach.
    m_config = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/autoengine-XXXXXX"));
    m_workspace = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/autoengine-ws-XXXXXX"));
    QVERIFY(m_config->isValid() && m_workspace->isValid());
    Engine::Options options;
    options.configDirectory = m_config->filePath(QStringLiteral("config"));
    options.stateDirectory = m_config->filePath(QStringLiteral("state"));
    options.allowPlaintextSecrets = true; // the auto backend has no secrets; keep the keychain out of it
    m_engine = std::make_unique<Engine>(options);
    registerBuiltinLaunchers(*m_engine);
}

void TestAutoEngine::cleanup()
{
    m_engine.reset();
    m_workspace.reset();
    m_config.reset();
}

bool TestAutoEngine::activate(const QString &tier)
{
    SettingsValues values;
    values.values.insert(QStringLiteral("tier"), tier);
    const ActivationResult result = await(m_engine->activate(autoRef(), values));
    if (!result.ok)
        qWarning("activating %s failed: %s", qPrintable(tier), qPrintable(result.error.toString()));
    return result.ok;
}

void TestAutoEngine::enforcementFollowsTheServingTier()
{
    QString error;
    const auto tier1 = preparedLauncher(QStringLiteral("strongest"), &error);
    QVERIFY2(tier1, qPrintable(error));
    const auto tier2 = preparedLauncher(QStringLiteral("landlock-seccomp"), &error);
    QVERIFY2(tier2, qPrintable(error));
    const QMap<QString, QString> tier1Claims = tier1->descriptor().enforcement;
    const QMap<QString, QString> tier2Claims = tier2->descriptor().enforcement;
    QVERIFY(tier1Claims != tier2Claims);
    QVERIFY(tier2Claims.value(QStringLiteral("confinement")).contains(QStringLiteral("no namespaces")));

    QVERIFY(activate(QStringLiteral("landlock-seccomp")));
    Result<BackendInfo> info = m_engine->backend(autoRef());
    QVERIFY(info.ok());
    QVERIFY(info.value().active);
    QCOMPARE(info.value().descriptor.enforcement, tier2Claims);
    bool listed = false;
    for (const BackendInfo &backend : m_engine->backends()) {
        if (backend.ref == autoRef()) {
            listed = true;
            QCOMPARE(backend.descriptor.enforcement, tier2Claims);
        }
    }
    QVERIFY(listed);

    QVERIFY(activate(QStringLiteral("strongest")));
    info = m_engine->backend(autoRef());
    QVERIFY(info.ok());
    QCOMPARE(info.value().descriptor.enforcement, tier1Claims);
}

// builtin:auto is the safe default a user must always be able to choose: while it is not
// active (nothing is, or another backend serves after a restart) its availability is what a
// probe finds, never a placeholder that makes presenters grey it out.
void TestAutoEngine::autoIsProbedWhileAnotherBackendServes()
{
    QVERIFY(!m_engine->activeRef());
    const auto listedAuto = [this] { return m_engine->backend(autoRef()).value().availability; };
    QTRY_VERIFY2_WITH_TIMEOUT(listedAuto().available, qPrintable(listedAuto().reason), 30000);
    QVERIFY(m_engine->backend(autoRef()).value().unenforced.isEmpty());
}

void TestAutoEngine::timeoutEndsTheWholeSandboxOnce_data()
{
    QTest::addColumn<QString>("tier");
    QTest::newRow("namespaces") << QStringLiteral("strongest");
    QTest::newRow("landlock-seccomp") << QStringLiteral("landlock-seccomp");
}

void TestAutoEngine::timeoutEndsTheWholeSandboxOnce()
{
    QFETCH(QString, tier);
    QVERIFY(activate(tier));
    const QByteArray marker = uniqueSleep();
    SpawnRequest request;
    request.argv = { QStringLiteral("sh"), QStringLiteral("-c"),
                     QStringLiteral("sleep %1 & sleep %1").arg(QString::fromLatin1(marker)) };
    request.cwd = m_workspace->path();
    request.timeoutMs = 500;
    QSignalSpy engineFinished(m_engine.get(), &Engine::processFinished);
    quint64 id = 0;
    Result<std::shared_ptr<SandboxProcess>> spawned = m_engine->spawn(request, &id);
    QVERIFY2(spawned.ok(), qPrintable(spawned.ok() ? QString() : spawned.error().toString()));
    QSignalSpy processFinished(spawned.value().get(), &SandboxProcess::finished);
    QSignalSpy failed(spawned.value().get(), &SandboxProcess::failedToStart);
    QTRY_COMPARE_WITH_TIMEOUT(engineFinished.size(), 1, 30000);
    const ExitStatus status = engineFinished.first().at(1).value<ExitStatus>();
    QVERIFY(status.timedOut);
    QVERIFY(status.signaled);
    QCOMPARE(status.signal, SIGKILL);
    QCOMPARE(status.shellStatus(), 128 + SIGKILL);
    QCOMPARE(processFinished.size(), 1);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(processesWith(marker), 0);
    // The process table keeps the same record.
    bool recorded = false;
    for (const ProcessInfo &info : m_engine->processes()) {
        if (info.id == id) {
            recorded = true;
            QVERIFY(!info.running);
            QCOMPARE(info.exit, status);
        }
    }
    QVERIFY(recorded);
}

void TestAutoEngine::timeoutBeforeTheSandboxStartedIsATimeout()
{
    // hostExecution ask with nobody answering: the sandbox waits, unstarted, past the timeout.
    QVERIFY(activate(QStringLiteral("strongest")));
    Policy policy = Policy::defaults();
    policy.hostExecution = Policy::HostExecution::Ask;
    SpawnRequest request;
    request.argv = { QStringLiteral("true") };
    request.cwd = m_workspace->path();
    request.timeoutMs = 300;
    request.policy = policy;
    QSignalSpy asked(m_engine.get(), &Engine::hostInteractionRequested);
    QSignalSpy engineFinished(m_engine.get(), &Engine::processFinished);
    Result<std::shared_ptr<SandboxProcess>> spawned = m_engine->spawn(request);
    QVERIFY2(spawned.ok(), qPrintable(spawned.ok() ? QString() : spawned.error().toString()));
    QSignalSpy failed(spawned.value().get(), &SandboxProcess::failedToStart);
    QTRY_COMPARE_WITH_TIMEOUT(engineFinished.size(), 1, 30000);
    QVERIFY(asked.size() >= 1);
    const ExitStatus status = engineFinished.first().at(1).value<ExitStatus>();
    QVERIFY(status.timedOut);
    QCOMPARE(status.shellStatus(), 128 + SIGKILL);
    QCOMPARE(failed.size(), 0);
}

void TestAutoEngine::timeoutWhileTheSandboxIsBeingSetUpIsATimeout_data()
{
    timeoutEndsTheWholeSandboxOnce_data();
}

void TestAutoEngine::timeoutWhileTheSandboxIsBeingSetUpIsATimeout()
{
    // 1 ms: the timeout strikes while sandbox-init is still building the sandbox. That is
    // a timed-out command like any other, not a sandbox that failed to start.
    QFETCH(QString, tier);
    QVERIFY(activate(tier));
    for (int attempt = 0; attempt < 5; ++attempt) {
        SpawnRequest request;
        request.argv = { QStringLiteral("sleep"), QStringLiteral("30") };
        request.cwd = m_workspace->path();
        request.timeoutMs = 1;
        QSignalSpy engineFinished(m_engine.get(), &Engine::processFinished);
        Result<std::shared_ptr<SandboxProcess>> spawned = m_engine->spawn(request);
        QVERIFY2(spawned.ok(), qPrintable(spawned.ok() ? QString() : spawned.error().toString()));
        QSignalSpy processFinished(spawned.value().get(), &SandboxProcess::finished);
        QSignalSpy failed(spawned.value().get(), &SandboxProcess::failedToStart);
        QTRY_COMPARE_WITH_TIMEOUT(engineFinished.size(), 1, 30000);
        const ExitStatus status = engineFinished.first().at(1).value<ExitStatus>();
        QVERIFY(status.timedOut);
        QCOMPARE(status.shellStatus(), 128 + SIGKILL);
        QCOMPARE(failed.size(), 0);
        QCOMPARE(processFinished.size(), 1);
    }
}

void TestAutoEngine::sandboxctlReportsATimeout_data()
{
    timeoutEndsTheWholeSandboxOnce_data();
}

void TestAutoEngine::sandboxctlReportsATimeout()
{
    QFETCH(QString, tier);
    const QString sandboxctl = QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl");
    if (!QFileInfo(sandboxctl).isExecutable())
        QSKIP("sandboxctl is not built in this configuration");
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_config->filePath(QStringLiteral("cli-config")));
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_config->filePath(QStringLiteral("cli-state")));
    auto run = [&](const QStringList &arguments, QByteArray *err = nullptr) {
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(m_workspace->path());
        process.start(sandboxctl, QStringList{ QStringLiteral("--embedded") } + arguments);
        process.closeWriteChannel();
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            return -1;
        }
        if (err)
            *err = process.readAllStandardError();
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    };
    QCOMPARE(run({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                   QStringLiteral("tier=") + tier }),
             0);
    QCOMPARE(run({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }), 0);
    const QByteArray marker = uniqueSleep();
    // Several times: a timeout must be reported every time, not when one timer wins a race.
    for (int attempt = 0; attempt < 3; ++attempt) {
        QByteArray err;
        const int status = run({ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("0.5"),
                                 QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                 QStringLiteral("sleep %1 & sleep %1").arg(QString::fromLatin1(marker)) },
                               &err);
        QVERIFY2(status == 128 + SIGKILL,
                 qPrintable(QStringLiteral("status %1: ").arg(status) + QString::fromLocal8Bit(err)));
        QVERIFY2(err.contains("timed out"), err.constData());
        QCOMPARE(processesWith(marker), 0);
    }
    // And when it strikes while the sandbox is still being set up.
    QByteArray err;
    const int status = run({ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("0.001"),
                             QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("30") },
                           &err);
    QVERIFY2(status == 128 + SIGKILL,
             qPrintable(QStringLiteral("status %1: ").arg(status) + QString::fromLocal8Bit(err)));
    QVERIFY2(err.contains("timed out"), err.constData());
}

QTEST_GUILESS_MAIN(TestAutoEngine)
#include "tst_autoengine.moc"
