// Every launcher call runs under a bound the engine owns. A launcher that never answers
// configure(), prepare(), the availability probe, a spawn's start or disposeIdle() is
// cancelled when its bound passes: the activation fails at that step with "timed out
// after N s", the queue moves on, the previous backend keeps serving, and the engine
// shuts down without waiting for the launcher.
#include "EngineRig.h"

#include <QSignalSpy>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

namespace {

LauncherBounds shortBounds()
{
    return LauncherBounds{ 300, 300, 300, 300, 300 };
}

EngineRig::Setup withBounds(LauncherBounds bounds)
{
    EngineRig::Setup setup;
    setup.launcherBounds = bounds;
    return setup;
}

bool anyCancelled(const FaultPlan &plan)
{
    QMutexLocker locker(&plan.mutex);
    for (const auto &promise : plan.hangingCalls) {
        if (promise->isCanceled())
            return true;
    }
    for (const auto &promise : plan.hangingProbes) {
        if (promise->isCanceled())
            return true;
    }
    return false;
}

} // namespace

class LauncherBoundsTest final : public QObject
{
    Q_OBJECT

private slots:
    void unansweredActivationCallTimesOut_data();
    void unansweredActivationCallTimesOut();
    void descriptorStatesItsOwnBound();
    void unansweredDisposeIsAWarningAndRetried();
    void sandboxThatNeverStartsIsKilled();
    void unansweredListingProbeMarksTheBackendUnavailable();
    void shutdownDoesNotWaitForAnUnansweredCall();
    void unknownBackendIsRefusedAtOnce();
};

void LauncherBoundsTest::unansweredActivationCallTimesOut_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<ActivationStep>("step");
    QTest::addColumn<QString>("named");
    QTest::newRow("configure") << QStringLiteral("configure") << ActivationStep::Prepare
                               << QStringLiteral("configure()");
    QTest::newRow("prepare") << QStringLiteral("prepare") << ActivationStep::Prepare << QStringLiteral("prepare()");
    QTest::newRow("probe") << QStringLiteral("probe") << ActivationStep::Probe << QStringLiteral("availability probe");
}

void LauncherBoundsTest::unansweredActivationCallTimesOut()
{
    QFETCH(QString, call);
    QFETCH(ActivationStep, step);
    QFETCH(QString, named);
    EngineRig rig(withBounds(shortBounds()));
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);

    rig.faultPlan->hangAt = call;
    // Queued behind the one that hangs: it runs once the bound has passed.
    QFuture<ActivationResult> hanging = rig.engine->activate(EngineRig::faultRef());
    QFuture<ActivationResult> next = rig.engine->activate(
        EngineRig::fallbackRef(), values({ { QStringLiteral("label"), QStringLiteral("next") } }));

    const ActivationResult failed = await(hanging);
    QVERIFY(!failed.ok);
    QCOMPARE(failed.failedStep, std::optional<ActivationStep>(step));
    QVERIFY2(failed.error.message.contains(named + QStringLiteral(" timed out after 0.3 s")),
             qPrintable(failed.error.toString()));
    QCOMPARE(failed.active, EngineRig::fallbackRef());
    QVERIFY(anyCancelled(*rig.faultPlan));

    const ActivationResult moved = await(next);
    QVERIFY2(moved.ok, qPrintable(moved.error.toString()));
    QCOMPARE(rig.engine->activeRef(), std::optional<BackendRef>(EngineRig::fallbackRef()));

    // The previous backend kept serving throughout: a command runs on it.
    Result<std::shared_ptr<SandboxProcess>> spawned = rig.engine->spawn(rig.command({ QStringLiteral("/bin/true") }));
    QVERIFY(spawned.ok());
    QSignalSpy finished(spawned.value().get(), &SandboxProcess::finished);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).value<ExitStatus>().exitCode, 0);
}

void LauncherBoundsTest::descriptorStatesItsOwnBound()
{
    const auto run = [](LauncherBounds overrides) {
        EngineRig::Setup setup = withBounds(overrides);
        setup.registerBackends = false;
        EngineRig rig(setup);
        auto plan = std::make_shared<FaultPlan>();
        plan->timeouts = { { QStringLiteral("prepare"), 1 } };
        plan->hangAt = QStringLiteral("prepare");
        const Status registered = rig.engine->registerBuiltin(
            QStringLiteral("stated"), FaultInjectingLauncher::factory(QStringLiteral("stated"), plan));
        if (!registered.ok())
            return registered.error().toString();
        return rig.activate(BackendRef::builtin(QStringLiteral("stated"))).error.message;
    };
    const QString stated = run(LauncherBounds());
    QVERIFY2(stated.contains(QStringLiteral("prepare() timed out after 1 s")), qPrintable(stated));
    // The engine's option overrides what the descriptor states.
    const QString overridden = run(LauncherBounds{ 0, 200, 0, 0, 0 });
    QVERIFY2(overridden.contains(QStringLiteral("prepare() timed out after 0.2 s")), qPrintable(overridden));
}

void LauncherBoundsTest::unansweredDisposeIsAWarningAndRetried()
{
    EngineRig rig(withBounds(shortBounds()));
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    rig.faultPlan->hangAt = QStringLiteral("dispose");
    const ActivationResult result = rig.activate(EngineRig::fallbackRef());
    QVERIFY2(result.ok, qPrintable(result.error.toString()));
    QCOMPARE(rig.engine->activeRef(), std::optional<BackendRef>(EngineRig::fallbackRef()));
    const QStringList trace = rig.observer->trace(result.activationId);
    QVERIFY2(trace.contains(QStringLiteral("cleanup:warning")), qPrintable(trace.join(QLatin1Char(' '))));
    QVERIFY(anyCancelled(*rig.faultPlan));

    // The retries in the background are bounded the same way, and say so.
    QTRY_VERIFY_WITH_TIMEOUT(rig.observer->cleanupWarnings().size() >= 2, 20000);
    const CleanupWarning warning = rig.observer->cleanupWarnings().last();
    QCOMPARE(warning.ref, EngineRig::faultRef());
    QVERIFY2(warning.message.contains(QStringLiteral("disposeIdle() timed out after 0.3 s")),
             qPrintable(warning.message));
}

void LauncherBoundsTest::sandboxThatNeverStartsIsKilled()
{
    EngineRig rig(withBounds(shortBounds()));
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    rig.faultPlan->hangAt = QStringLiteral("spawn");
    QSignalSpy ended(rig.engine.get(), &Engine::processFinished);
    quint64 id = 0;
    Result<std::shared_ptr<SandboxProcess>> spawned
        = rig.engine->spawn(rig.command({ QStringLiteral("/bin/sleep"), QStringLiteral("60") }), &id);
    QVERIFY(spawned.ok());
    QVERIFY(ended.wait(20000));
    QCOMPARE(ended.at(0).at(0).toULongLong(), id);
    QVERIFY(ended.at(0).at(1).value<ExitStatus>().timedOut);
    QVERIFY(!spawned.value()->isRunning());
    QVERIFY(!rig.engine->processes().constFirst().running);
}

void LauncherBoundsTest::unansweredListingProbeMarksTheBackendUnavailable()
{
    EngineRig::Setup setup = withBounds(shortBounds());
    setup.registerBackends = false;
    EngineRig rig(setup);
    auto plan = std::make_shared<FaultPlan>();
    plan->hangAt = QStringLiteral("probe");
    QVERIFY(
        rig.engine
            ->registerBuiltin(QStringLiteral("silent"), FaultInjectingLauncher::factory(QStringLiteral("silent"), plan))
            .ok());
    const BackendRef silent = BackendRef::builtin(QStringLiteral("silent"));
    QTRY_VERIFY_WITH_TIMEOUT(
        rig.engine->backend(silent).value().availability.reason.contains(QStringLiteral("timed out after 0.3 s")),
        20000);
    QVERIFY(!rig.engine->backend(silent).value().availability.available);
    QVERIFY(anyCancelled(*plan));
}

void LauncherBoundsTest::shutdownDoesNotWaitForAnUnansweredCall()
{
    // Bounds long enough that only the shutdown can end the wait.
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    rig.faultPlan->hangAt = QStringLiteral("prepare");
    QFuture<ActivationResult> hanging = rig.engine->activate(EngineRig::faultRef());
    QFuture<ActivationResult> queued = rig.engine->activate(EngineRig::fallbackRef());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            QMutexLocker locker(&rig.faultPlan->mutex);
            return !rig.faultPlan->hangingCalls.isEmpty();
        }(),
        20000);

    rig.observer.reset();
    rig.engine.reset();
    QVERIFY(hanging.isFinished());
    QVERIFY(!hanging.result().ok);
    QVERIFY2(hanging.result().error.message.contains(QStringLiteral("shutting down")),
             qPrintable(hanging.result().error.toString()));
    QVERIFY(queued.isFinished());
    QVERIFY(!queued.result().ok);
    QVERIFY(anyCancelled(*rig.faultPlan));
}

// Activating a backend that is not registered is answered at once, even while another
// activation holds the queue, and runs no transaction: no step is reported for it.
void LauncherBoundsTest::unknownBackendIsRefusedAtOnce()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    rig.faultPlan->hangAt = QStringLiteral("prepare");
    QFuture<ActivationResult> hanging = rig.engine->activate(EngineRig::faultRef());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            QMutexLocker locker(&rig.faultPlan->mutex);
            return !rig.faultPlan->hangingCalls.isEmpty();
        }(),
        20000);

    const BackendRef nope = BackendRef::builtin(QStringLiteral("nope"));
    const QFuture<ActivationResult> refused = rig.engine->activate(nope);
    QVERIFY(refused.isFinished());
    const ActivationResult result = refused.result();
    QVERIFY(!result.ok);
    QCOMPARE(result.ref, nope);
    QCOMPARE(result.failedStep, std::optional<ActivationStep>(ActivationStep::Validate));
    QCOMPARE(result.error.message, QStringLiteral("No backend builtin:nope is registered."));
    QCOMPARE(result.active, EngineRig::fallbackRef());
    for (const ActivationEvent &event : rig.observer->allEvents())
        QVERIFY(event.ref != nope);
    QVERIFY(!hanging.isFinished());
}

QTEST_GUILESS_MAIN(LauncherBoundsTest)
#include "tst_launcherbounds.moc"
