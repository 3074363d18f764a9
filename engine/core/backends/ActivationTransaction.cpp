#include "core/backends/ActivationTransaction.h"

#include "core/backends/CleanupScheduler.h"
#include "core/backends/ConfinementCheck.h"
#include "core/backends/FutureWait.h"
#include "core/backends/StopSignal.h"
#include "core/secrets/SecretStore.h"
#include "core/secrets/SecretUpdateBatch.h"
#include "core/settings/SettingsStore.h"

#include <QSet>

namespace sandbox {

ActivationTransaction::ActivationTransaction(Context &context, Request request)
    : m_context(context)
    , m_request(std::move(request))
{ }

QString ActivationTransaction::where(const QString &fieldId) const
{
    return fieldId.isEmpty() ? m_request.ref.toString() : m_request.ref.toString() + QLatin1Char('.') + fieldId;
}

void ActivationTransaction::emitEvent(ActivationStep step, ActivationEvent::State state, const QString &message)
{
    if (m_context.emitEvent)
        m_context.emitEvent(ActivationEvent{ m_request.id, m_request.ref, step, state, message });
}

ActivationResult ActivationTransaction::run()
{
    ActivationResult result;
    result.activationId = m_request.id;
    result.ref = m_request.ref;

    using Step = std::pair<ActivationStep, Status (ActivationTransaction::*)()>;
    const QList<Step> steps{ { ActivationStep::Validate, &ActivationTransaction::validate },
                             { ActivationStep::ResolveSecrets, &ActivationTransaction::resolveSecrets },
                             { ActivationStep::Prepare, &ActivationTransaction::prepare },
                             { ActivationStep::Probe, &ActivationTransaction::probe },
                             { ActivationStep::Swap, &ActivationTransaction::swap },
                             { ActivationStep::Persist, &ActivationTransaction::persist } };

    for (qsizetype i = 0; i < steps.size(); ++i) {
        const ActivationStep step = steps[i].first;
        emitEvent(step, ActivationEvent::State::Started);
        const Status status = (this->*steps[i].second)();
        if (status.ok()) {
            if (step == ActivationStep::ResolveSecrets && m_skipResolve)
                emitEvent(step, ActivationEvent::State::Skipped, tr("This backend has no secret settings."));
            else if (step == ActivationStep::Prepare)
                emitEvent(step, ActivationEvent::State::Succeeded, m_prepareNotes.join(QStringLiteral("; ")));
            else
                emitEvent(step, ActivationEvent::State::Succeeded);
            continue;
        }

        emitEvent(step, ActivationEvent::State::Failed, status.error().toString());
        for (qsizetype j = i + 1; j < steps.size(); ++j)
            emitEvent(steps[j].first, ActivationEvent::State::Skipped, tr("An earlier step failed."));
        emitEvent(ActivationStep::Cleanup, ActivationEvent::State::Skipped, tr("An earlier step failed."));
        // A candidate that never became (or no longer is) active still gets its resources
        // released, in the background, once nothing of it runs.
        if (m_candidate.launcher && m_candidate.launcher != m_context.active.current().launcher)
            m_context.cleanup.retireInBackground(m_request.ref, m_candidate.launcher);
        result.ok = false;
        result.error = status.error();
        result.failedStep = step;
        result.active = m_context.active.ref().value_or(BackendRef());
        return result;
    }

    cleanup();
    result.ok = true;
    result.active = m_context.active.ref().value_or(BackendRef());
    return result;
}

Status ActivationTransaction::validate()
{
    if (m_context.stop && m_context.stop->isStopped())
        return Error{ where(), tr("The engine is shutting down; nothing was activated."), {} };
    std::optional<BackendEntry> entry = m_context.registry.entry(m_request.ref);
    if (!entry)
        return Error{ where(), tr("No backend %1 is registered.").arg(m_request.ref.toString()), {} };
    if (!entry->enabled) {
        return Error{
            where(),
            tr("The pack \"%1\" that provides this backend is disabled. Enable the pack first.").arg(entry->packId),
            {}
        };
    }
    m_entry = *entry;
    m_bounds = LauncherBounds::resolve(m_entry.descriptor, m_context.boundOverrides);

    if (m_request.candidate) {
        m_values = *m_request.candidate;
    } else {
        Result<SettingsDocument> document = m_context.settings.load();
        if (!document.ok())
            return document.error();
        const QJsonObject stored = document.value().backends.value(m_request.ref.toString());
        Result<SettingsValues> values = SettingsValues::fromJson(stored, where());
        if (!values.ok())
            return values.error();
        m_values = values.value();
    }
    if (Status valid = m_values.validate(m_entry.descriptor, where()); !valid.ok())
        return valid;

    return checkSecretUpdates(m_entry, m_request.secrets, &m_secretUpdates);
}

Status ActivationTransaction::checkSecretUpdates(const BackendEntry &entry, const QList<SecretUpdate> &updates,
                                                 QList<SecretUpdate> *effective)
{
    const QString ref = entry.ref.toString();
    Error problems{ ref, tr("The secret updates are not valid."), {} };
    QSet<QString> seen;
    for (const SecretUpdate &update : updates) {
        const QString path = ref + QLatin1Char('.') + update.fieldId;
        const FieldSpec *field = entry.descriptor.field(update.fieldId);
        if (!field || field->type != FieldSpec::Type::Secret) {
            problems.details.append(Error{ path, tr("not a secret field of this backend"), {} });
            continue;
        }
        if (seen.contains(update.fieldId)) {
            problems.details.append(Error{ path, tr("given more than once"), {} });
            continue;
        }
        seen.insert(update.fieldId);
        if (update.action == SecretUpdate::Action::Remove
            || (update.action == SecretUpdate::Action::Replace && !update.value.isEmpty()))
            effective->append(update);
    }
    if (!problems.details.isEmpty())
        return problems;
    return {};
}

Status ActivationTransaction::resolveSecrets()
{
    m_resolved.values = m_values.withDefaults(m_entry.descriptor);
    if (!m_entry.descriptor.hasSecrets()) {
        m_skipResolve = true;
        return {};
    }
    Error missing{ where(), tr("Required secrets are not set."), {} };
    for (const FieldSpec &field : std::as_const(m_entry.descriptor.fields)) {
        if (field.type != FieldSpec::Type::Secret)
            continue;
        // Read even when an update replaces it: that proves the store is reachable before
        // anything changes, and the stored value is what an undo restores.
        Result<std::optional<QString>> stored = m_context.secrets.read(m_request.ref, field.id);
        auto update = std::find_if(m_secretUpdates.cbegin(), m_secretUpdates.cend(),
                                   [&](const SecretUpdate &u) { return u.fieldId == field.id; });
        // An optional secret nothing changes: the backend may not need it for these settings.
        if (!stored.ok() && !field.required && update == m_secretUpdates.cend()) {
            m_resolved.unreadSecrets.insert(field.id, stored.error().message);
            continue;
        }
        if (!stored.ok())
            return stored.error();
        std::optional<QString> value = stored.value();
        if (update != m_secretUpdates.cend()) {
            m_storedSecrets.insert(field.id, stored.value());
            value = update->action == SecretUpdate::Action::Replace ? std::optional<QString>(update->value)
                                                                    : std::nullopt;
        }
        if (value)
            m_resolved.secrets.insert(field.id, *value);
        else if (field.required)
            missing.details.append(Error{ where(field.id), tr("%1 is required: enter a value.").arg(field.label), {} });
    }
    if (!missing.details.isEmpty())
        return missing;
    return {};
}

Status ActivationTransaction::prepare()
{
    Result<BackendRegistry::Instance> instance = m_context.registry.instantiate(m_request.ref);
    if (!instance.ok())
        return instance.error();
    m_candidate = instance.value();

    const Status configured = awaitLauncherCall(m_candidate.launcher->configure(m_resolved), m_bounds.configureMs,
                                                m_context.stop, where(), QStringLiteral("configure()"));
    // The resolved values have reached the launcher; the engine keeps no copy around.
    m_resolved.secrets.clear();
    if (!configured.ok())
        return configured;

    if (m_candidate.host)
        m_candidate.host->setProgressSink([this](const QString &message) {
            emitEvent(ActivationStep::Prepare, ActivationEvent::State::Started, message);
        });
    Status status = awaitLauncherCall(m_candidate.launcher->prepare(), m_bounds.prepareMs, m_context.stop, where(),
                                      QStringLiteral("prepare()"));
    if (m_candidate.host) {
        // A prepare() that timed out may still be running: its progress is no longer this
        // activation's.
        m_candidate.host->setProgressSink({});
        m_prepareNotes = m_candidate.host->takeActivationNotes();
    }
    // A question the launcher asked that presenters cannot show was refused unseen; the
    // launcher's outcome (usually "declined") is not the user's, so the activation fails
    // with what was wrong with the question.
    if (const std::optional<Error> rejected
        = m_candidate.host ? m_candidate.host->takeRejectedQuestion() : std::nullopt) {
        return Error{
            where(),
            tr("The backend asked a question that cannot be shown, so it was refused: %1").arg(rejected->toString()),
            {}
        };
    }
    return status;
}

Status ActivationTransaction::probe()
{
    // A change the launcher reports from the start of the probe until the swap makes the
    // probe's answer stale; the swap step then refuses.
    m_probedGeneration = m_candidate.host ? m_candidate.host->availabilityGeneration() : 0;
    QFuture<Availability> probed = m_candidate.launcher->isAvailable();
    const QString call = QStringLiteral("availability probe");
    switch (waitForFuture(QFuture<void>(probed), m_bounds.probeMs, m_context.stop)) {
    case WaitOutcome::Finished:
        break;
    case WaitOutcome::TimedOut:
        probed.cancel();
        return launcherCallTimedOut(where(), call, m_bounds.probeMs);
    case WaitOutcome::Stopped:
        probed.cancel();
        return launcherCallStopped(where(), call);
    }
    if (probed.isCanceled() || probed.resultCount() == 0)
        return Error{ where(), tr("The backend's availability probe ended without a result."), {} };
    const Availability availability = BackendRegistry::checkedAvailability(m_request.ref, probed.result());
    m_context.registry.setAvailability(m_request.ref, availability);
    if (!availability.available) {
        return Error{ where(),
                      availability.reason.isEmpty() ? tr("The backend reports that it is not available.")
                                                    : availability.reason,
                      {} };
    }
    if (!m_context.policy)
        return Error{ where(), tr("The sandbox policy is not known, so no backend is made active."), {} };
    const Result<Policy> policy = m_context.policy();
    if (!policy.ok())
        return policy.error();
    return ConfinementCheck::check(*m_candidate.launcher, policy.value(), where());
}

Status ActivationTransaction::swap()
{
    if (m_candidate.host && m_candidate.host->availabilityGeneration() != m_probedGeneration) {
        return Error{ where(),
                      tr("The backend reported an availability change while it was being probed, so it was "
                         "not made active. Activate it again."),
                      {} };
    }
    m_context.cleanup.reclaim(m_candidate.launcher.get());
    m_previous = m_context.active.swap(ActiveBackend::Snapshot{ m_request.ref, m_candidate.launcher });
    if (m_context.activeChanged)
        m_context.activeChanged(m_request.ref);
    return {};
}

Status ActivationTransaction::persist()
{
    SecretUpdateBatch secretUpdates(m_context.secrets, m_request.ref);
    Status status = secretUpdates.apply(m_secretUpdates, m_storedSecrets);
    if (status.ok()) {
        const QJsonObject values = m_values.withoutDefaults(m_entry.descriptor).toJson();
        const QString key = m_request.ref.toString();
        const BackendRef ref = m_request.ref;
        status = m_context.settings.update([&](SettingsDocument &document) -> Status {
            if (values.isEmpty())
                document.backends.remove(key);
            else
                document.backends.insert(key, values);
            document.active = ref;
            return {};
        });
    }
    if (status.ok())
        return {};

    secretUpdates.undo();
    m_context.active.swap(m_previous);
    if (m_context.activeChanged)
        m_context.activeChanged(m_previous.ref);
    return status;
}

void ActivationTransaction::cleanup()
{
    const ActivationStep step = ActivationStep::Cleanup;
    emitEvent(step, ActivationEvent::State::Started);
    if (!m_previous.launcher) {
        emitEvent(step, ActivationEvent::State::Skipped, tr("No backend was active before."));
        return;
    }
    if (m_previous.launcher == m_candidate.launcher) {
        emitEvent(step, ActivationEvent::State::Skipped, tr("The backend keeps its launcher instance."));
        return;
    }
    const BackendRef previousRef = m_previous.ref.value_or(BackendRef());
    const CleanupScheduler::Attempt attempt = m_context.cleanup.retire(previousRef, std::move(m_previous.launcher));
    switch (attempt.outcome) {
    case CleanupScheduler::Outcome::Disposed:
        emitEvent(step, ActivationEvent::State::Succeeded);
        break;
    case CleanupScheduler::Outcome::Deferred:
        emitEvent(step, ActivationEvent::State::Skipped, attempt.message);
        break;
    case CleanupScheduler::Outcome::FailedWillRetry:
        emitEvent(step, ActivationEvent::State::Warning,
                  tr("Could not release the resources of %1: %2. Retrying in the background.")
                      .arg(previousRef.toString(), attempt.message));
        break;
    }
}

} // namespace sandbox
