#include "Engine.h"

#include "EngineFiles.h"
#include "core/backends/ActivationTransaction.h"
#include "core/backends/ActiveBackend.h"
#include "core/backends/AvailabilityProbe.h"
#include "core/backends/BackendRegistry.h"
#include "core/backends/CleanupScheduler.h"
#include "core/backends/ConfinementCheck.h"
#include "core/backends/HostInteractionBroker.h"
#include "core/backends/StopSignal.h"
#include "core/packs/PackManager.h"
#include "core/processes/ProcessTable.h"
#include "core/processes/ProcessWatch.h"
#include "core/processes/RefusalLog.h"
#include "core/secrets/CredentialStore.h"
#include "core/secrets/CredentialVault.h"
#include "core/secrets/KeychainSecretStore.h"
#include "core/secrets/PlaintextSecretStore.h"
#include "core/secrets/SecretStore.h"
#include "core/secrets/SecretUpdateBatch.h"
#include "core/settings/FileSettingsStore.h"
#include "core/settings/PolicyStore.h"
#include "core/settings/SettingsStore.h"
#include "net/CertificateAuthority.h"
#include "net/CredentialInjector.h"
#include "protocol/JsonReader.h"
#include "protocol/RuntimeDirectory.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QMetaMethod>
#include <QStandardPaths>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

namespace sandbox {

class Engine::Private
{
public:
    Private(Engine *engine, Options engineOptions);
    ~Private();

    quint64 takeActivationId();
    ActivationResult runTransaction(quint64 id, const BackendRef &ref, std::optional<SettingsValues> candidate,
                                    const QList<SecretUpdate> &secrets);
    ActivationResult restoreSelection(quint64 id);
    Status fallBackFrom(const QString &packId, const QString &action);
    void addWarning(const QString &warning);
    LauncherBounds boundsFor(const BackendRef &ref) const;
    void publishRefusal(Refusal refusal);
    // Refuses a spawn before anything runs: the refusal is published and returned as the error.
    Error refuseSpawn(const SpawnRequest &request, const std::optional<BackendRef> &ref, const QString &rule,
                      Error error);

    // Work queued behind an activation when the engine stops is not started: it fails.
    template <typename T> static T stoppedResult(quint64 id)
    {
        const Error error{ QStringLiteral("engine"), Engine::tr("The engine is shutting down."), {} };
        if constexpr (std::is_same_v<T, ActivationResult>) {
            ActivationResult result;
            result.activationId = id;
            result.error = error;
            result.failedStep = ActivationStep::Validate;
            return result;
        } else {
            return T(error);
        }
    }

    template <typename T> QFuture<T> enqueue(std::function<T(quint64 id)> job)
    {
        QMutexLocker locker(&queueMutex);
        const quint64 id = nextActivationId++;
        return QtConcurrent::run(&activationPool, [this, job = std::move(job), id] {
            return stop.isStopped() ? stoppedResult<T>(id) : job(id);
        });
    }

    Engine *q;
    Options options;
    StopSignal stop; // fired first on destruction: every bounded wait ends at once
    // Before everything that reports refusals (launchers, proxies), so they outlive them;
    // cleared first thing on destruction: refusals reported later are dropped.
    RefusalLog refusals;
    QAtomicInt publishingRefusals = 1;
    QThread eventThread;
    QObject *eventContext = nullptr;
    std::unique_ptr<HostInteractionBroker> broker;
    std::shared_ptr<SettingsStore> settings;
    std::shared_ptr<SecretStore> secrets;
    PlaintextSecretStore *plaintextSecrets = nullptr;
    std::unique_ptr<PolicyStore> policyStore;
    std::unique_ptr<CredentialStore> credentials;
    std::shared_ptr<CredentialVault> vault;
    std::shared_ptr<CredentialInjector> injector;
    std::unique_ptr<BackendRegistry> registry;
    // The configuration, state and runtime directories: no sandbox may write them.
    QStringList engineDirectories;
    ProcessTable table;
    std::unique_ptr<ProcessWatch> watch;
    ActiveBackend active;
    std::unique_ptr<CleanupScheduler> cleanup;
    std::unique_ptr<PackManager> packs;
    QThreadPool activationPool;

    QMutex queueMutex;
    quint64 nextActivationId = 1;

    mutable QMutex warningsMutex;
    QStringList warnings;
    std::unique_ptr<AvailabilityProbe> probes;
};

namespace {

QString defaultDirectory(QStandardPaths::StandardLocation location, const QString &configured)
{
    if (!configured.isEmpty())
        return configured;
    return QStandardPaths::writableLocation(location);
}

} // namespace

Engine::Private::Private(Engine *engine, Options engineOptions)
    : q(engine)
    , options(std::move(engineOptions))
{
    options.configDirectory = defaultDirectory(QStandardPaths::AppConfigLocation, options.configDirectory);
    options.stateDirectory = defaultDirectory(QStandardPaths::AppDataLocation, options.stateDirectory);
    warnings = options.startupWarnings;

    eventThread.setObjectName(QStringLiteral("sandbox-engine-events"));
    eventThread.start();
    eventContext = new QObject;
    eventContext->moveToThread(&eventThread);

    broker = std::make_unique<HostInteractionBroker>(
        [this](const HostInteractionRequest &request) {
            if (!q->isSignalConnected(QMetaMethod::fromSignal(&Engine::hostInteractionRequested)))
                return false;
            emit q->hostInteractionRequested(request);
            return true;
        },
        eventContext, options.interactionTimeoutMs, [this](const QString &id) { emit q->hostInteractionSettled(id); });

    settings
        = options.settingsStore ? options.settingsStore : std::make_shared<FileSettingsStore>(options.configDirectory);
    if (options.secretStore) {
        secrets = options.secretStore;
    } else if (options.allowPlaintextSecrets) {
        auto plaintext = std::make_shared<PlaintextSecretStore>(options.configDirectory);
        plaintextSecrets = plaintext.get();
        secrets = plaintext;
    } else {
        secrets = std::make_shared<KeychainSecretStore>(options.keychainService);
    }
    policyStore = std::make_unique<PolicyStore>(options.configDirectory);
    credentials = std::make_unique<CredentialStore>(*secrets, options.configDirectory);
    registry = std::make_unique<BackendRegistry>(
        options.stateDirectory, broker.get(), [this](const BackendRef &ref) { probes->refresh(ref); },
        [this](const Refusal &refusal) { publishRefusal(refusal); });
    probes = std::make_unique<AvailabilityProbe>(AvailabilityProbe::Context{
        *registry, *settings, *secrets, active, [this](const BackendRef &ref) { return boundsFor(ref); }, &stop,
        eventContext, q, [this] { emit q->backendsChanged(); } });
    const QString runtimeDirectory = RuntimeDirectory::directoryFor(options.stateDirectory);
    engineDirectories = { options.configDirectory, options.stateDirectory, runtimeDirectory };
    registry->setEngineDirectories(engineDirectories, runtimeDirectory);
    vault = std::make_shared<CredentialVault>(credentials.get(), credentials->indexPath());
    injector = std::make_shared<CredentialInjector>(EngineFiles::certificateAuthorityDirectory(options.stateDirectory),
                                                    QDir(options.stateDirectory).filePath(QStringLiteral("ca-bundles")),
                                                    vault);
    registry->setCredentialInjector(injector);
    cleanup = std::make_unique<CleanupScheduler>(
        table, eventContext,
        CleanupScheduler::Backoff{ options.cleanupRetryInitialMs, options.cleanupRetryMaxMs,
                                   options.cleanupRetryAttempts },
        [this](const CleanupWarning &warning) {
            if (!warning.willRetry) {
                addWarning(Engine::tr("The resources of %1 could not be released after %2 attempts (%3). Restart "
                                      "the application to release them.")
                               .arg(warning.ref.toString())
                               .arg(warning.attempt)
                               .arg(warning.message));
            }
            emit q->cleanupWarning(warning);
        },
        [this](const BackendRef &ref) { return boundsFor(ref).disposeMs; }, &stop);
    table.setIdleCallback([this](const Launcher *launcher) { cleanup->launcherIdle(launcher); });
    ProcessWatch::Reports reports;
    reports.noted = [this](const ProcessInfo &info) { emit q->processNoted(info); };
    reports.refused = [this](Refusal refusal) { publishRefusal(std::move(refusal)); };
    reports.ended = [this](quint64 id, ExitStatus status) { emit q->processFinished(id, status); };
    watch = std::make_unique<ProcessWatch>(table, std::move(reports));

    // One worker: activations and pack operations run strictly one after another.
    activationPool.setMaxThreadCount(1);
    activationPool.setExpiryTimeout(-1);
    activationPool.setObjectName(QStringLiteral("sandbox-activation"));

    packs = std::make_unique<PackManager>(
        PackManager::Context{ *registry, *settings, *secrets, [this](const BackendRef &ref) { probes->refresh(ref); },
                              [this](const QString &warning) { addWarning(warning); },
                              [this] { emit q->backendsChanged(); } },
        options.configDirectory, QDir(options.stateDirectory).filePath(QStringLiteral("packs")));
}

Engine::Private::~Private()
{
    stop.stop();
    // A proxy channel may outlive the engine a moment: it reads no value any more.
    vault->detach();
    publishingRefusals.storeRelease(0);
    // Process signals arriving from now on are ignored.
    watch->stop();
    // Commands never outlive the engine that confined them.
    for (const std::shared_ptr<SandboxProcess> &process : table.takeRunning()) {
        if (process->thread() == QThread::currentThread()) {
            process->kill();
        } else {
            // Killed, and released, in the thread the process object lives in.
            QMetaObject::invokeMethod(process.get(), [process] { process->kill(); });
        }
    }
    cleanup->shutdown();
    broker->refuseAll();
    activationPool.waitForDone();
    probes->waitForDone();
    QMetaObject::invokeMethod(eventContext, &QObject::deleteLater);
    eventThread.quit();
    eventThread.wait();
    table.setIdleCallback({});
}

LauncherBounds Engine::Private::boundsFor(const BackendRef &ref) const
{
    const std::optional<BackendEntry> entry = registry->entry(ref);
    return LauncherBounds::resolve(entry ? entry->descriptor : BackendDescriptor(), options.launcherBounds);
}

void Engine::Private::publishRefusal(Refusal refusal)
{
    if (!publishingRefusals.loadAcquire())
        return; // shutting down: nobody is left to tell
    if (refusal.ref.isValid() && refusal.backendName.isEmpty()) {
        if (const std::optional<BackendEntry> entry = registry->entry(refusal.ref))
            refusal.backendName = entry->descriptor.name;
    }
    emit q->refusalReported(refusals.record(std::move(refusal)));
}

Error Engine::Private::refuseSpawn(const SpawnRequest &request, const std::optional<BackendRef> &ref,
                                   const QString &rule, Error error)
{
    Refusal refusal;
    refusal.kind = Refusal::Kind::Engine;
    refusal.what = Engine::tr("starting %1").arg(request.argv.value(0));
    refusal.rule = rule;
    refusal.command = Refusal::shortCommand(request.argv);
    if (ref)
        refusal.ref = *ref;
    publishRefusal(std::move(refusal));
    return error;
}

void Engine::Private::addWarning(const QString &warning)
{
    QMutexLocker locker(&warningsMutex);
    if (!warnings.contains(warning))
        warnings.append(warning);
}

quint64 Engine::Private::takeActivationId()
{
    QMutexLocker locker(&queueMutex);
    return nextActivationId++;
}

ActivationResult Engine::Private::runTransaction(quint64 id, const BackendRef &ref,
                                                 std::optional<SettingsValues> candidate,
                                                 const QList<SecretUpdate> &secretUpdates)
{
    ActivationTransaction::Context context{ *registry,
                                            *settings,
                                            *secrets,
                                            active,
                                            *cleanup,
                                            [this](const ActivationEvent &event) { emit q->activationEvent(event); },
                                            [this](const std::optional<BackendRef> &activeRef) {
                                                emit q->activeBackendChanged(activeRef.value_or(BackendRef()));
                                            },
                                            [this] {
                                                // An unreadable policy refuses every spawn; a
                                                // backend is still activated (checked against the
                                                // defaults) so commands run once it is fixed.
                                                Result<Policy> stored = policyStore->load();
                                                return stored.ok() ? stored : Result<Policy>(Policy::defaults());
                                            },
                                            options.launcherBounds,
                                            &stop };
    ActivationTransaction transaction(context,
                                      ActivationTransaction::Request{ id, ref, std::move(candidate), secretUpdates });
    ActivationResult result = transaction.run();
    emit q->activationFinished(result);
    emit q->backendsChanged();
    return result;
}

ActivationResult Engine::Private::restoreSelection(quint64 id)
{
    const BackendRef fallback = options.fallback;
    BackendRef target = fallback;
    Result<SettingsDocument> document = settings->load();
    if (document.ok() && document.value().active)
        target = *document.value().active;
    else if (!document.ok())
        addWarning(document.error().toString());

    ActivationResult result = runTransaction(id, target, std::nullopt, {});
    if (!result.ok && target != fallback) {
        addWarning(Engine::tr("The saved backend %1 could not be activated (%2); the built-in backend %3 is "
                              "used instead.")
                       .arg(target.toString(), result.error.toString(), fallback.toString()));
        result = runTransaction(takeActivationId(), fallback, std::nullopt, {});
    }
    // The start is over once every backend's availability is known too: a presenter that
    // lists them after the restore sees what the probes found (within the probe bounds).
    const LauncherBounds bounds = LauncherBounds::resolve(BackendDescriptor(), options.launcherBounds);
    probes->waitSettled(QDeadlineTimer(bounds.configureMs + bounds.probeMs));
    if (!result.ok) {
        addWarning(Engine::tr("No sandbox backend could be activated (%1). Commands will not run until a backend "
                              "is activated.")
                       .arg(result.error.toString()));
    }
    return result;
}

Status Engine::Private::fallBackFrom(const QString &packId, const QString &action)
{
    const std::optional<BackendRef> current = active.ref();
    if (!current || current->isBuiltin() || current->packId() != packId)
        return {};
    const ActivationResult fallback = runTransaction(takeActivationId(), options.fallback, std::nullopt, {});
    if (fallback.ok)
        return {};
    return Error{ packId,
                  Engine::tr("Cannot %1 the pack: its backend %2 is active and switching to the built-in "
                             "backend %3 first failed (%4). Nothing was changed.")
                      .arg(action, current->toString(), options.fallback.toString(), fallback.error.toString()),
                  {} };
}

// ---------------------------------------------------------------------------------------

Engine::Engine(Options options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, std::move(options)))
{
#ifdef Q_OS_LINUX
    // Secrets and credentials pass through this process: no core dump holds one, and no
    // other process of the user (a sandboxed command included) reads its memory.
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
    qRegisterMetaType<sandbox::ActivationEvent>();
    qRegisterMetaType<sandbox::ActivationResult>();
    qRegisterMetaType<sandbox::CleanupWarning>();
    qRegisterMetaType<sandbox::HostInteractionRequest>();
    qRegisterMetaType<sandbox::BackendRef>();
    qRegisterMetaType<sandbox::ExitStatus>();
    qRegisterMetaType<sandbox::Refusal>();
}

Engine::~Engine() = default;

void Engine::registerBuiltin(std::shared_ptr<Launcher> launcher)
{
    if (!launcher) {
        d->addWarning(tr("A built-in backend could not be registered: no launcher was given."));
        return;
    }
    const BackendRef ref = BackendRef::builtin(launcher->kind());
    if (Status status = d->registry->add(ref, tr("Built-in"), {}, std::move(launcher), {}); !status.ok()) {
        d->addWarning(
            tr("The built-in backend %1 could not be registered: %2").arg(ref.toString(), status.error().toString()));
        return;
    }
    d->probes->refresh(ref);
    emit backendsChanged();
}

Status Engine::registerBuiltin(const QString &kind, std::function<std::shared_ptr<Launcher>()> factory)
{
    const BackendRef ref = BackendRef::builtin(kind);
    std::shared_ptr<Launcher> catalog = factory ? factory() : nullptr;
    if (!catalog)
        return Error{ ref.toString(), tr("The backend's factory did not create a launcher."), {} };
    if (Status status = d->registry->add(ref, tr("Built-in"), {}, std::move(catalog), std::move(factory)); !status.ok())
        return status;
    d->probes->refresh(ref);
    emit backendsChanged();
    return {};
}

QList<BackendInfo> Engine::backends() const
{
    const ActiveBackend::Snapshot active = d->active.current();
    const Policy policy = this->policy();
    const Result<SettingsDocument> document = d->settings->load();
    return d->registry->list(active, policy, document, *d->secrets);
}

Result<BackendInfo> Engine::backend(const BackendRef &ref) const
{
    for (const BackendInfo &info : backends()) {
        if (info.ref == ref)
            return info;
    }
    return Error{ ref.toString(), tr("No backend %1 is registered.").arg(ref.toString()), {} };
}

std::optional<BackendRef> Engine::activeRef() const
{
    return d->active.ref();
}

QFuture<ActivationResult> Engine::restore()
{
    return d->enqueue<ActivationResult>([this](quint64 id) { return d->restoreSelection(id); });
}

Result<SettingsView> Engine::settings(const BackendRef &ref) const
{
    const std::optional<BackendEntry> entry = d->registry->entry(ref);
    if (!entry)
        return Error{ ref.toString(), tr("No backend %1 is registered.").arg(ref.toString()), {} };
    Result<SettingsDocument> document = d->settings->load();
    if (!document.ok())
        return document.error();
    Result<SettingsValues> stored
        = SettingsValues::fromJson(document.value().backends.value(ref.toString()), ref.toString());
    if (!stored.ok())
        return stored.error();

    SettingsView view;
    view.values = stored.value().withDefaults(entry->descriptor);
    view.insecureStorage = d->secrets->isInsecure();
    for (const FieldSpec &field : entry->descriptor.fields) {
        if (field.type != FieldSpec::Type::Secret)
            continue;
        Result<bool> configured = d->secrets->isConfigured(ref, field.id);
        if (!configured.ok()) {
            // The other fields can still be read and changed without the keychain.
            view.secretsConfigured.clear();
            view.secretsUnknown = configured.error().toString();
            break;
        }
        view.secretsConfigured.insert(field.id, configured.value());
    }
    return view;
}

Status Engine::updateSettings(const BackendRef &ref, const SettingsValues &values, const QList<SecretUpdate> &secrets)
{
    const std::optional<BackendEntry> entry = d->registry->entry(ref);
    if (!entry)
        return Error{ ref.toString(), tr("No backend %1 is registered.").arg(ref.toString()), {} };
    const std::optional<BackendRef> activeRef = d->active.ref();
    if (activeRef && *activeRef == ref) {
        return Error{ ref.toString(),
                      tr("This backend is active: apply its settings by activating it again, so the "
                         "running backend and the saved settings never disagree."),
                      {} };
    }
    if (Status valid = values.validate(entry->descriptor, ref.toString()); !valid.ok())
        return valid;
    QList<SecretUpdate> effective;
    if (Status valid = ActivationTransaction::checkSecretUpdates(*entry, secrets, &effective); !valid.ok())
        return valid;

    SecretUpdateBatch secretUpdates(*d->secrets, ref);
    if (Status applied = secretUpdates.apply(effective); !applied.ok())
        return applied;

    const QJsonObject stored = values.withoutDefaults(entry->descriptor).toJson();
    const QString key = ref.toString();
    Status status = d->settings->update([&](SettingsDocument &document) -> Status {
        if (stored.isEmpty())
            document.backends.remove(key);
        else
            document.backends.insert(key, stored);
        return {};
    });
    if (!status.ok())
        secretUpdates.undo();
    else {
        emit backendsChanged(); // what is still missing may have changed
        d->probes->refresh(ref, true); // and whether the backend is available with them
    }
    return status;
}

QFuture<ActivationResult> Engine::activate(const BackendRef &ref, std::optional<SettingsValues> candidate,
                                           const QList<SecretUpdate> &secrets)
{
    if (!d->registry->entry(ref)) {
        // Nothing to activate: answered at once, not queued behind other activations, and
        // no transaction runs (no step is reported).
        ActivationResult result;
        result.activationId = d->takeActivationId();
        result.ref = ref;
        result.error = Error{ ref.toString(), tr("No backend %1 is registered.").arg(ref.toString()), {} };
        result.failedStep = ActivationStep::Validate;
        result.active = d->active.ref().value_or(BackendRef());
        return QtFuture::makeReadyFuture(result);
    }
    return d->enqueue<ActivationResult>(
        [this, ref, candidate, secrets](quint64 id) { return d->runTransaction(id, ref, candidate, secrets); });
}

Policy Engine::policy() const
{
    Result<Policy> policy = d->policyStore->load();
    return policy.ok() ? policy.value() : Policy::defaults();
}

Status Engine::setPolicy(const Policy &policy)
{
    if (Status status = d->policyStore->save(policy); !status.ok())
        return status;
    emit policyChanged(policy);
    emit backendsChanged(); // which backends enforce the policy may have changed
    return {};
}

Result<QList<CredentialInfo>> Engine::credentials() const
{
    const Policy policy = this->policy();
    const Result<QStringList> stored = d->credentials->names();
    if (!stored.ok())
        return stored.error();
    QStringList names = stored.value();
    for (const PolicyCredential &credential : policy.credentials)
        names.append(credential.name);
    if (policy.upstreamProxy && !policy.upstreamProxy->credential.isEmpty())
        names.append(policy.upstreamProxy->credential);
    names.sort();
    names.removeDuplicates();
    QList<CredentialInfo> list;
    for (const QString &name : std::as_const(names)) {
        const Result<bool> configured = d->credentials->isConfigured(name);
        if (!configured.ok())
            return configured.error();
        CredentialInfo info;
        info.name = name;
        info.configured = configured.value();
        if (const PolicyCredential *entry = policy.credential(name)) {
            info.inPolicy = true;
            info.hosts = entry->hosts;
            info.env = entry->env;
        } else if (policy.upstreamProxy && policy.upstreamProxy->credential == name) {
            // Sent to the upstream proxy alone: its host is where the value goes.
            info.inPolicy = true;
            info.hosts = { policy.upstreamProxy->authority() };
        }
        list.append(info);
    }
    return list;
}

Status Engine::setCredential(const QString &name, const QString &value)
{
    d->vault->forget();
    if (Status status = d->credentials->write(name, value); !status.ok())
        return status;
    emit credentialsChanged();
    return {};
}

Status Engine::removeCredential(const QString &name)
{
    d->vault->forget();
    if (Status status = d->credentials->remove(name); !status.ok())
        return status;
    emit credentialsChanged();
    return {};
}

Result<QByteArray> Engine::rotateCertificateAuthority()
{
    Result<std::unique_ptr<CertificateAuthority>> rotated
        = CertificateAuthority::rotate(EngineFiles::certificateAuthorityDirectory(d->options.stateDirectory));
    d->injector->forgetAuthority();
    if (!rotated.ok())
        return rotated.error();
    return rotated.value()->certificatePem();
}

namespace {

Status validateSpawnRequest(const SpawnRequest &request)
{
    const auto tr = [](const char *text) { return Engine::tr(text); };
    if (request.argv.isEmpty() || request.argv.first().isEmpty())
        return Error{ QStringLiteral("spawn.argv"), tr("The command is empty."), {} };
    if (request.cwd.isEmpty() || !QDir::isAbsolutePath(request.cwd))
        return Error{ QStringLiteral("spawn.cwd"), tr("The working directory must be an absolute path."), {} };
    if (!QFileInfo(request.cwd).isDir())
        return Error{ QStringLiteral("spawn.cwd"),
                      tr("The working directory %1 does not exist.").arg(request.cwd),
                      {} };
    if (!request.workspace.isEmpty()) {
        if (!QDir::isAbsolutePath(request.workspace) || !QFileInfo(request.workspace).isDir())
            return Error{ QStringLiteral("spawn.workspace"),
                          tr("The workspace %1 is not an existing directory.").arg(request.workspace),
                          {} };
        // Compared with symbolic links resolved: a link inside the workspace that leads out
        // of it does not make its target part of the workspace.
        const QString cwd = QFileInfo(request.cwd).canonicalFilePath();
        const QString workspace = QFileInfo(request.workspace).canonicalFilePath();
        if (cwd.isEmpty() || workspace.isEmpty() || !Policy::isInside(cwd, workspace))
            return Error{
                QStringLiteral("spawn.cwd"),
                tr("The working directory %1 is not inside the workspace %2.").arg(request.cwd, request.workspace),
                {}
            };
    }
    if (request.timeoutMs < 0)
        return Error{ QStringLiteral("spawn.timeoutMs"), tr("The timeout cannot be negative."), {} };
    for (auto it = request.env.begin(); it != request.env.end(); ++it) {
        if (it.key().isEmpty() || it.key().contains(QLatin1Char('=')) || it.key().contains(QChar(0)))
            return Error{ QStringLiteral("spawn.env"), tr("\"%1\" is not a valid variable name.").arg(it.key()), {} };
    }
    if (request.policy)
        return request.policy->validate(QStringLiteral("spawn.policy"));
    return {};
}

} // namespace

Result<std::shared_ptr<SandboxProcess>> Engine::spawn(const SpawnRequest &request, quint64 *processId)
{
    if (Status valid = validateSpawnRequest(request); !valid.ok())
        return valid.error();
    Policy effectivePolicy;
    if (request.policy) {
        effectivePolicy = *request.policy;
    } else {
        Result<Policy> stored = d->policyStore->load();
        if (!stored.ok())
            return stored.error();
        effectivePolicy = stored.value();
    }

    const ActiveBackend::Snapshot snapshot = d->active.pinCurrent(d->table);
    if (!snapshot.launcher || !snapshot.ref) {
        return d->refuseSpawn(request, std::nullopt, tr("confinement: no sandbox backend is active"),
                              Error{ QStringLiteral("spawn"),
                                     tr("No sandbox backend is active, so nothing was run (commands never run "
                                        "unconfined). Activate a backend first."),
                                     {} });
    }
    // Whatever transition is under way, the launcher that serves this spawn confines it or
    // nothing runs.
    if (Status confined = ConfinementCheck::check(*snapshot.launcher, effectivePolicy, snapshot.ref->toString());
        !confined.ok()) {
        d->table.unpin(snapshot.launcher.get());
        const QStringList missing = ConfinementCheck::unenforced(*snapshot.launcher, effectivePolicy);
        return d->refuseSpawn(request, snapshot.ref,
                              tr("confinement: the backend cannot enforce %1, which the policy restricts")
                                  .arg(missing.join(QStringLiteral(", "))),
                              confined.error());
    }
    if (request.terminal) {
        if (const QString refusal = snapshot.launcher->terminalRefusal(); !refusal.isEmpty()) {
            d->table.unpin(snapshot.launcher.get());
            return Error{ QStringLiteral("spawn.terminal"),
                          tr("%1 cannot give the command a terminal, so nothing was run: %2")
                              .arg(snapshot.ref->toString(), refusal),
                          {} };
        }
    }
    // The engine's own directories, and git's configuration of the user, in one pass.
    EngineFiles::keepReadOnly(effectivePolicy, request.effectiveWorkspace(),
                              QStringList{ d->options.configDirectory, d->options.stateDirectory }
                                  + EngineFiles::gitUserConfiguration());
    // The authority exists before the command does, so that keepUnreadable() denies it.
    if (!effectivePolicy.credentials.isEmpty()) {
        if (Status authority = d->injector->prepareAuthority(); !authority.ok()) {
            d->table.unpin(snapshot.launcher.get());
            return authority.error();
        }
    }
    EngineFiles::keepUnreadable(effectivePolicy, d->options.stateDirectory, d->options.configDirectory);
    // Certificate authorities the proxy trusts toward the real hosts: none that this command
    // could write, or it could make the next one trust what it likes (toward an https
    // upstream proxy too).
    if (!effectivePolicy.credentials.isEmpty()
        || (effectivePolicy.upstreamProxy && effectivePolicy.upstreamProxy->usesTls())) {
        QStringList authorities;
        for (const QString &file : CredentialInjector::resolveCertificateFiles(effectivePolicy.extraCaCertificates)) {
            authorities.append(file);
            const QString canonical = QFileInfo(file).canonicalFilePath();
            if (!canonical.isEmpty() && canonical != file)
                authorities.append(canonical);
        }
        if (const std::optional<EngineFiles::Reach> reach
            = EngineFiles::writableReach(effectivePolicy, request.effectiveWorkspace(), authorities)) {
            d->table.unpin(snapshot.launcher.get());
            return Error{ QStringLiteral("policy.network.extraCaCertificates"),
                          tr("%1 lies in %2, which the command may write: it could make the proxy trust a "
                             "certificate authority of its own; nothing was run")
                              .arg(reach->directory, reach->writable),
                          {} };
        }
    }
    Result<std::shared_ptr<SandboxProcess>> spawned = snapshot.launcher->spawn(request, effectivePolicy);
    if (!spawned.ok() || !spawned.value()) {
        d->table.unpin(snapshot.launcher.get());
        if (!spawned.ok())
            return spawned.error();
        return Error{ snapshot.ref->toString(), tr("The backend did not start the command."), {} };
    }
    std::shared_ptr<SandboxProcess> process = spawned.value();
    const quint64 id = d->table.add(*snapshot.ref, snapshot.launcher, process, request);
    d->table.unpin(snapshot.launcher.get());
    if (processId)
        *processId = id;

    d->watch->watch(id, process.get(), request, *snapshot.ref, d->boundsFor(*snapshot.ref).spawnMs);
    if (const std::optional<ProcessInfo> info = d->table.info(id))
        emit processStarted(*info);
    return process;
}

QList<ProcessInfo> Engine::processes() const
{
    return d->table.list();
}

std::optional<ProcessInfo> Engine::process(quint64 processId) const
{
    return d->table.info(processId);
}

Result<std::shared_ptr<SandboxProcess>> Engine::runningProcess(quint64 processId) const
{
    const std::optional<ProcessInfo> info = d->table.info(processId);
    if (!info)
        return Error{ QStringLiteral("process %1").arg(processId), tr("No such process."), {} };
    std::shared_ptr<SandboxProcess> process = d->table.process(processId);
    if (!info->running || !process)
        return Error{ QStringLiteral("process %1").arg(processId), tr("The process has already ended."), {} };
    return process;
}

Status Engine::kill(quint64 processId)
{
    Result<std::shared_ptr<SandboxProcess>> process = runningProcess(processId);
    if (!process.ok())
        return process.error();
    // The process object lives in the thread that spawned it.
    QMetaObject::invokeMethod(process.value().get(), [process = process.value()] { process->kill(); });
    return {};
}

Status Engine::deliverSignal(quint64 processId, ProcessSignal signal)
{
    Result<std::shared_ptr<SandboxProcess>> process = runningProcess(processId);
    if (!process.ok())
        return process.error();
    QMetaObject::invokeMethod(process.value().get(),
                              [process = process.value(), signal] { process->deliverSignal(signal); });
    return {};
}

Status Engine::installPack(std::shared_ptr<AtomPack> pack)
{
    return d->packs->install(std::move(pack));
}

Status Engine::installDiscoveredPack(std::shared_ptr<AtomPack> pack)
{
    return d->packs->install(std::move(pack), PackManager::Origin::Discovered);
}

void Engine::loadInstalledPacks()
{
    d->packs->loadInstalled();
}

QFuture<Result<PackInfo>> Engine::installPackFrom(const QString &path)
{
    return d->enqueue<Result<PackInfo>>([this, path](quint64) { return d->packs->installFrom(path); });
}

QList<PackInfo> Engine::packs() const
{
    return d->packs->packs();
}

QFuture<Status> Engine::enablePack(const QString &packId)
{
    return d->enqueue<Status>([this, packId](quint64) { return d->packs->setEnabled(packId, true); });
}

QFuture<Status> Engine::disablePack(const QString &packId)
{
    return d->enqueue<Status>([this, packId](quint64) {
        return d->packs->leave(
            packId, false, [this](const QString &id, const QString &action) { return d->fallBackFrom(id, action); });
    });
}

QFuture<Status> Engine::removePack(const QString &packId)
{
    return d->enqueue<Status>([this, packId](quint64) {
        return d->packs->leave(
            packId, true, [this](const QString &id, const QString &action) { return d->fallBackFrom(id, action); });
    });
}

void Engine::answerInteraction(const HostInteractionResponse &response)
{
    d->broker->answer(response);
}

QList<Refusal> Engine::refusals() const
{
    return d->refusals.recent();
}

void Engine::reportRefusal(const Refusal &refusal)
{
    d->publishRefusal(refusal);
}

QString Engine::configDirectory() const
{
    return d->options.configDirectory;
}

QString Engine::stateDirectory() const
{
    return d->options.stateDirectory;
}

int Engine::pendingDisposals() const
{
    return d->cleanup->pendingCount();
}

QStringList Engine::warnings() const
{
    QStringList list;
    if (d->secrets->isInsecure()) {
        list.append(tr("Secrets are stored in plain text in %1, because plaintext secret storage is allowed. "
                       "Anyone who can read your files can read them.")
                        .arg(d->secrets->location()));
    }
    list += d->settings->warnings();
    list += d->policyStore->warnings();
    if (const Result<Policy> policy = d->policyStore->load(); !policy.ok())
        list += policy.error().toString();
    list += d->packs->warnings();
    if (d->plaintextSecrets)
        list += d->plaintextSecrets->warnings();
    QMutexLocker locker(&d->warningsMutex);
    list += d->warnings;
    return list;
}

} // namespace sandbox
