#pragma once

#include "core/launcher/Launcher.h"

#include <QMutex>
#include <QPromise>
#include <QStringList>

#include <memory>

namespace sandbox::test {

// What a FaultInjectingLauncher should get wrong, and what it saw. Shared by every
// instance one test makes, so a test can steer and observe the launchers the engine
// creates per activation.
struct FaultPlan
{
    mutable QMutex mutex;

    // --- faults (set before the engine calls)
    bool failConfigure = false;
    bool failPrepare = false;
    bool unavailable = false;
    // Non-empty: available only once configured with this "label" (as a runtime is
    // reachable only at the endpoint its settings name).
    QString availableWithLabel;
    // Non-empty: available only once configured with a value for this secret field.
    QString availableWithSecret;
    bool notifyWhileProbing = false; // reports an availability change during isAvailable()
    bool askDuringPrepare = false; // prepare() asks the host and fails unless accepted
    bool askMalformed = false; // with askDuringPrepare: the confirm carries options (invalid)
    int disposeFailures = 0; // the next N disposeIdle() calls fail
    int prepareDelayMs = 0;
    QString prepareNote; // reported to the host during prepare() (the prepare event carries it)
    // A call that never answers: "configure", "prepare", "probe", "spawn" (the sandbox never
    // starts until killed) or "dispose". Empty: every call answers.
    QString hangAt;
    QList<FieldSpec> fields; // the settings schema; defaults: label (string), count (number)
    QMap<QString, int> timeouts; // the descriptor's stated bounds (seconds)

    // --- observations
    int preparesRunning = 0;
    int maxPreparesRunning = 0;
    QStringList prepareLog; // "<kind>:<label>" of every prepare(), in call order
    // What every prepared instance was configured with, in prepare() order (an instance
    // the engine configures only to probe it for listing is not prepared, so not here).
    QList<ResolvedSettings> configured;
    QList<HostInteractionResponse> answers; // what every ask() resolved with
    int instancesMade = 0;
    int spawnCalls = 0; // spawn() calls, whatever they returned
    int disposeCalls = 0;
    int disposeSuccesses = 0;
    QStringList disposedInstances; // "<kind>#<instance>" of every successful disposal
    // The calls left unanswered (kept alive, so only the engine can cancel them).
    QList<std::shared_ptr<QPromise<Status>>> hangingCalls;
    QList<std::shared_ptr<QPromise<Availability>>> hangingProbes;

    FaultPlan();
};

// A real launcher for tests: it runs commands as host processes (UnconfinedProcess) and fails
// on purpose where its FaultPlan says, so tests can break each activation step. Only tests
// register it; it is not part of any build of the product.
class FaultInjectingLauncher final : public Launcher
{
public:
    FaultInjectingLauncher(QString kind, std::shared_ptr<FaultPlan> plan);

    int instance() const { return m_instance; }

    QString kind() const override;
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    // The child sees FAULT_LAUNCHER=<kind>#<instance> in its environment.
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

    // A factory for Engine::registerBuiltin / test packs.
    static std::function<std::shared_ptr<Launcher>()> factory(const QString &kind, std::shared_ptr<FaultPlan> plan);

private:
    // A future that never finishes unless the engine cancels it; caller holds the plan's mutex.
    QFuture<Status> hangingCall();

    QString m_kind;
    std::shared_ptr<FaultPlan> m_plan;
    int m_instance = 0;
    QString m_label;
    ResolvedSettings m_configuredWith;
};

} // namespace sandbox::test
