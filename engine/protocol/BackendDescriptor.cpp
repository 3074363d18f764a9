#include "BackendDescriptor.h"

#include "JsonReader.h"
#include "ProtocolText.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>

namespace sandbox {

namespace {

constexpr qsizetype maxFields = 256;
constexpr qsizetype maxNameLength = 200;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::BackendDescriptor", text);
}

QString dataOnly()
{
    return tr("descriptors are data only");
}

QString fieldPath(const QString &path, qsizetype index)
{
    return path + QStringLiteral(".settings.fields[%1]").arg(index);
}

} // namespace

const QStringList &BackendDescriptor::enforcementDimensions()
{
    static const QStringList dimensions{ QStringLiteral("filesystem"),     QStringLiteral("network"),
                                         QStringLiteral("allowedDomains"), QStringLiteral("hostExecution"),
                                         QStringLiteral("confinement"),    QStringLiteral("credentials"),
                                         QStringLiteral("sshAgent"),       QStringLiteral("upstreamProxy") };
    return dimensions;
}

const QStringList &BackendDescriptor::timeoutCalls()
{
    static const QStringList calls{ QStringLiteral("configure"), QStringLiteral("prepare"), QStringLiteral("probe"),
                                    QStringLiteral("spawn"), QStringLiteral("dispose") };
    return calls;
}

const QStringList &BackendDescriptor::knownPlatforms()
{
    static const QStringList platforms{ QStringLiteral("linux"), QStringLiteral("macos"), QStringLiteral("windows") };
    return platforms;
}

const FieldSpec *BackendDescriptor::field(const QString &id) const
{
    for (const FieldSpec &spec : fields) {
        if (spec.id == id)
            return &spec;
    }
    return nullptr;
}

bool BackendDescriptor::hasSecrets() const
{
    for (const FieldSpec &spec : fields) {
        if (spec.type == FieldSpec::Type::Secret)
            return true;
    }
    return false;
}

Status BackendDescriptor::validate(const QString &path) const
{
    const QString namePath = path + QStringLiteral(".name");
    if (name.trimmed().isEmpty())
        return Error{ namePath, tr("a backend needs a name"), {} };
    if (name.size() > maxNameLength)
        return Error{ namePath, tr("is too long (%1 characters, at most %2)").arg(name.size()).arg(maxNameLength), {} };
    if (const QString problem = JsonReader::plainTextProblem(name); !problem.isEmpty())
        return Error{ namePath, problem, {} };
    if (const QString problem = JsonReader::plainTextProblem(description); !problem.isEmpty())
        return Error{ path + QStringLiteral(".description"), problem, {} };

    if (fields.size() > maxFields)
        return Error{ path + QStringLiteral(".settings.fields"),
                      tr("too many fields (%1, at most %2)").arg(fields.size()).arg(maxFields),
                      {} };
    QHash<QString, qsizetype> seen;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        const FieldSpec &spec = fields.at(i);
        if (const Status valid = spec.validate(fieldPath(path, i)); !valid)
            return valid.error();
        if (const auto it = seen.constFind(spec.id); it != seen.constEnd())
            return Error{ fieldPath(path, i) + QStringLiteral(".id"),
                          tr("duplicate field id \"%1\" (also fields[%2])").arg(spec.id).arg(it.value()),
                          {} };
        seen.insert(spec.id, i);
    }

    for (qsizetype i = 0; i < platforms.size(); ++i) {
        const QString platformPath = path + QStringLiteral(".platforms[%1]").arg(i);
        if (!knownPlatforms().contains(platforms.at(i)))
            return Error{ platformPath,
                          tr("unknown platform %1; expected one of %2")
                              .arg(quotedForMessage(platforms.at(i)), knownPlatforms().join(QStringLiteral(", "))),
                          {} };
        if (platforms.indexOf(platforms.at(i)) != i)
            return Error{ platformPath, tr("platform %1 is listed twice").arg(quotedForMessage(platforms.at(i))), {} };
    }

    for (auto it = enforcement.constBegin(); it != enforcement.constEnd(); ++it) {
        const QString dimensionPath = path + QStringLiteral(".enforcement.") + it.key();
        if (!enforcementDimensions().contains(it.key()))
            return Error{ path + QStringLiteral(".enforcement"),
                          tr("unknown policy dimension %1; expected one of %2")
                              .arg(quotedForMessage(it.key()), enforcementDimensions().join(QStringLiteral(", "))),
                          {} };
        if (it.value().trimmed().isEmpty())
            return Error{ dimensionPath, tr("must not be empty"), {} };
        if (const QString problem = JsonReader::plainTextProblem(it.value()); !problem.isEmpty())
            return Error{ dimensionPath, problem, {} };
    }

    for (auto it = timeouts.constBegin(); it != timeouts.constEnd(); ++it) {
        if (!timeoutCalls().contains(it.key()))
            return Error{ path + QStringLiteral(".timeouts"),
                          tr("unknown launcher call %1; expected one of %2")
                              .arg(quotedForMessage(it.key()), timeoutCalls().join(QStringLiteral(", "))),
                          {} };
        if (it.value() < 1 || it.value() > maxTimeoutSeconds)
            return Error{ path + QStringLiteral(".timeouts.") + it.key(),
                          tr("must be whole seconds from 1 to %1, got %2").arg(maxTimeoutSeconds).arg(it.value()),
                          {} };
    }
    return Status::success();
}

QJsonObject BackendDescriptor::toJson() const
{
    QJsonArray fieldArray;
    for (const FieldSpec &spec : fields)
        fieldArray.append(spec.toJson());
    QJsonObject object{ { QStringLiteral("name"), name },
                        { QStringLiteral("settings"), QJsonObject{ { QStringLiteral("fields"), fieldArray } } } };
    if (!description.isEmpty())
        object.insert(QStringLiteral("description"), description);
    if (!platforms.isEmpty())
        object.insert(QStringLiteral("platforms"), QJsonArray::fromStringList(platforms));
    if (!enforcement.isEmpty()) {
        QJsonObject claims;
        for (auto it = enforcement.constBegin(); it != enforcement.constEnd(); ++it)
            claims.insert(it.key(), it.value());
        object.insert(QStringLiteral("enforcement"), claims);
    }
    if (!refusals.isEmpty())
        object.insert(QStringLiteral("refusals"), refusals);
    if (!timeouts.isEmpty()) {
        QJsonObject bounds;
        for (auto it = timeouts.constBegin(); it != timeouts.constEnd(); ++it)
            bounds.insert(it.key(), it.value());
        object.insert(QStringLiteral("timeouts"), bounds);
    }
    return object;
}

Result<BackendDescriptor> BackendDescriptor::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("settings"),
                               QStringLiteral("platforms"), QStringLiteral("enforcement"), QStringLiteral("timeouts"),
                               QStringLiteral("refusals") },
                             dataOnly());
    BackendDescriptor descriptor;
    descriptor.name = reader.requirePlainText(QStringLiteral("name"));
    descriptor.description = reader.optionalPlainText(QStringLiteral("description"));
    descriptor.platforms = reader.optionalStringList(QStringLiteral("platforms"));
    descriptor.refusals = reader.optionalPlainText(QStringLiteral("refusals"));
    const bool hasSettings = reader.has(QStringLiteral("settings"));
    const QJsonObject settings = reader.optionalObject(QStringLiteral("settings"));
    const bool hasEnforcement = reader.has(QStringLiteral("enforcement"));
    const QJsonObject enforcement = reader.optionalObject(QStringLiteral("enforcement"));
    const QJsonObject timeouts = reader.optionalObject(QStringLiteral("timeouts"));
    if (!reader.ok())
        return reader.error();

    if (hasSettings) {
        JsonReader settingsReader(settings, reader.childPath(QStringLiteral("settings")));
        settingsReader.rejectUnknownKeys({ QStringLiteral("fields") }, dataOnly());
        const QJsonArray fields = settingsReader.optionalArray(QStringLiteral("fields"));
        if (!settingsReader.ok())
            return settingsReader.error();
        if (fields.size() > maxFields)
            return Error{ settingsReader.childPath(QStringLiteral("fields")),
                          tr("too many fields (%1, at most %2)").arg(fields.size()).arg(maxFields),
                          {} };
        for (qsizetype i = 0; i < fields.size(); ++i) {
            Result<FieldSpec> spec = FieldSpec::fromJson(fields.at(i), fieldPath(path, i));
            if (!spec)
                return spec.error();
            descriptor.fields.append(std::move(spec).value());
        }
    }

    if (hasEnforcement) {
        JsonReader claims(enforcement, reader.childPath(QStringLiteral("enforcement")));
        claims.rejectUnknownKeys(QSet<QString>(enforcementDimensions().cbegin(), enforcementDimensions().cend()),
                                 tr("expected one of %1").arg(enforcementDimensions().join(QStringLiteral(", "))));
        for (const QString &dimension : enforcementDimensions()) {
            if (claims.has(dimension))
                descriptor.enforcement.insert(dimension, claims.requirePlainText(dimension));
        }
        if (!claims.ok())
            return claims.error();
    }

    for (auto it = timeouts.constBegin(); it != timeouts.constEnd(); ++it) {
        const QString callPath = reader.childPath(QStringLiteral("timeouts")) + QLatin1Char('.') + it.key();
        if (!timeoutCalls().contains(it.key()))
            return Error{ reader.childPath(QStringLiteral("timeouts")),
                          tr("unknown launcher call %1; expected one of %2")
                              .arg(quotedForMessage(it.key()), timeoutCalls().join(QStringLiteral(", "))),
                          {} };
        const double seconds = it.value().toDouble(-1);
        if (!it.value().isDouble() || seconds < 1 || seconds > maxTimeoutSeconds || seconds != std::floor(seconds))
            return Error{ callPath,
                          tr("expected whole seconds from 1 to %1, got %2")
                              .arg(maxTimeoutSeconds)
                              .arg(it.value().isDouble() ? QString::number(seconds) : JsonReader::typeName(it.value())),
                          {} };
        descriptor.timeouts.insert(it.key(), int(seconds));
    }

    if (const Status valid = descriptor.validate(path); !valid)
        return valid.error();
    return descriptor;
}

} // namespace sandbox
