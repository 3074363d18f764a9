#include "SettingsValues.h"

#include "JsonReader.h"

#include <QCoreApplication>

namespace sandbox {

namespace {

// Far more than any schema has fields (BackendDescriptor allows 256).
constexpr qsizetype maxValues = 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::SettingsValues", text);
}

QString child(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

QString shownKey(const QString &key)
{
    QString shown = key.size() > 64 ? key.left(64) + QStringLiteral("...") : key;
    for (QChar &c : shown) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QChar(0xfffd);
    }
    return shown;
}

} // namespace

Status SettingsValues::validate(const BackendDescriptor &descriptor, const QString &where) const
{
    QList<Error> problems;
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        const QString path = child(where, shownKey(it.key()));
        const FieldSpec *field = descriptor.field(it.key());
        if (!field) {
            problems.append(Error{ path, tr("unknown setting; \"%1\" has no such field").arg(descriptor.name), {} });
            continue;
        }
        if (const Status valid = field->validateValue(it.value(), path); !valid)
            problems.append(valid.error());
    }
    for (const FieldSpec &field : descriptor.fields) {
        if (field.type == FieldSpec::Type::Secret || !field.required || !field.defaultValue.isUndefined())
            continue;
        if (!values.contains(field.id))
            problems.append(Error{ child(where, field.id), tr("\"%1\" is required").arg(field.label), {} });
    }
    if (problems.isEmpty())
        return Status::success();
    const QString message = problems.size() == 1 ? tr("1 setting is invalid: %1").arg(problems.first().toString())
                                                 : tr("%1 settings are invalid").arg(problems.size());
    return Error{ where, message, problems };
}

SettingsValues SettingsValues::withDefaults(const BackendDescriptor &descriptor) const
{
    SettingsValues filled = *this;
    for (const FieldSpec &field : descriptor.fields) {
        if (field.type == FieldSpec::Type::Secret || field.defaultValue.isUndefined())
            continue;
        if (!filled.values.contains(field.id))
            filled.values.insert(field.id, field.defaultValue);
    }
    return filled;
}

SettingsValues SettingsValues::withoutDefaults(const BackendDescriptor &descriptor) const
{
    SettingsValues stripped;
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        const FieldSpec *field = descriptor.field(it.key());
        // Values of unknown fields are kept: the schema may come back with a newer pack version.
        if (field && !field->defaultValue.isUndefined() && field->defaultValue == it.value())
            continue;
        stripped.values.insert(it.key(), it.value());
    }
    return stripped;
}

QJsonObject SettingsValues::toJson() const
{
    QJsonObject object;
    for (auto it = values.constBegin(); it != values.constEnd(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

Result<SettingsValues> SettingsValues::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    if (!reader.ok())
        return reader.error();
    const QStringList keys = reader.keys();
    if (keys.size() > maxValues)
        return Error{ path, tr("too many settings (%1, at most %2)").arg(keys.size()).arg(maxValues), {} };
    SettingsValues settings;
    for (const QString &key : keys) {
        const QJsonValue v = reader.value(key);
        if (!FieldSpec::isValidId(key))
            reader.fail(shownKey(key), tr("not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}"));
        else if (!v.isString() && !v.isDouble() && !v.isBool())
            reader.fail(key, tr("expected a string, number or boolean, got %1").arg(JsonReader::typeName(v)));
        else if (v.isString() && v.toString().size() > JsonReader::maxStringLength)
            reader.fail(key, tr("is too long (at most %1 characters)").arg(JsonReader::maxStringLength));
        if (!reader.ok())
            return reader.error();
        settings.values.insert(key, v);
    }
    return settings;
}

QJsonObject SettingsView::toJson() const
{
    QJsonObject secrets;
    for (auto it = secretsConfigured.constBegin(); it != secretsConfigured.constEnd(); ++it)
        secrets.insert(it.key(), QJsonObject{ { QStringLiteral("configured"), it.value() } });
    QJsonObject object{ { QStringLiteral("values"), values.toJson() }, { QStringLiteral("secrets"), secrets } };
    if (insecureStorage)
        object.insert(QStringLiteral("insecureStorage"), true);
    if (!secretsUnknown.isEmpty())
        object.insert(QStringLiteral("secretsUnknown"), secretsUnknown);
    return object;
}

Result<SettingsView> SettingsView::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("values"), QStringLiteral("secrets"), QStringLiteral("insecureStorage"),
                               QStringLiteral("secretsUnknown") });
    const QJsonObject values = reader.requireObject(QStringLiteral("values"));
    const QJsonObject secrets = reader.optionalObject(QStringLiteral("secrets"));
    SettingsView view;
    view.insecureStorage = reader.optionalBool(QStringLiteral("insecureStorage"), false);
    view.secretsUnknown = reader.optionalString(QStringLiteral("secretsUnknown"));
    if (!reader.ok())
        return reader.error();
    if (const QString problem
        = view.secretsUnknown.isEmpty() ? QString() : JsonReader::plainTextProblem(view.secretsUnknown);
        !problem.isEmpty())
        return Error{ reader.childPath(QStringLiteral("secretsUnknown")), problem, {} };
    Result<SettingsValues> parsed = SettingsValues::fromJson(values, reader.childPath(QStringLiteral("values")));
    if (!parsed)
        return parsed.error();
    view.values = std::move(parsed).value();
    if (secrets.size() > maxValues)
        return Error{ reader.childPath(QStringLiteral("secrets")),
                      tr("too many secrets (%1, at most %2)").arg(secrets.size()).arg(maxValues),
                      {} };
    const QString secretsPath = reader.childPath(QStringLiteral("secrets"));
    for (auto it = secrets.constBegin(); it != secrets.constEnd(); ++it) {
        const QString where = child(secretsPath, shownKey(it.key()));
        if (!FieldSpec::isValidId(it.key()))
            return Error{ where, tr("not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}"), {} };
        // Only whether a secret is set ever crosses the protocol, never a value.
        JsonReader secret(it.value(), where);
        secret.rejectUnknownKeys({ QStringLiteral("configured") }, tr("read APIs only say whether a secret is set"));
        const bool configured = secret.requireBool(QStringLiteral("configured"));
        if (!secret.ok())
            return secret.error();
        view.secretsConfigured.insert(it.key(), configured);
    }
    return view;
}

QString SecretUpdate::actionName(Action action)
{
    switch (action) {
    case Action::Keep:
        return QStringLiteral("keep");
    case Action::Replace:
        return QStringLiteral("replace");
    case Action::Remove:
        return QStringLiteral("remove");
    }
    return QString();
}

QJsonObject SecretUpdate::toJson() const
{
    QJsonObject object{ { QStringLiteral("fieldId"), fieldId }, { QStringLiteral("action"), actionName(action) } };
    if (action == Action::Replace)
        object.insert(QStringLiteral("value"), value);
    return object;
}

Result<SecretUpdate> SecretUpdate::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("fieldId"), QStringLiteral("action"), QStringLiteral("value") });
    SecretUpdate update;
    update.fieldId = reader.requireString(QStringLiteral("fieldId"));
    const QString action = reader.requireString(QStringLiteral("action"));
    if (!reader.ok())
        return reader.error();
    if (!FieldSpec::isValidId(update.fieldId))
        return Error{ reader.childPath(QStringLiteral("fieldId")),
                      tr("not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}"),
                      {} };
    if (action == actionName(Action::Keep)) {
        update.action = Action::Keep;
    } else if (action == actionName(Action::Replace)) {
        update.action = Action::Replace;
    } else if (action == actionName(Action::Remove)) {
        update.action = Action::Remove;
    } else {
        return Error{ reader.childPath(QStringLiteral("action")),
                      tr("unknown action \"%1\"; expected keep, replace or remove").arg(action.left(40)),
                      {} };
    }
    if (update.action != Action::Replace && reader.has(QStringLiteral("value")))
        return Error{ reader.childPath(QStringLiteral("value")), tr("only a replace action carries a value"), {} };
    if (update.action == Action::Replace)
        update.value = reader.optionalString(QStringLiteral("value"));
    if (!reader.ok())
        return reader.error();
    return update;
}

} // namespace sandbox
