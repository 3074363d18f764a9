#include "ActivationEvent.h"

#include "JsonReader.h"

#include <QCoreApplication>

namespace sandbox {

namespace {

// Integers a JSON number carries exactly.
constexpr qint64 maxJsonInteger = (qint64(1) << 53);
constexpr qsizetype maxMessageLength = 64 * 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::ActivationEvent", text);
}

std::optional<ActivationStep> readStep(JsonReader &reader, const QString &key)
{
    const QString name = reader.requireString(key);
    if (!reader.ok())
        return std::nullopt;
    const std::optional<ActivationStep> step = activationStepFromName(name);
    if (!step) {
        QStringList names;
        for (ActivationStep s : allActivationSteps())
            names.append(activationStepName(s));
        reader.fail(key,
                    tr("unknown step \"%1\"; expected one of %2").arg(name.left(40), names.join(QStringLiteral(", "))));
    }
    return step;
}

// Decodes a nested ref and returns its own error (with its own path) on failure.
std::optional<Error> nestedRef(JsonReader &reader, const QString &key, BackendRef &out)
{
    if (!reader.ok())
        return reader.error();
    if (!reader.has(key)) {
        reader.fail(key, tr("missing required key"));
        return reader.error();
    }
    Result<BackendRef> ref = BackendRef::fromJson(reader.value(key), reader.childPath(key));
    if (!ref)
        return ref.error();
    out = ref.value();
    return std::nullopt;
}

QString checkedMessage(JsonReader &reader, const QString &key, bool required)
{
    const QString message = required ? reader.requireString(key, true) : reader.optionalString(key);
    if (reader.ok() && message.size() > maxMessageLength)
        reader.fail(key, tr("is too long (%1 characters, at most %2)").arg(message.size()).arg(maxMessageLength));
    return message;
}

} // namespace

QString activationStepName(ActivationStep step)
{
    switch (step) {
    case ActivationStep::Validate:
        return QStringLiteral("validate");
    case ActivationStep::ResolveSecrets:
        return QStringLiteral("resolve-secrets");
    case ActivationStep::Prepare:
        return QStringLiteral("prepare");
    case ActivationStep::Probe:
        return QStringLiteral("probe");
    case ActivationStep::Swap:
        return QStringLiteral("swap");
    case ActivationStep::Persist:
        return QStringLiteral("persist");
    case ActivationStep::Cleanup:
        return QStringLiteral("cleanup");
    }
    return QString();
}

std::optional<ActivationStep> activationStepFromName(const QString &name)
{
    for (ActivationStep step : allActivationSteps()) {
        if (activationStepName(step) == name)
            return step;
    }
    return std::nullopt;
}

QList<ActivationStep> allActivationSteps()
{
    return { ActivationStep::Validate, ActivationStep::ResolveSecrets, ActivationStep::Prepare, ActivationStep::Probe,
             ActivationStep::Swap,     ActivationStep::Persist,        ActivationStep::Cleanup };
}

QString ActivationEvent::stateName(State state)
{
    switch (state) {
    case State::Started:
        return QStringLiteral("started");
    case State::Succeeded:
        return QStringLiteral("succeeded");
    case State::Failed:
        return QStringLiteral("failed");
    case State::Skipped:
        return QStringLiteral("skipped");
    case State::Warning:
        return QStringLiteral("warning");
    }
    return QString();
}

std::optional<ActivationEvent::State> ActivationEvent::stateFromName(const QString &name)
{
    for (State state : { State::Started, State::Succeeded, State::Failed, State::Skipped, State::Warning }) {
        if (stateName(state) == name)
            return state;
    }
    return std::nullopt;
}

QJsonObject ActivationEvent::toJson() const
{
    return { { QStringLiteral("activationId"), static_cast<qint64>(activationId) },
             { QStringLiteral("ref"), ref.toJson() },
             { QStringLiteral("step"), activationStepName(step) },
             { QStringLiteral("state"), stateName(state) },
             { QStringLiteral("message"), message } };
}

Result<ActivationEvent> ActivationEvent::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("activationId"), QStringLiteral("ref"), QStringLiteral("step"),
                               QStringLiteral("state"), QStringLiteral("message") });
    ActivationEvent event;
    event.activationId = static_cast<quint64>(reader.requireInteger(QStringLiteral("activationId"), 0, maxJsonInteger));
    if (const std::optional<Error> error = nestedRef(reader, QStringLiteral("ref"), event.ref))
        return *error;
    if (const auto step = readStep(reader, QStringLiteral("step")))
        event.step = *step;
    const QString state = reader.requireString(QStringLiteral("state"));
    if (reader.ok()) {
        if (const auto parsed = stateFromName(state))
            event.state = *parsed;
        else
            reader.fail(QStringLiteral("state"),
                        tr("unknown state \"%1\"; expected started, succeeded, failed, skipped or warning")
                            .arg(state.left(40)));
    }
    event.message = checkedMessage(reader, QStringLiteral("message"), false);
    if (!reader.ok())
        return reader.error();
    return event;
}

QJsonObject CleanupWarning::toJson() const
{
    return { { QStringLiteral("ref"), ref.toJson() },
             { QStringLiteral("message"), message },
             { QStringLiteral("attempt"), attempt },
             { QStringLiteral("willRetry"), willRetry } };
}

Result<CleanupWarning> CleanupWarning::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys(
        { QStringLiteral("ref"), QStringLiteral("message"), QStringLiteral("attempt"), QStringLiteral("willRetry") });
    CleanupWarning warning;
    if (const std::optional<Error> error = nestedRef(reader, QStringLiteral("ref"), warning.ref))
        return *error;
    warning.message = checkedMessage(reader, QStringLiteral("message"), true);
    warning.attempt = static_cast<int>(reader.requireInteger(QStringLiteral("attempt"), 1, 1000000));
    warning.willRetry = reader.requireBool(QStringLiteral("willRetry"));
    if (!reader.ok())
        return reader.error();
    return warning;
}

QJsonObject ActivationResult::toJson() const
{
    QJsonObject object{ { QStringLiteral("activationId"), static_cast<qint64>(activationId) },
                        { QStringLiteral("ref"), ref.toJson() },
                        { QStringLiteral("ok"), ok } };
    // Absent when no backend is active (the engine could not establish even the fallback).
    if (active.isValid())
        object.insert(QStringLiteral("active"), active.toJson());
    if (!ok) {
        object.insert(QStringLiteral("error"), error.toJson());
        if (failedStep)
            object.insert(QStringLiteral("failedStep"), activationStepName(*failedStep));
    }
    return object;
}

Result<ActivationResult> ActivationResult::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("activationId"), QStringLiteral("ref"), QStringLiteral("ok"),
                               QStringLiteral("error"), QStringLiteral("failedStep"), QStringLiteral("active") });
    ActivationResult result;
    result.activationId
        = static_cast<quint64>(reader.requireInteger(QStringLiteral("activationId"), 0, maxJsonInteger));
    if (const std::optional<Error> error = nestedRef(reader, QStringLiteral("ref"), result.ref))
        return *error;
    result.ok = reader.requireBool(QStringLiteral("ok"));
    if (reader.has(QStringLiteral("active"))) {
        if (const std::optional<Error> error = nestedRef(reader, QStringLiteral("active"), result.active))
            return *error;
    }
    if (!reader.ok())
        return reader.error();
    if (result.ok) {
        for (const QString &key : { QStringLiteral("error"), QStringLiteral("failedStep") }) {
            if (reader.has(key))
                return Error{ reader.childPath(key), tr("only a failed activation carries %1").arg(key), {} };
        }
        return result;
    }
    if (!reader.has(QStringLiteral("error")))
        return Error{ reader.childPath(QStringLiteral("error")), tr("a failed activation must say why"), {} };
    const Status decoded
        = errorFromJson(reader.value(QStringLiteral("error")), reader.childPath(QStringLiteral("error")), result.error);
    if (!decoded)
        return decoded.error();
    if (reader.has(QStringLiteral("failedStep")))
        result.failedStep = readStep(reader, QStringLiteral("failedStep"));
    if (!reader.ok())
        return reader.error();
    return result;
}

} // namespace sandbox
