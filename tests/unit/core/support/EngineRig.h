#pragma once

#include "EngineObserver.h"
#include "FailingSettingsStore.h"
#include "FaultInjectingLauncher.h"
#include "core/Engine.h"

#include <QTemporaryDir>

#include <memory>

namespace sandbox::test {

// An engine on real files in a temporary directory, with two test backends,
// builtin:host-fallback (the engine's fallback in place of auto) and builtin:fault, both
// FaultInjectingLaunchers steered through their plans, under a policy that restricts
// nothing (the launchers run host processes and say so). No test launcher is ever
// registered as builtin:auto.
class EngineRig final
{
public:
    struct Setup
    {
        bool allowPlaintextSecrets = true; // false: the real OS keychain
        QString keychainService;
        int interactionTimeoutMs = 120000;
        bool registerBackends = true;
        LauncherBounds launcherBounds; // overrides of the launcher call bounds
        // The test launchers run host processes and enforce nothing: the rig's engine runs
        // under unconfinedPolicy(). False: the stored policy (defaults when none).
        bool unconfinedPolicy = true;
    };

    EngineRig();
    explicit EngineRig(Setup setup);
    ~EngineRig();

    static BackendRef fallbackRef() { return BackendRef::builtin(QStringLiteral("host-fallback")); }
    static BackendRef faultRef() { return BackendRef::builtin(QStringLiteral("fault")); }

    // Destroys the engine and starts a new one on the same files (a restart of the app).
    void restart();

    ActivationResult activate(const BackendRef &ref, std::optional<SettingsValues> candidate = std::nullopt,
                              const QList<SecretUpdate> &secrets = {});
    SpawnRequest command(const QStringList &argv) const;
    QJsonObject settingsFile() const;
    QString settingsPath() const;

    QTemporaryDir dir;
    QString configDir;
    QString stateDir;
    Setup setup;
    std::shared_ptr<FaultPlan> fallbackPlan = std::make_shared<FaultPlan>();
    std::shared_ptr<FaultPlan> faultPlan = std::make_shared<FaultPlan>();
    std::shared_ptr<FailingSettingsStore> store;
    std::unique_ptr<Engine> engine;
    std::unique_ptr<EngineObserver> observer;

private:
    void start();
};

SettingsValues values(std::initializer_list<std::pair<QString, QJsonValue>> list);

} // namespace sandbox::test
