// The activation transaction, step by step: a fault injected at each of the seven steps,
// process ownership across swaps, restore at start-up, Host Interaction.
#include "EngineRig.h"
#include "UnconfinedPolicy.h"
#include "core/secrets/PlaintextSecretStore.h"
#include "launchers/vm/VmLauncher.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const QStringList transactionSteps{ QStringLiteral("validate"), QStringLiteral("resolve-secrets"),
                                    QStringLiteral("prepare"),  QStringLiteral("probe"),
                                    QStringLiteral("swap"),     QStringLiteral("persist") };

// The events a transaction must report when `failedStep` fails (empty: none fails), with
// `cleanupState` as the final state of the cleanup step when everything before succeeded.
QStringList expectedTrace(const QString &failedStep, const QString &cleanupState, bool hasSecrets)
{
    QStringList trace;
    bool failed = false;
    for (const QString &step : transactionSteps) {
        if (failed) {
            trace << step + QStringLiteral(":skipped");
            continue;
        }
        trace << step + QStringLiteral(":started");
        if (step == failedStep) {
            trace << step + QStringLiteral(":failed");
            failed = true;
        } else if (step == QStringLiteral("resolve-secrets") && !hasSecrets) {
            trace << step + QStringLiteral(":skipped");
        } else {
            trace << step + QStringLiteral(":succeeded");
        }
    }
    if (failed)
        trace << QStringLiteral("cleanup:skipped");
    else
        trace << QStringLiteral("cleanup:started") << QStringLiteral("cleanup:") + cleanupState;
    return trace;
}

FieldSpec secretField(const QString &id, bool required)
{
    FieldSpec field = FieldSpec::make(id, FieldSpec::Type::Secret, QStringLiteral("Token"));
    field.required = required;
    return field;
}

// Runs `sh -c script` through the engine and returns its stdout once it has ended.
struct Ran
{
    quint64 id = 0;
    QByteArray out;
    ExitStatus exit;
    BackendRef owner;
};

// Warnings other than the one about plaintext secret storage, which the rig turns on.
QStringList warningsBesidesPlaintext(const Engine &engine)
{
    QStringList warnings = engine.warnings();
    warnings.removeIf([](const QString &warning) { return warning.contains(QStringLiteral("plain text")); });
    return warnings;
}

Ran run(EngineRig &rig, const QString &script)
{
    quint64 id = 0;
    Result<std::shared_ptr<SandboxProcess>> spawned
        = rig.engine->spawn(rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), script }), &id);
    if (!spawned.ok())
        qFatal("spawn failed: %s", qPrintable(spawned.error().toString()));
    Ran ran;
    ran.id = id;
    std::shared_ptr<SandboxProcess> process = spawned.value();
    QObject::connect(process.get(), &SandboxProcess::stdoutReady, [&ran](const QByteArray &data) { ran.out += data; });
    bool done = false;
    QObject::connect(process.get(), &SandboxProcess::finished, [&](const ExitStatus &status) {
        ran.exit = status;
        done = true;
    });
    QDeadlineTimer deadline(30000);
    while (!done && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    for (const ProcessInfo &info : rig.engine->processes()) {
        if (info.id == id)
            ran.owner = info.owner;
    }
    return ran;
}

} // namespace

class ActivationTest final : public QObject
{
    Q_OBJECT

private slots:
    void faultAtEachStep_data();
    void faultAtEachStep();
    void processesStayWithTheLauncherThatCreatedThem();
    void reactivationUsesAFreshInstance();
    void thePrepareEventCarriesWhatTheLauncherReported();
    void aNoteAboutASandboxsStartReachesItsProcess();
    void spawnWithoutAnActiveBackendRunsNothing();
    void restoreActivatesTheSavedSelection();
    void restoreFallsBackToAuto();
    void restoreWithNothingActivatableLeavesNoBackend();
    void vmBackendIsListedButNeverRuns();
    void activationNeverRewritesPolicy();
    void hostInteractionAnswered();
    void hostInteractionWithoutPresenterIsRefused();
    void hostInteractionTimesOut();
    void malformedHostInteractionIsRefusedUnseen();
    void spawnTimeoutKillsTheProcess();
    void cleanupGivesUpAfterItsAttemptsAndSaysSo();
    void singleInstanceBackendIsNeverDisposedWhileActive();
};

void ActivationTest::faultAtEachStep_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("failedStep");
    QTest::newRow("validate") << "validate"
                              << "validate";
    QTest::newRow("resolve-secrets") << "resolve-secrets"
                                     << "resolve-secrets";
    QTest::newRow("configure") << "configure"
                               << "prepare";
    QTest::newRow("prepare") << "prepare"
                             << "prepare";
    QTest::newRow("probe") << "probe"
                           << "probe";
    QTest::newRow("swap") << "swap"
                          << "swap";
    QTest::newRow("persist") << "persist"
                             << "persist";
    QTest::newRow("cleanup") << "cleanup"
                             << "";
}

void ActivationTest::faultAtEachStep()
{
    QFETCH(QString, fault);
    QFETCH(QString, failedStep);

    EngineRig rig;
    rig.faultPlan->fields.append(secretField(QStringLiteral("token"), fault == QStringLiteral("resolve-secrets")));
    rig.restart(); // registers the backends again, with the secret field
    const ActivationResult baseline = rig.activate(EngineRig::fallbackRef());
    QVERIFY2(baseline.ok, qPrintable(baseline.error.toString()));
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    const QByteArray settingsBefore = readFile(rig.settingsPath());
    QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), QStringLiteral("builtin:host-fallback"));
    const QByteArray servingBefore = run(rig, QStringLiteral("echo $FAULT_LAUNCHER")).out.trimmed();
    QVERIFY(servingBefore.startsWith("host-fallback#"));
    const int faultInstancesBefore = rig.faultPlan->instancesMade;

    SettingsValues candidate = values({ { QStringLiteral("label"), QStringLiteral("new") } });
    QList<SecretUpdate> secrets;
    if (fault == QStringLiteral("validate"))
        candidate = values({ { QStringLiteral("label"), 5 }, { QStringLiteral("bogus"), true } });
    else if (fault == QStringLiteral("configure"))
        rig.faultPlan->failConfigure = true;
    else if (fault == QStringLiteral("prepare"))
        rig.faultPlan->failPrepare = true;
    else if (fault == QStringLiteral("probe"))
        rig.faultPlan->unavailable = true;
    else if (fault == QStringLiteral("swap"))
        rig.faultPlan->notifyWhileProbing = true;
    else if (fault == QStringLiteral("persist"))
        rig.store->failWrites = 1;
    else if (fault == QStringLiteral("cleanup"))
        rig.fallbackPlan->disposeFailures = 2;
    if (fault == QStringLiteral("persist") || fault == QStringLiteral("cleanup"))
        secrets.append(
            SecretUpdate{ QStringLiteral("token"), SecretUpdate::Action::Replace, QStringLiteral("s3cr3t") });

    QSignalSpy activeChanges(rig.engine.get(), &Engine::activeBackendChanged);
    const ActivationResult result = rig.activate(EngineRig::faultRef(), candidate, secrets);

    // Events: every step in order, the failed one failed, the rest skipped.
    const QString cleanupState = fault == QStringLiteral("cleanup") ? QStringLiteral("warning") : QString();
    QCOMPARE(rig.observer->trace(result.activationId), expectedTrace(failedStep, cleanupState, true));
    for (const ActivationEvent &event : rig.observer->events(result.activationId))
        QCOMPARE(event.ref, EngineRig::faultRef());

    if (failedStep.isEmpty()) {
        // Cleanup failure keeps the new activation, warns, and retries until it works.
        QVERIFY2(result.ok, qPrintable(result.error.toString()));
        QCOMPARE(rig.engine->activeRef(), EngineRig::faultRef());
        QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), QStringLiteral("builtin:fault"));
        QTRY_COMPARE(rig.fallbackPlan->disposeSuccesses, 1);
        QCOMPARE(rig.fallbackPlan->disposeCalls, 3);
        const QList<CleanupWarning> warnings = rig.observer->cleanupWarnings();
        QCOMPARE(warnings.size(), 2);
        QCOMPARE(warnings[0].ref, EngineRig::fallbackRef());
        QCOMPARE(warnings[0].attempt, 1);
        QVERIFY(warnings[0].willRetry);
        QCOMPARE(warnings[1].attempt, 2);
        QVERIFY(warnings[0].message.contains(QStringLiteral("injected cleanup failure")));
        QCOMPARE(run(rig, QStringLiteral("echo $FAULT_LAUNCHER")).owner, EngineRig::faultRef());
        return;
    }

    QVERIFY(!result.ok);
    QVERIFY(result.failedStep.has_value());
    QCOMPARE(activationStepName(*result.failedStep), failedStep);
    QVERIFY(!result.error.message.isEmpty());
    QCOMPARE(result.active, EngineRig::fallbackRef());

    // Runtime and disk are as before; the old launcher kept serving and was not disposed.
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    QCOMPARE(readFile(rig.settingsPath()), settingsBefore);
    QCOMPARE(rig.fallbackPlan->disposeCalls, 0);
    const Ran ran = run(rig, QStringLiteral("echo $FAULT_LAUNCHER"));
    QCOMPARE(ran.owner, EngineRig::fallbackRef());
    QCOMPARE(ran.out.trimmed(), servingBefore);
    QCOMPARE(ran.exit.exitCode, 0);

    if (fault == QStringLiteral("validate")) {
        QCOMPARE(result.error.details.size(), 2);
        QCOMPARE(rig.faultPlan->instancesMade, faultInstancesBefore); // no candidate was made
    }
    if (fault == QStringLiteral("resolve-secrets")) {
        QVERIFY(result.error.toString().contains(QStringLiteral("builtin:fault.token")));
        QCOMPARE(rig.faultPlan->instancesMade, faultInstancesBefore);
    }
    if (fault == QStringLiteral("persist")) {
        // Swapped in, then back: the new backend was active for a moment, never nothing.
        QCOMPARE(activeChanges.size(), 2);
        QCOMPARE(activeChanges[0][0].value<BackendRef>(), EngineRig::faultRef());
        QCOMPARE(activeChanges[1][0].value<BackendRef>(), EngineRig::fallbackRef());
        // The secret update was undone with the rest.
        PlaintextSecretStore secretsFile(rig.configDir);
        QCOMPARE(secretsFile.read(EngineRig::faultRef(), QStringLiteral("token")).value(), std::nullopt);
    } else {
        QCOMPARE(activeChanges.size(), 0);
    }
    if (fault == QStringLiteral("configure") || fault == QStringLiteral("prepare") || fault == QStringLiteral("probe")
        || fault == QStringLiteral("swap") || fault == QStringLiteral("persist")) {
        // The failed candidate's resources are released in the background.
        QTRY_COMPARE(rig.faultPlan->disposeSuccesses, 1);
    }
}

void ActivationTest::processesStayWithTheLauncherThatCreatedThem()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);

    QSignalSpy started(rig.engine.get(), &Engine::processStarted);
    QSignalSpy finished(rig.engine.get(), &Engine::processFinished);
    quint64 longId = 0;
    Result<std::shared_ptr<SandboxProcess>> longRunning = rig.engine->spawn(
        rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exec sleep 60") }), &longId);
    QVERIFY(longRunning.ok());
    QCOMPARE(started.size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(longRunning.value()->pid() > 0, 30000);

    const ActivationResult switched = rig.activate(EngineRig::faultRef());
    QVERIFY2(switched.ok, qPrintable(switched.error.toString()));
    // The old launcher still owns a running process: its disposal waits for it.
    QCOMPARE(rig.observer->trace(switched.activationId).last(), QStringLiteral("cleanup:skipped"));
    QCOMPARE(rig.fallbackPlan->disposeCalls, 0);

    const Ran fresh = run(rig, QStringLiteral("echo $FAULT_LAUNCHER"));
    QCOMPARE(fresh.owner, EngineRig::faultRef());
    QVERIFY(fresh.out.startsWith("fault#"));

    const QList<ProcessInfo> processes = rig.engine->processes();
    const auto old = std::find_if(processes.cbegin(), processes.cend(),
                                  [&](const ProcessInfo &info) { return info.id == longId; });
    QVERIFY(old != processes.cend());
    QVERIFY(old->running);
    QCOMPARE(old->owner, EngineRig::fallbackRef());
    QCOMPARE(rig.fallbackPlan->disposeCalls, 0);

    // kill() reaches a process of the previous launcher; its end releases that launcher.
    QVERIFY(rig.engine->kill(longId).ok());
    QTRY_COMPARE_WITH_TIMEOUT(rig.fallbackPlan->disposeSuccesses, 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(finished.cbegin(), finished.cend(),
                                         [&](const QList<QVariant> &args) { return args[0].toULongLong() == longId; }),
                             30000);
    for (const ProcessInfo &info : rig.engine->processes()) {
        if (info.id == longId) {
            QVERIFY(!info.running);
            QVERIFY(info.exit.signaled);
        }
    }
    QVERIFY(!rig.engine->kill(longId).ok());
    QVERIFY(!rig.engine->kill(987654).ok());
}

void ActivationTest::reactivationUsesAFreshInstance()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("one") } })).ok);
    quint64 longId = 0;
    Result<std::shared_ptr<SandboxProcess>> longRunning
        = rig.engine->spawn(rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                          QStringLiteral("echo $FAULT_LAUNCHER; exec sleep 60") }),
                            &longId);
    QVERIFY(longRunning.ok());
    QByteArray longOut;
    connect(longRunning.value().get(), &SandboxProcess::stdoutReady, this, [&](const QByteArray &d) { longOut += d; });
    QTRY_COMPARE_WITH_TIMEOUT(longOut.trimmed(), QByteArray("fault#2"), 30000);

    const ActivationResult again
        = rig.activate(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("two") } }));
    QVERIFY2(again.ok, qPrintable(again.error.toString()));
    QCOMPARE(rig.faultPlan->configured.last().values.values.value(QStringLiteral("label")).toString(),
             QStringLiteral("two"));
    QCOMPARE(run(rig, QStringLiteral("echo $FAULT_LAUNCHER")).out.trimmed(), QByteArray("fault#3"));
    QCOMPARE(rig.faultPlan->disposeCalls, 0);
    QVERIFY(rig.engine->kill(longId).ok());
    QTRY_COMPARE_WITH_TIMEOUT(rig.faultPlan->disposedInstances, QStringList{ QStringLiteral("fault#2") }, 30000);
    QCOMPARE(rig.settingsFile()
                 .value(QStringLiteral("backends"))
                 .toObject()
                 .value(QStringLiteral("builtin:fault"))
                 .toObject()
                 .value(QStringLiteral("label"))
                 .toString(),
             QStringLiteral("two"));
}

void ActivationTest::spawnWithoutAnActiveBackendRunsNothing()
{
    EngineRig rig;
    const QString marker = rig.dir.filePath(QStringLiteral("workspace/ran"));
    Result<std::shared_ptr<SandboxProcess>> spawned = rig.engine->spawn(
        rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("touch ") + marker }));
    QVERIFY(!spawned.ok());
    QVERIFY(spawned.error().message.contains(QStringLiteral("No sandbox backend is active")));
    // No launcher was asked to start it, so nothing can run it later.
    QCOMPARE(rig.fallbackPlan->spawnCalls + rig.faultPlan->spawnCalls, 0);
    QVERIFY(!QFile::exists(marker));
    QVERIFY(rig.engine->processes().isEmpty());

    // Bad requests are refused before any launcher sees them.
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    QCOMPARE(rig.engine->spawn(rig.command({})).error().where, QStringLiteral("spawn.argv"));
    SpawnRequest relative = rig.command({ QStringLiteral("/bin/true") });
    relative.cwd = QStringLiteral("workspace");
    QCOMPARE(rig.engine->spawn(relative).error().where, QStringLiteral("spawn.cwd"));

    // A working directory outside the workspace it names is refused, a symbolic link inside
    // the workspace that leads out of it included; nothing runs.
    const QString workspace = rig.dir.filePath(QStringLiteral("workspace"));
    QVERIFY(QDir().mkpath(workspace + QStringLiteral("/sub")));
    QVERIFY(QDir().mkpath(rig.dir.filePath(QStringLiteral("beside"))));
    QVERIFY(QFile::link(rig.dir.path(), workspace + QStringLiteral("/up")));
    const QString ran = rig.dir.filePath(QStringLiteral("ran-outside"));
    for (const QString &cwd : { rig.dir.path(), rig.dir.filePath(QStringLiteral("beside")), QStringLiteral("/"),
                                QString(workspace + QStringLiteral("/up")) }) {
        SpawnRequest outside = rig.command({ QStringLiteral("/usr/bin/touch"), ran });
        outside.cwd = cwd;
        outside.workspace = workspace;
        const Result<std::shared_ptr<SandboxProcess>> refused = rig.engine->spawn(outside);
        QVERIFY2(!refused.ok(), qPrintable(cwd));
        QCOMPARE(refused.error().where, QStringLiteral("spawn.cwd"));
        QVERIFY2(refused.error().message.contains(cwd) && refused.error().message.contains(workspace),
                 qPrintable(refused.error().message));
    }
    SpawnRequest missing = rig.command({ QStringLiteral("/bin/true") });
    missing.workspace = rig.dir.filePath(QStringLiteral("no-such-folder"));
    QCOMPARE(rig.engine->spawn(missing).error().where, QStringLiteral("spawn.workspace"));
    QVERIFY(rig.engine->processes().isEmpty());

    // A sub-folder of the workspace is a working directory the engine accepts.
    SpawnRequest inside = rig.command({ QStringLiteral("/bin/true") });
    inside.cwd = workspace + QStringLiteral("/sub");
    inside.workspace = workspace;
    QVERIFY(rig.engine->spawn(inside).ok());
}

void ActivationTest::restoreActivatesTheSavedSelection()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("saved") } })).ok);
    rig.restart();
    QCOMPARE(rig.engine->activeRef(), std::nullopt);
    const ActivationResult restored = await(rig.engine->restore());
    QVERIFY2(restored.ok, qPrintable(restored.error.toString()));
    QCOMPARE(rig.engine->activeRef(), EngineRig::faultRef());
    QCOMPARE(rig.faultPlan->configured.last().values.values.value(QStringLiteral("label")).toString(),
             QStringLiteral("saved"));
    QVERIFY(warningsBesidesPlaintext(*rig.engine).isEmpty());
}

void ActivationTest::restoreFallsBackToAuto()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    rig.faultPlan->unavailable = true;
    rig.restart();
    const ActivationResult restored = await(rig.engine->restore());
    QVERIFY2(restored.ok, qPrintable(restored.error.toString()));
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    const QStringList warnings = warningsBesidesPlaintext(*rig.engine);
    QCOMPARE(warnings.size(), 1);
    QVERIFY(warnings.first().contains(QStringLiteral("builtin:fault")));
}

void ActivationTest::restoreWithNothingActivatableLeavesNoBackend()
{
    EngineRig rig;
    rig.fallbackPlan->failPrepare = true;
    const ActivationResult restored = await(rig.engine->restore());
    QVERIFY(!restored.ok);
    QCOMPARE(rig.engine->activeRef(), std::nullopt);
    QVERIFY(!rig.engine->spawn(rig.command({ QStringLiteral("/bin/true") })).ok());
    QVERIFY(rig.engine->warnings()
                .join(QLatin1Char('\n'))
                .contains(QStringLiteral("No sandbox backend could be activated")));
    QVERIFY(!QFile::exists(rig.settingsPath()));
}

void ActivationTest::vmBackendIsListedButNeverRuns()
{
    EngineRig rig;
    rig.engine->registerBuiltin(createVmLauncher());
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    QTRY_VERIFY(rig.engine->backend(BackendRef::builtin(QStringLiteral("vm")))
                    .value()
                    .availability.reason.contains(QStringLiteral("has not been prepared")));
    const BackendInfo vm = rig.engine->backend(BackendRef::builtin(QStringLiteral("vm"))).value();
    QVERIFY(!vm.availability.available);
    QCOMPARE(vm.sourceLabel, QStringLiteral("Built-in"));

    const ActivationResult result = rig.activate(BackendRef::builtin(QStringLiteral("vm")));
    QVERIFY(!result.ok);
    QCOMPARE(result.failedStep, ActivationStep::Prepare);
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());

    std::shared_ptr<Launcher> launcher = createVmLauncher();
    QVERIFY(!launcher->spawn(rig.command({ QStringLiteral("/bin/true") }), Policy::defaults()).ok());
}

void ActivationTest::activationNeverRewritesPolicy()
{
    EngineRig rig;
    // Still one the rig's host-process launchers may serve: it restricts nothing.
    Policy policy = unconfinedPolicy();
    policy.readable.append(QStringLiteral("/opt"));
    QSignalSpy policyChanged(rig.engine.get(), &Engine::policyChanged);
    QVERIFY(rig.engine->setPolicy(policy).ok());
    QCOMPARE(policyChanged.size(), 1);
    const QString policyPath = QDir(rig.configDir).filePath(QStringLiteral("policy.json"));
    const QByteArray before = readFile(policyPath);
    const QDateTime modified = QFileInfo(policyPath).lastModified();
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    QCOMPARE(readFile(policyPath), before);
    QCOMPARE(QFileInfo(policyPath).lastModified(), modified);
    QCOMPARE(rig.engine->policy(), policy);
    QCOMPARE(policyChanged.size(), 1);
}

void ActivationTest::thePrepareEventCarriesWhatTheLauncherReported()
{
    EngineRig rig;
    auto prepareSucceeded = [&](quint64 id) {
        for (const ActivationEvent &event : rig.observer->events(id)) {
            if (event.step == ActivationStep::Prepare && event.state == ActivationEvent::State::Succeeded)
                return std::optional<QString>(event.message);
        }
        return std::optional<QString>();
    };
    rig.faultPlan->prepareNote = QStringLiteral("restored from baseline 0123");
    const ActivationResult first = rig.activate(EngineRig::faultRef());
    QVERIFY2(first.ok, qPrintable(first.error.toString()));
    QCOMPARE(prepareSucceeded(first.activationId),
             std::optional<QString>(QStringLiteral("restored from baseline 0123")));

    // The next activation's event says only what its own prepare() reported.
    rig.faultPlan->prepareNote.clear();
    const ActivationResult second = rig.activate(EngineRig::faultRef());
    QVERIFY2(second.ok, qPrintable(second.error.toString()));
    QCOMPARE(prepareSucceeded(second.activationId), std::optional<QString>(QString()));
}

void ActivationTest::aNoteAboutASandboxsStartReachesItsProcess()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    rig.faultPlan->hangAt = QStringLiteral("spawn");
    QSignalSpy noted(rig.engine.get(), &Engine::processNoted);
    quint64 id = 0;
    Result<std::shared_ptr<SandboxProcess>> spawned
        = rig.engine->spawn(rig.command({ QStringLiteral("/bin/sleep"), QStringLiteral("60") }), &id);
    QVERIFY(spawned.ok());
    // The launcher says how the sandbox started (a VM restored from a baseline, or why not).
    emit spawned.value()->noted(QStringLiteral("workspace VM restored from baseline b1, 3 shares attached"));
    emit spawned.value()->noted(QStringLiteral("second note"));
    QCOMPARE(noted.size(), 2);
    const ProcessInfo published = noted.at(1).at(0).value<ProcessInfo>();
    QCOMPARE(published.id, id);
    const QStringList expected{ QStringLiteral("workspace VM restored from baseline b1, 3 shares attached"),
                                QStringLiteral("second note") };
    QCOMPARE(published.notes, expected);
    QCOMPARE(rig.engine->processes().constFirst().notes, expected);
    QVERIFY(rig.engine->kill(id).ok());
    QTRY_VERIFY(!spawned.value()->isRunning());
}

void ActivationTest::hostInteractionAnswered()
{
    EngineRig rig;
    rig.faultPlan->askDuringPrepare = true;
    Engine *engine = rig.engine.get();
    QList<HostInteractionRequest> asked;
    connect(
        engine, &Engine::hostInteractionRequested, this,
        [&](const HostInteractionRequest &request) {
            asked.append(request);
            engine->answerInteraction(HostInteractionResponse{ request.id, true, {} });
        },
        Qt::QueuedConnection);
    const ActivationResult result = rig.activate(EngineRig::faultRef());
    QVERIFY2(result.ok, qPrintable(result.error.toString()));
    QCOMPARE(asked.size(), 1);
    QVERIFY(!asked.first().id.isEmpty());
    QVERIFY(asked.first().hasRef);
    QCOMPARE(asked.first().ref, EngineRig::faultRef());
}

void ActivationTest::hostInteractionWithoutPresenterIsRefused()
{
    EngineRig rig;
    rig.faultPlan->askDuringPrepare = true;
    const ActivationResult result = rig.activate(EngineRig::faultRef());
    QVERIFY(!result.ok);
    QCOMPARE(result.failedStep, ActivationStep::Prepare);
    QVERIFY(result.error.message.contains(QStringLiteral("declined")));
}

void ActivationTest::hostInteractionTimesOut()
{
    EngineRig::Setup setup;
    setup.interactionTimeoutMs = 200;
    EngineRig rig(setup);
    rig.faultPlan->askDuringPrepare = true;
    int asked = 0;
    connect(
        rig.engine.get(), &Engine::hostInteractionRequested, this, [&] { ++asked; }, Qt::QueuedConnection);
    const ActivationResult result = rig.activate(EngineRig::faultRef());
    QCOMPARE(asked, 1);
    QVERIFY(!result.ok);
    QCOMPARE(result.failedStep, ActivationStep::Prepare);
    QCOMPARE(rig.engine->activeRef(), std::nullopt);
}

void ActivationTest::malformedHostInteractionIsRefusedUnseen()
{
    // A presenter is attached and would accept anything, and nobody answers within the
    // minute: only refusing the malformed question up front ends this activation.
    EngineRig::Setup setup;
    setup.interactionTimeoutMs = 60000;
    EngineRig rig(setup);
    rig.faultPlan->askDuringPrepare = true;
    rig.faultPlan->askMalformed = true;
    Engine *engine = rig.engine.get();
    int asked = 0;
    connect(
        engine, &Engine::hostInteractionRequested, this,
        [&](const HostInteractionRequest &request) {
            ++asked;
            engine->answerInteraction(HostInteractionResponse{ request.id, true, {} });
        },
        Qt::QueuedConnection);
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression(QStringLiteral("builtin:fault.*options.*only a choice has options")));

    QFuture<ActivationResult> activation = engine->activate(EngineRig::faultRef());
    QTRY_VERIFY_WITH_TIMEOUT(activation.isFinished(), 5000);
    const ActivationResult result = activation.result();
    QVERIFY(!result.ok);
    QCOMPARE(result.failedStep, ActivationStep::Prepare);
    QVERIFY2(result.error.message.contains(QStringLiteral("only a choice has options")),
             qPrintable(result.error.toString()));
    QCOMPARE(asked, 0);
    QCOMPARE(rig.engine->activeRef(), std::nullopt);
    QMutexLocker locker(&rig.faultPlan->mutex);
    QCOMPARE(rig.faultPlan->answers.size(), 1);
    QVERIFY(!rig.faultPlan->answers.first().accepted);
}

void ActivationTest::spawnTimeoutKillsTheProcess()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    SpawnRequest request
        = rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exec sleep 60") });
    request.timeoutMs = 100;
    quint64 id = 0;
    QSignalSpy finished(rig.engine.get(), &Engine::processFinished);
    QVERIFY(rig.engine->spawn(request, &id).ok());
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    const ExitStatus status = finished.first().at(1).value<ExitStatus>();
    QVERIFY(status.timedOut);
    QVERIFY(status.signaled);
}

void ActivationTest::cleanupGivesUpAfterItsAttemptsAndSaysSo()
{
    EngineRig rig; // six attempts, 50 ms doubling up to 200 ms
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    rig.fallbackPlan->disposeFailures = 1000;
    const ActivationResult result = rig.activate(EngineRig::faultRef());
    QVERIFY(result.ok);
    QTRY_COMPARE(rig.observer->cleanupWarnings().size(), 6);
    const QList<CleanupWarning> warnings = rig.observer->cleanupWarnings();
    for (int i = 0; i < warnings.size(); ++i) {
        QCOMPARE(warnings[i].attempt, i + 1);
        QCOMPARE(warnings[i].willRetry, i + 1 < 6);
    }
    QVERIFY(rig.engine->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("could not be released")));
    // Given up: nothing is left to try, so no seventh call can come.
    QCOMPARE(rig.engine->pendingDisposals(), 0);
    QCOMPARE(rig.fallbackPlan->disposeCalls, 6);
    QCOMPARE(rig.engine->activeRef(), EngineRig::faultRef());
}

void ActivationTest::singleInstanceBackendIsNeverDisposedWhileActive()
{
    EngineRig rig;
    auto soloPlan = std::make_shared<FaultPlan>();
    auto solo = std::make_shared<FaultInjectingLauncher>(QStringLiteral("solo"), soloPlan);
    rig.engine->registerBuiltin(solo);
    const BackendRef soloRef = BackendRef::builtin(QStringLiteral("solo"));
    QVERIFY(rig.activate(soloRef).ok);
    quint64 longId = 0;
    QVERIFY(
        rig.engine
            ->spawn(rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exec sleep 60") }),
                    &longId)
            .ok());

    // Replaced while it still runs a process: its disposal waits for that process...
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    // ...but it becomes active again first, so it must not be disposed when that process ends.
    QVERIFY(rig.activate(soloRef, values({ { QStringLiteral("label"), QStringLiteral("again") } })).ok);
    QCOMPARE(soloPlan->instancesMade, 1);
    QCOMPARE(soloPlan->configured.size(), 2);
    QVERIFY(rig.engine->kill(longId).ok());
    QTRY_COMPARE(rig.faultPlan->disposeSuccesses, 1);
    // Cleanup settled with nothing left to dispose: the active instance is not among it.
    QTRY_COMPARE(rig.engine->pendingDisposals(), 0);
    QCOMPARE(soloPlan->disposeCalls, 0);
    QCOMPARE(run(rig, QStringLiteral("echo $FAULT_LAUNCHER")).out.trimmed(), QByteArray("solo#1"));
}

QTEST_GUILESS_MAIN(ActivationTest)
#include "tst_activation.moc"
