// Many activations requested at once from several threads run one at a time, in the order
// they were queued, while commands keep being spawned: every spawn runs on the old or the
// new launcher and at no instant is there no active backend.
#include "EngineRig.h"

#include <QAtomicInt>
#include <QTest>
#include <QThread>

using namespace sandbox;
using namespace sandbox::test;

class ActivationConcurrencyTest final : public QObject
{
    Q_OBJECT

private slots:
    void activationsRunOneAtATimeInQueueOrder();
};

void ActivationConcurrencyTest::activationsRunOneAtATimeInQueueOrder()
{
    EngineRig::Setup setup;
    setup.registerBackends = false;
    EngineRig rig(setup);
    // Both backends share one plan, so it sees every prepare() of either.
    auto plan = std::make_shared<FaultPlan>();
    plan->prepareDelayMs = 15;
    QVERIFY(rig.engine
                ->registerBuiltin(EngineRig::fallbackRef().kind(),
                                  FaultInjectingLauncher::factory(EngineRig::fallbackRef().kind(), plan))
                .ok());
    QVERIFY(
        rig.engine
            ->registerBuiltin(QStringLiteral("fault"), FaultInjectingLauncher::factory(QStringLiteral("fault"), plan))
            .ok());
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    {
        QMutexLocker locker(&plan->mutex);
        plan->prepareLog.clear();
    }

    // A watcher samples the active backend continuously.
    QAtomicInt stop = 0;
    QAtomicInt samples = 0;
    QAtomicInt emptySamples = 0;
    std::unique_ptr<QThread> watcher(QThread::create([&] {
        while (!stop.loadAcquire()) {
            const std::optional<BackendRef> active = rig.engine->activeRef();
            if (!active || (*active != EngineRig::fallbackRef() && *active != EngineRig::faultRef()))
                emptySamples.fetchAndAddOrdered(1);
            samples.fetchAndAddOrdered(1);
        }
    }));
    watcher->start();

    constexpr int threads = 4;
    constexpr int perThread = 6;
    QMutex futuresMutex;
    QList<std::pair<QString, QFuture<ActivationResult>>> requested; // label, future
    QList<QThread *> requesters;
    for (int t = 0; t < threads; ++t) {
        requesters.append(QThread::create([&, t] {
            for (int i = 0; i < perThread; ++i) {
                const QString label = QStringLiteral("t%1-%2").arg(t).arg(i);
                const BackendRef ref = (i + t) % 2 ? EngineRig::faultRef() : EngineRig::fallbackRef();
                QFuture<ActivationResult> future
                    = rig.engine->activate(ref, values({ { QStringLiteral("label"), label } }));
                QMutexLocker locker(&futuresMutex);
                requested.append({ ref.kind() + QLatin1Char(':') + label, future });
            }
        }));
        requesters.last()->start();
    }

    // Meanwhile, spawn commands from this thread until every activation has finished.
    struct Spawned
    {
        std::shared_ptr<SandboxProcess> process;
        BackendRef owner;
        bool finished = false;
        ExitStatus exit;
    };
    QList<std::shared_ptr<Spawned>> spawned;
    int spawnFailures = 0;
    auto allFinished = [&] {
        QMutexLocker locker(&futuresMutex);
        if (requested.size() < threads * perThread)
            return false;
        return std::all_of(requested.cbegin(), requested.cend(), [](const auto &r) { return r.second.isFinished(); });
    };
    while (!allFinished()) {
        quint64 id = 0;
        Result<std::shared_ptr<SandboxProcess>> result = rig.engine->spawn(
            rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exit 0") }), &id);
        if (!result.ok()) {
            ++spawnFailures;
        } else {
            auto entry = std::make_shared<Spawned>();
            entry->process = result.value();
            for (const ProcessInfo &info : rig.engine->processes()) {
                if (info.id == id)
                    entry->owner = info.owner;
            }
            connect(entry->process.get(), &SandboxProcess::finished, this, [entry](const ExitStatus &status) {
                entry->finished = true;
                entry->exit = status;
            });
            spawned.append(entry);
        }
        // Paces the spawns and serves their events; the loop itself ends on an observable
        // condition (every queued activation finished), so this wait cannot make it pass.
        QTest::qWait(3);
    }
    for (QThread *requester : requesters) {
        requester->wait();
        delete requester;
    }
    stop = 1;
    watcher->wait();

    // One at a time, in the order queued.
    QCOMPARE(plan->maxPreparesRunning, 1);
    std::sort(requested.begin(), requested.end(), [](const auto &a, const auto &b) {
        return a.second.result().activationId < b.second.result().activationId;
    });
    QStringList queueOrder;
    for (const auto &[label, future] : std::as_const(requested)) {
        QVERIFY2(future.result().ok, qPrintable(future.result().error.toString()));
        queueOrder.append(label);
    }
    QCOMPARE(plan->prepareLog, queueOrder);
    // The last activation queued is the one that stands.
    QCOMPARE(rig.engine->activeRef()->kind(), queueOrder.last().section(QLatin1Char(':'), 0, 0));

    // Spawns kept working throughout, on the old or the new launcher.
    QCOMPARE(spawnFailures, 0);
    QVERIFY(spawned.size() > 10);
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(spawned.cbegin(), spawned.cend(), [](const auto &s) { return s->finished; }),
                             30000);
    for (const auto &entry : std::as_const(spawned)) {
        QVERIFY(entry->owner == EngineRig::fallbackRef() || entry->owner == EngineRig::faultRef());
        QCOMPARE(entry->exit.exitCode, 0);
    }
    QVERIFY(samples.loadAcquire() > 0);
    QCOMPARE(emptySamples.loadAcquire(), 0);

    // Every replaced launcher is eventually disposed; only the active one remains.
    QTRY_COMPARE(plan->disposeSuccesses, threads * perThread);
}

QTEST_GUILESS_MAIN(ActivationConcurrencyTest)
#include "tst_activationconcurrency.moc"
