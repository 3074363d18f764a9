#include "EngineRig.h"

#include "UnconfinedPolicy.h"

#include <QDir>

namespace sandbox::test {

EngineRig::EngineRig()
    : EngineRig(Setup())
{ }

EngineRig::EngineRig(Setup rigSetup)
    : setup(std::move(rigSetup))
{
    configDir = dir.filePath(QStringLiteral("config"));
    stateDir = dir.filePath(QStringLiteral("state"));
    QDir().mkpath(dir.filePath(QStringLiteral("workspace")));
    start();
}

EngineRig::~EngineRig()
{
    observer.reset();
    engine.reset();
}

void EngineRig::start()
{
    store = std::make_shared<FailingSettingsStore>(configDir);
    Engine::Options options;
    options.configDirectory = configDir;
    options.stateDirectory = stateDir;
    options.allowPlaintextSecrets = setup.allowPlaintextSecrets;
    if (!setup.keychainService.isEmpty())
        options.keychainService = setup.keychainService;
    options.settingsStore = store;
    options.cleanupRetryInitialMs = 50;
    options.cleanupRetryMaxMs = 200;
    options.cleanupRetryAttempts = 6;
    options.interactionTimeoutMs = setup.interactionTimeoutMs;
    options.launcherBounds = setup.launcherBounds;
    options.fallback = fallbackRef();
    engine = std::make_unique<Engine>(options);
    if (setup.unconfinedPolicy) {
        if (const Status set = engine->setPolicy(unconfinedPolicy()); !set.ok())
            qFatal("setting the host process policy failed: %s", qPrintable(set.error().toString()));
    }
    observer = std::make_unique<EngineObserver>(engine.get());
    if (setup.registerBackends) {
        engine->registerBuiltin(fallbackRef().kind(),
                                FaultInjectingLauncher::factory(fallbackRef().kind(), fallbackPlan));
        engine->registerBuiltin(QStringLiteral("fault"),
                                FaultInjectingLauncher::factory(QStringLiteral("fault"), faultPlan));
    }
}

void EngineRig::restart()
{
    observer.reset();
    engine.reset();
    start();
}

ActivationResult EngineRig::activate(const BackendRef &ref, std::optional<SettingsValues> candidate,
                                     const QList<SecretUpdate> &secrets)
{
    return await(engine->activate(ref, std::move(candidate), secrets));
}

SpawnRequest EngineRig::command(const QStringList &argv) const
{
    SpawnRequest request;
    request.argv = argv;
    request.cwd = dir.filePath(QStringLiteral("workspace"));
    return request;
}

QString EngineRig::settingsPath() const
{
    return QDir(configDir).filePath(QStringLiteral("settings.json"));
}

QJsonObject EngineRig::settingsFile() const
{
    return readJson(settingsPath());
}

SettingsValues values(std::initializer_list<std::pair<QString, QJsonValue>> list)
{
    SettingsValues result;
    for (const auto &[key, value] : list)
        result.values.insert(key, value);
    return result;
}

} // namespace sandbox::test
