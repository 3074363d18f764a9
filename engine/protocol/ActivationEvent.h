#pragma once

#include "BackendRef.h"
#include "Error.h"

#include <QJsonObject>
#include <QString>

namespace sandbox {

// One step of the activation transaction, in the specification's order.
enum class ActivationStep { Validate, ResolveSecrets, Prepare, Probe, Swap, Persist, Cleanup };

QString activationStepName(
    ActivationStep step); // "validate", "resolve-secrets", "prepare", "probe", "swap", "persist", "cleanup"
std::optional<ActivationStep> activationStepFromName(const QString &name);
QList<ActivationStep> allActivationSteps();

// JSON: { activationId, ref, step, state: "started"|"succeeded"|"failed"|"skipped"|"warning", message }
struct ActivationEvent
{
    enum class State { Started, Succeeded, Failed, Skipped, Warning };

    quint64 activationId = 0;
    BackendRef ref;
    ActivationStep step = ActivationStep::Validate;
    State state = State::Started;
    QString message;

    static QString stateName(State state);
    static std::optional<State> stateFromName(const QString &name);
    QJsonObject toJson() const;
    static Result<ActivationEvent> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("event"));
    friend bool operator==(const ActivationEvent &, const ActivationEvent &) = default;
};

// Cleanup of the previous backend failed; the new activation stands and cleanup is retried.
// JSON: { ref, message, attempt, willRetry }
struct CleanupWarning
{
    BackendRef ref; // the previous backend whose resources could not be disposed
    QString message;
    int attempt = 1;
    bool willRetry = true;

    QJsonObject toJson() const;
    static Result<CleanupWarning> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("warning"));
    friend bool operator==(const CleanupWarning &, const CleanupWarning &) = default;
};

// The outcome of one activation request.
// JSON: { activationId, ref, ok, error?, failedStep?, active? (the ref active afterwards;
//         absent when none is) }
struct ActivationResult
{
    quint64 activationId = 0;
    BackendRef ref;
    bool ok = false;
    Error error;
    std::optional<ActivationStep> failedStep;
    BackendRef active;

    QJsonObject toJson() const;
    static Result<ActivationResult> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("result"));
    friend bool operator==(const ActivationResult &, const ActivationResult &) = default;
};

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::ActivationEvent)
Q_DECLARE_METATYPE(sandbox::CleanupWarning)
Q_DECLARE_METATYPE(sandbox::ActivationResult)
