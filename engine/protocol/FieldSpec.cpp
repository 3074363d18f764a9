#include "FieldSpec.h"

#include "JsonReader.h"
#include "ProtocolText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace sandbox {

namespace {

constexpr qsizetype maxOptions = 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::FieldSpec", text);
}

QString dataOnly()
{
    return tr("descriptors are data only");
}

QString child(const QString &path, const QString &key)
{
    return path + QLatin1Char('.') + key;
}

// A byte size as typed, "4GiB", "4 G" or "1.5 MiB": the number of bytes.
std::optional<double> byteSize(const QString &text)
{
    static const QRegularExpression withUnit(QStringLiteral("^\\s*([0-9.]+)\\s*([KMGT])(iB)?\\s*$"),
                                             QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = withUnit.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double number = match.captured(1).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    const int power = int(QStringLiteral("KMGT").indexOf(match.captured(2).toUpper())) + 1;
    return number * std::pow(1024.0, power);
}

} // namespace

FieldSpec FieldSpec::make(const QString &id, Type type, const QString &label, const QString &description,
                          const QJsonValue &defaultValue)
{
    FieldSpec spec;
    spec.id = id;
    spec.type = type;
    spec.label = label;
    spec.description = description;
    spec.defaultValue = defaultValue;
    return spec;
}

FieldSpec &FieldSpec::withDefault(const QJsonValue &value)
{
    defaultValue = value;
    return *this;
}

FieldSpec &FieldSpec::withOptions(const QList<SelectOption> &choices)
{
    options = choices;
    return *this;
}

FieldSpec &FieldSpec::withRange(std::optional<double> lowest, std::optional<double> highest)
{
    min = lowest;
    max = highest;
    return *this;
}

FieldSpec &FieldSpec::asRequired()
{
    required = true;
    return *this;
}

FieldSpec &FieldSpec::asByteSize()
{
    unit = Unit::Bytes;
    return *this;
}

Result<QJsonValue> FieldSpec::parseText(const QString &text, const QString &path) const
{
    const Result<QJsonValue> read = [&]() -> Result<QJsonValue> {
        switch (type) {
        case Type::String:
        case Type::Select:
            return QJsonValue(text);
        case Type::Number: {
            bool ok = false;
            const double plain = text.toDouble(&ok);
            if (ok)
                return QJsonValue(plain);
            if (unit != Unit::Bytes)
                return Error{ path, tr("expected a number, got \"%1\"").arg(text), {} };
            if (const std::optional<double> bytes = byteSize(text))
                return QJsonValue(*bytes);
            return Error{ path,
                          tr("expected a number, or a size such as 4GiB or 512 MiB (KiB, MiB, GiB or TiB), got "
                             "\"%1\"")
                              .arg(text),
                          {} };
        }
        case Type::Boolean: {
            const QString word = text.trimmed().toLower();
            for (const char *yes : { "true", "yes", "on", "1" }) {
                if (word == QLatin1String(yes))
                    return QJsonValue(true);
            }
            for (const char *no : { "false", "no", "off", "0" }) {
                if (word == QLatin1String(no))
                    return QJsonValue(false);
            }
            return Error{ path, tr("expected true or false, got \"%1\"").arg(text), {} };
        }
        case Type::Secret:
            break;
        }
        return Error{ path, tr("is a secret field; set it as a secret, never as a plain value"), {} };
    }();
    if (!read.ok())
        return read;
    if (const Status valid = validateValue(read.value(), path); !valid.ok())
        return valid.error();
    return read;
}

QString FieldSpec::typeName(Type type)
{
    switch (type) {
    case Type::String:
        return QStringLiteral("string");
    case Type::Number:
        return QStringLiteral("number");
    case Type::Boolean:
        return QStringLiteral("boolean");
    case Type::Select:
        return QStringLiteral("select");
    case Type::Secret:
        return QStringLiteral("secret");
    }
    return QString();
}

std::optional<FieldSpec::Type> FieldSpec::typeFromName(const QString &name)
{
    for (Type type : { Type::String, Type::Number, Type::Boolean, Type::Select, Type::Secret }) {
        if (typeName(type) == name)
            return type;
    }
    return std::nullopt;
}

bool FieldSpec::isValidId(const QString &id)
{
    if (id.isEmpty() || id.size() > 64)
        return false;
    for (qsizetype i = 0; i < id.size(); ++i) {
        const char16_t c = id.at(i).unicode();
        const bool letter = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
        if (letter)
            continue;
        if (i > 0 && ((c >= u'0' && c <= u'9') || c == u'_' || c == u'.' || c == u'-'))
            continue;
        return false;
    }
    return true;
}

Status FieldSpec::validateValue(const QJsonValue &value, const QString &path) const
{
    auto wrongType = [&](const char *what) {
        return Status(Error{ path, tr("expected %1, got %2").arg(tr(what), JsonReader::typeName(value)), {} });
    };
    switch (type) {
    case Type::String:
        if (!value.isString())
            return wrongType("a string");
        if (value.toString().size() > JsonReader::maxStringLength)
            return Error{ path, tr("is too long (at most %1 characters)").arg(JsonReader::maxStringLength), {} };
        return Status::success();
    case Type::Number: {
        if (!value.isDouble())
            return wrongType("a number");
        const double d = value.toDouble();
        if (!std::isfinite(d))
            return Error{ path, tr("must be a finite number"), {} };
        if (min && d < *min)
            return Error{ path, tr("%1 is below the minimum %2").arg(d).arg(*min), {} };
        if (max && d > *max)
            return Error{ path, tr("%1 is above the maximum %2").arg(d).arg(*max), {} };
        return Status::success();
    }
    case Type::Boolean:
        if (!value.isBool())
            return wrongType("a boolean");
        return Status::success();
    case Type::Select: {
        if (!value.isString())
            return wrongType("a string");
        QStringList allowed;
        for (const SelectOption &option : options) {
            if (option.value == value.toString())
                return Status::success();
            allowed.append(quotedForMessage(option.value));
        }
        return Error{ path,
                      tr("%1 is not one of the options (%2)")
                          .arg(quotedForMessage(value.toString()), allowed.join(QStringLiteral(", "))),
                      {} };
    }
    case Type::Secret:
        return Error{ path, tr("is a secret field; set it as a secret, never as a plain value"), {} };
    }
    return Error{ path, tr("has an unknown field type"), {} };
}

Status FieldSpec::validate(const QString &path) const
{
    if (!isValidId(id))
        return Error{ child(path, QStringLiteral("id")),
                      tr("%1 is not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}").arg(quotedForMessage(id)),
                      {} };
    if (typeName(type).isEmpty())
        return Error{ child(path, QStringLiteral("type")), tr("field \"%1\" has an unknown type").arg(id), {} };
    if (label.isEmpty())
        return Error{ child(path, QStringLiteral("label")), tr("field \"%1\" needs a label").arg(id), {} };
    if (const QString problem = JsonReader::plainTextProblem(label); !problem.isEmpty())
        return Error{ child(path, QStringLiteral("label")), tr("field \"%1\": label %2").arg(id, problem), {} };
    if (const QString problem = JsonReader::plainTextProblem(description); !problem.isEmpty())
        return Error{ child(path, QStringLiteral("description")),
                      tr("field \"%1\": description %2").arg(id, problem),
                      {} };

    if (type == Type::Select) {
        if (options.isEmpty())
            return Error{ child(path, QStringLiteral("options")),
                          tr("select field \"%1\" needs at least one option").arg(id),
                          {} };
        if (options.size() > maxOptions)
            return Error{ child(path, QStringLiteral("options")),
                          tr("select field \"%1\" has too many options (%2, at most %3)")
                              .arg(id)
                              .arg(options.size())
                              .arg(maxOptions),
                          {} };
        QSet<QString> seen;
        for (qsizetype i = 0; i < options.size(); ++i) {
            const SelectOption &option = options.at(i);
            const QString optionPath = path + QStringLiteral(".options[%1]").arg(i);
            if (option.value.isEmpty())
                return Error{ child(optionPath, QStringLiteral("value")),
                              tr("select field \"%1\" has an option with an empty value").arg(id),
                              {} };
            if (const QString problem = JsonReader::plainTextProblem(option.value); !problem.isEmpty())
                return Error{ child(optionPath, QStringLiteral("value")),
                              tr("field \"%1\": option value %2").arg(id, problem),
                              {} };
            if (const QString problem = JsonReader::plainTextProblem(option.label); !problem.isEmpty())
                return Error{ child(optionPath, QStringLiteral("label")),
                              tr("field \"%1\": option label %2").arg(id, problem),
                              {} };
            if (seen.contains(option.value))
                return Error{
                    child(optionPath, QStringLiteral("value")),
                    tr("select field \"%1\" has the option value %2 twice").arg(id, quotedForMessage(option.value)),
                    {}
                };
            seen.insert(option.value);
        }
    } else if (!options.isEmpty()) {
        return Error{ child(path, QStringLiteral("options")),
                      tr("field \"%1\" is a %2 field; only select fields have options").arg(id, typeName(type)),
                      {} };
    }

    if (type == Type::Number) {
        if (min && !std::isfinite(*min))
            return Error{ child(path, QStringLiteral("min")), tr("field \"%1\": min must be finite").arg(id), {} };
        if (max && !std::isfinite(*max))
            return Error{ child(path, QStringLiteral("max")), tr("field \"%1\": max must be finite").arg(id), {} };
        if (min && max && *min > *max)
            return Error{ child(path, QStringLiteral("min")),
                          tr("field \"%1\": min (%2) is greater than max (%3)").arg(id).arg(*min).arg(*max),
                          {} };
    } else if (min || max) {
        return Error{ child(path, min ? QStringLiteral("min") : QStringLiteral("max")),
                      tr("field \"%1\" is a %2 field; only number fields have min and max").arg(id, typeName(type)),
                      {} };
    }
    if (unit != Unit::None && type != Type::Number)
        return Error{ child(path, QStringLiteral("unit")),
                      tr("field \"%1\" is a %2 field; only number fields have a unit").arg(id, typeName(type)),
                      {} };

    if (!defaultValue.isUndefined()) {
        const QString defaultPath = child(path, QStringLiteral("defaultValue"));
        if (type == Type::Secret)
            return Error{ defaultPath, tr("secret field \"%1\" cannot have a default").arg(id), {} };
        const Status valid = validateValue(defaultValue, defaultPath);
        if (!valid)
            return Error{ defaultPath, tr("invalid default for field \"%1\": %2").arg(id, valid.error().message), {} };
    }
    return Status::success();
}

QJsonObject FieldSpec::toJson() const
{
    QJsonObject object{ { QStringLiteral("id"), id },
                        { QStringLiteral("type"), typeName(type) },
                        { QStringLiteral("label"), label } };
    if (!description.isEmpty())
        object.insert(QStringLiteral("description"), description);
    if (!defaultValue.isUndefined())
        object.insert(QStringLiteral("defaultValue"), defaultValue);
    if (required)
        object.insert(QStringLiteral("required"), true);
    if (!options.isEmpty()) {
        QJsonArray array;
        for (const SelectOption &option : options) {
            QJsonObject o{ { QStringLiteral("value"), option.value } };
            if (!option.label.isEmpty())
                o.insert(QStringLiteral("label"), option.label);
            array.append(o);
        }
        object.insert(QStringLiteral("options"), array);
    }
    if (min)
        object.insert(QStringLiteral("min"), *min);
    if (max)
        object.insert(QStringLiteral("max"), *max);
    if (unit == Unit::Bytes)
        object.insert(QStringLiteral("unit"), QStringLiteral("bytes"));
    return object;
}

Result<FieldSpec> FieldSpec::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("type"), QStringLiteral("label"),
                               QStringLiteral("description"), QStringLiteral("defaultValue"),
                               QStringLiteral("required"), QStringLiteral("options"), QStringLiteral("min"),
                               QStringLiteral("max"), QStringLiteral("unit") },
                             dataOnly());
    FieldSpec spec;
    spec.id = reader.requireString(QStringLiteral("id"));
    if (reader.ok() && !isValidId(spec.id))
        reader.fail(
            QStringLiteral("id"),
            tr("%1 is not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}").arg(quotedForMessage(spec.id)));
    const QString type = reader.requireString(QStringLiteral("type"));
    if (reader.ok()) {
        if (const std::optional<Type> parsed = typeFromName(type))
            spec.type = *parsed;
        else
            reader.fail(QStringLiteral("type"),
                        tr("field \"%1\" has the unknown type %2; expected string, number, boolean, select or secret")
                            .arg(spec.id, quotedForMessage(type)));
    }
    spec.label = reader.requirePlainText(QStringLiteral("label"));
    spec.description = reader.optionalPlainText(QStringLiteral("description"));
    if (reader.has(QStringLiteral("defaultValue")))
        spec.defaultValue = reader.value(QStringLiteral("defaultValue"));
    spec.required = reader.optionalBool(QStringLiteral("required"), false);
    spec.min = reader.optionalNumber(QStringLiteral("min"));
    spec.max = reader.optionalNumber(QStringLiteral("max"));
    const QString unit = reader.optionalString(QStringLiteral("unit"));
    if (reader.ok() && !unit.isEmpty()) {
        if (unit == QLatin1String("bytes"))
            spec.unit = Unit::Bytes;
        else
            reader.fail(
                QStringLiteral("unit"),
                tr("field \"%1\" has the unknown unit %2; expected bytes").arg(spec.id, quotedForMessage(unit)));
    }
    const QJsonArray options = reader.optionalArray(QStringLiteral("options"));
    if (!reader.ok())
        return reader.error();
    if (options.size() > maxOptions)
        return Error{ child(path, QStringLiteral("options")),
                      tr("select field \"%1\" has too many options (%2, at most %3)")
                          .arg(spec.id)
                          .arg(options.size())
                          .arg(maxOptions),
                      {} };
    for (qsizetype i = 0; i < options.size(); ++i) {
        JsonReader option(options.at(i), path + QStringLiteral(".options[%1]").arg(i));
        option.rejectUnknownKeys({ QStringLiteral("value"), QStringLiteral("label") }, dataOnly());
        SelectOption parsed;
        parsed.value = option.requireString(QStringLiteral("value"));
        parsed.label = option.optionalPlainText(QStringLiteral("label"));
        if (!option.ok())
            return option.error();
        spec.options.append(parsed);
    }
    if (const Status valid = spec.validate(path); !valid)
        return valid.error();
    return spec;
}

} // namespace sandbox
