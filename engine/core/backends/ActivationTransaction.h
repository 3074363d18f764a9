#pragma once

#include "core/backends/ActiveBackend.h"
#include "core/backends/BackendRegistry.h"
#include "core/backends/LauncherBounds.h"
#include "protocol/ActivationEvent.h"
#include "protocol/SettingsValues.h"

#include <QCoreApplication>

#include <functional>
#include <optional>

namespace sandbox {

class CleanupScheduler;
class SecretStore;
class SettingsStore;
class StopSignal;

// One activation, run on the engine's activation worker thread, in the specification's
// order: validate -> resolve secrets -> configure + prepare the candidate (the active
// launcher keeps serving) -> probe availability -> swap -> persist -> dispose the previous
// backend's idle resources. Every step is reported as started, then succeeded, failed,
// skipped or (cleanup only) warning; after a failure the remaining steps are skipped. While
// the candidate prepares, what it reports doing (a download's progress) comes as further
// "started" events of the prepare step, with the message.
//
// The probe step also asks the candidate what enforces each policy dimension: one that
// does not enforce every dimension the policy in force restricts is never made active.
// Every launcher call runs under the bound the engine sets for it (LauncherBounds); one
// that does not answer in time is cancelled and fails its step with "timed out after N s".
// Failure before the swap changes neither the active launcher nor anything on disk.
// Secret updates reach the secret store only in the persist step and are undone when
// persisting the settings fails, which also swaps the previous launcher back.
class ActivationTransaction final
{
    Q_DECLARE_TR_FUNCTIONS(ActivationTransaction)

public:
    struct Context
    {
        BackendRegistry &registry;
        SettingsStore &settings;
        SecretStore &secrets;
        ActiveBackend &active;
        CleanupScheduler &cleanup;
        std::function<void(const ActivationEvent &)> emitEvent;
        std::function<void(const std::optional<BackendRef> &)> activeChanged;
        // The policy in force, which the candidate must confine before it is made active.
        std::function<Result<Policy>()> policy;
        LauncherBounds boundOverrides; // Engine::Options::launcherBounds
        const StopSignal *stop = nullptr;
    };

    struct Request
    {
        quint64 id = 0;
        BackendRef ref;
        std::optional<SettingsValues> candidate; // absent: the stored settings
        QList<SecretUpdate> secrets;
    };

    ActivationTransaction(Context &context, Request request);

    ActivationResult run();

    // Checks secret updates against a backend's schema. `effective` receives the updates
    // that change something (an empty Replace means "no change" and is dropped).
    static Status checkSecretUpdates(const BackendEntry &entry, const QList<SecretUpdate> &updates,
                                     QList<SecretUpdate> *effective);

private:
    Status validate();
    Status resolveSecrets();
    Status prepare();
    Status probe();
    Status swap();
    Status persist();
    void cleanup();

    void emitEvent(ActivationStep step, ActivationEvent::State state, const QString &message = {});
    QString where(const QString &fieldId = {}) const;

    Context &m_context;
    Request m_request;
    BackendEntry m_entry;
    LauncherBounds m_bounds;
    SettingsValues m_values; // validated, without defaults filled in
    QList<SecretUpdate> m_secretUpdates; // Replace/Remove only
    ResolvedSettings m_resolved;
    QMap<QString, std::optional<QString>> m_storedSecrets; // before the updates, for an undo
    BackendRegistry::Instance m_candidate;
    quint64 m_probedGeneration = 0;
    ActiveBackend::Snapshot m_previous;
    bool m_skipResolve = false;
    QStringList m_prepareNotes; // what the launcher said about its prepare()
};

} // namespace sandbox
