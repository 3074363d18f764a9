#pragma once

#include "core/backends/LauncherBounds.h"
#include "core/launcher/Launcher.h"
#include "core/packs/AtomPack.h"
#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"
#include "protocol/CredentialInfo.h"
#include "protocol/HostInteraction.h"
#include "protocol/Policy.h"
#include "protocol/Refusal.h"
#include "protocol/SettingsValues.h"
#include "protocol/SpawnRequest.h"

#include <QFuture>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

class SettingsStore;
class SecretStore;

// The launcher engine: registry, settings, secrets, the activation transaction, the
// process table, packs, policy. Every public method is thread-safe. Slow operations
// return futures and run on the engine's worker threads; signals are emitted from those
// threads (connect with Qt::QueuedConnection or AutoConnection from presenters).
class Engine final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QString configDirectory; // settings.json, policy.json, packs.json; default: per-user config location
        QString stateDirectory; // per-backend state; default: per-user data location
        QString keychainService = QStringLiteral("sandbox-studio");
        bool allowPlaintextSecrets = false; // the user's explicit opt-in
        QStringList startupWarnings; // what the engine's host found at start-up; kept in warnings()
        std::shared_ptr<SettingsStore> settingsStore; // tests inject a failing store; default: file store
        std::shared_ptr<SecretStore> secretStore; // default: keychain (or plaintext when allowed)
        // Background retries of a failed cleanup: first after cleanupRetryInitialMs, then
        // doubling up to cleanupRetryMaxMs, at most cleanupRetryAttempts attempts in all.
        int cleanupRetryInitialMs = 1000;
        int cleanupRetryMaxMs = 60000;
        int cleanupRetryAttempts = 10;
        // An unanswered Host Interaction question is refused after this long.
        int interactionTimeoutMs = 120000;
        // Bounds on every launcher call (configure, prepare, availability probe, spawn start,
        // dispose), in ms; a non-zero one overrides what the backend's descriptor states
        // and the engine's defaults (LauncherBounds::defaults()).
        LauncherBounds launcherBounds;
        // The built-in backend restored when the saved one cannot be, and switched to
        // before the active backend's pack goes away.
        BackendRef fallback = BackendRef::builtin(QStringLiteral("auto"));
    };

    explicit Engine(Options options, QObject *parent = nullptr);
    ~Engine() override;

    // --- backends
    // Registers a built-in launcher (builtin:<kind>). This one instance serves every
    // activation of the backend (re-activating it reconfigures that instance).
    void registerBuiltin(std::shared_ptr<Launcher> launcher);
    // Registers a built-in backend whose launchers `factory` makes: every activation gets
    // a fresh instance, so the serving one is never touched by a candidate. One instance
    // is made at once for listing (descriptor, availability).
    Status registerBuiltin(const QString &kind, std::function<std::shared_ptr<Launcher>()> factory);
    // Every registered backend. A backend of a disabled pack is listed, unavailable, with
    // the reason; it cannot be activated until its pack is enabled.
    QList<BackendInfo> backends() const;
    Result<BackendInfo> backend(const BackendRef &ref) const;
    std::optional<BackendRef> activeRef() const;
    // Restores the persisted selection at start-up (activates it, or builtin:auto).
    // Install packs first. A fallback to builtin:auto is a normal activation (it is then
    // the persisted selection) and is reported in warnings(); when nothing can be
    // activated no backend is active and spawn() refuses to run anything.
    QFuture<ActivationResult> restore();

    // --- settings and secrets
    Result<SettingsView> settings(const BackendRef &ref) const;
    // Validates and stores settings for a backend that is not active. For the active
    // backend, changes are applied through activate() so runtime and disk never disagree.
    Status updateSettings(const BackendRef &ref, const SettingsValues &values, const QList<SecretUpdate> &secrets = {});

    // --- the activation transaction (serialized; queued requests run one after another).
    // A backend that is not registered is refused at once, without a transaction.
    QFuture<ActivationResult> activate(const BackendRef &ref, std::optional<SettingsValues> candidate = std::nullopt,
                                       const QList<SecretUpdate> &secrets = {});

    // --- policy
    Policy policy() const;
    Status setPolicy(const Policy &policy);

    // --- credentials: values in the secret storage, never returned by any method.
    // Every credential of the policy and every one with a stored value, by name.
    Result<QList<CredentialInfo>> credentials() const;
    Status setCredential(const QString &name, const QString &value);
    Status removeCredential(const QString &name);
    // Replaces the engine's certificate authority with a new one (making it when there is
    // none); returns its certificate (PEM). Its directory is denied to every command.
    Result<QByteArray> rotateCertificateAuthority();

    // --- processes. spawn() must be called from a thread with an event loop; the
    // process object lives in that thread.
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, quint64 *processId = nullptr);
    QList<ProcessInfo> processes() const;
    // One process of processes(), without copying the others.
    std::optional<ProcessInfo> process(quint64 processId) const;
    Status kill(quint64 processId);
    // Passes `signal` to the process's command (SandboxProcess::deliverSignal).
    Status deliverSignal(quint64 processId, ProcessSignal signal);

    // --- packs
    Status installPack(std::shared_ptr<AtomPack> pack);
    // A pack found on the plugin search path: installed unless the user removed it.
    Status installDiscoveredPack(std::shared_ptr<AtomPack> pack);
    // Loads the packs installed under <stateDirectory>/packs (before restore()).
    void loadInstalledPacks();
    // Installs a pack from a folder or a .tar.gz of one (pack.json + plugin) for this user.
    QFuture<Result<PackInfo>> installPackFrom(const QString &path);
    QList<PackInfo> packs() const;
    QFuture<Status> enablePack(const QString &packId);
    QFuture<Status> disablePack(const QString &packId);
    QFuture<Status> removePack(const QString &packId);

    // --- host interactions
    void answerInteraction(const HostInteractionResponse &response);

    // Warnings a status display must show (e.g. plaintext secret storage is on).
    QStringList warnings() const;
    // Retired backends whose disposal has not succeeded yet and is still to be tried (waiting
    // for their processes to end, or retried after a failure): none once cleanup has settled.
    int pendingDisposals() const;
    // Where settings.json and policy.json are read from, and per-backend state and installed
    // packs kept (Options::configDirectory and stateDirectory, resolved).
    QString configDirectory() const;
    QString stateDirectory() const;

    // --- refusals: what the sandbox refused, from every source the engine has (its
    // filtering proxy, its own refusals, a backend's observer), oldest first, the last
    // RefusalLog::defaultCapacity of them.
    QList<Refusal> refusals() const;
    // Publishes a refusal made outside the engine core (e.g. the protocol server refusing a
    // sandboxed peer): numbered, stamped, kept and emitted as refusalReported().
    void reportRefusal(const Refusal &refusal);

signals:
    void activationEvent(const sandbox::ActivationEvent &event);
    void activationFinished(const sandbox::ActivationResult &result);
    void cleanupWarning(const sandbox::CleanupWarning &warning);
    void hostInteractionRequested(const sandbox::HostInteractionRequest &request);
    // The question `id` no longer waits for an answer (answered by any presenter, timed out
    // or refused): presenters still showing it put it away.
    void hostInteractionSettled(const QString &id);
    void backendsChanged();
    void activeBackendChanged(const sandbox::BackendRef &ref);
    void policyChanged(const sandbox::Policy &policy);
    // A credential's value was stored or removed (the value is never carried).
    void credentialsChanged();
    void processStarted(const sandbox::ProcessInfo &info);
    // The process's row changed after processStarted(): it started (info.pid is known now),
    // or its launcher added a note about how it started (the last of info.notes).
    void processNoted(const sandbox::ProcessInfo &info);
    void processFinished(quint64 processId, const sandbox::ExitStatus &status);
    void refusalReported(const sandbox::Refusal &refusal);

private:
    // The process `processId` while it runs; otherwise why it cannot be reached.
    Result<std::shared_ptr<SandboxProcess>> runningProcess(quint64 processId) const;

    class Private;
    std::unique_ptr<Private> d;
};

} // namespace sandbox
