#pragma once

#include "Error.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace sandbox {

struct SelectOption
{
    QString value;
    QString label;
    friend bool operator==(const SelectOption &, const SelectOption &) = default;
};

// One field of a backend's settings schema. Data only.
// JSON keys: id, type, label, description?, defaultValue?, required?, options? (select),
// min?, max?, unit? (number; unit is "bytes": presenters show the value as a byte size,
// e.g. 4 GiB, and store plain bytes). Any other key is rejected.
struct FieldSpec
{
    enum class Type { String, Number, Boolean, Select, Secret };
    // How a number is presented; the value itself is always the plain number.
    enum class Unit { None, Bytes };

    QString id;
    Type type = Type::String;
    QString label;
    QString description;
    QJsonValue defaultValue = QJsonValue(QJsonValue::Undefined); // absent; never set for secrets
    bool required = false;
    QList<SelectOption> options;
    std::optional<double> min;
    std::optional<double> max;
    Unit unit = Unit::None;

    // A field as a backend's descriptor declares it, in one expression: the rest is added by
    // the setters below, e.g. make("cpus", Type::Number, tr("CPUs"), {}, 1).withRange(1, 64).
    // `defaultValue` undefined: no default.
    static FieldSpec make(const QString &id, Type type, const QString &label, const QString &description = QString(),
                          const QJsonValue &defaultValue = QJsonValue(QJsonValue::Undefined));
    FieldSpec &withDefault(const QJsonValue &value);
    FieldSpec &withOptions(const QList<SelectOption> &choices);
    // std::nullopt: unbounded on that side.
    FieldSpec &withRange(std::optional<double> lowest, std::optional<double> highest = std::nullopt);
    FieldSpec &asRequired();
    FieldSpec &asByteSize();

    static QString typeName(Type type);
    static std::optional<Type> typeFromName(const QString &name);

    // Checks the field's own invariants (id syntax, plain-text label, select options present
    // and unique, default well typed and in range, no default for secrets, min <= max);
    // errors name `path` and the field id.
    Status validate(const QString &path) const;
    // Field ids: [A-Za-z][A-Za-z0-9_.-]{0,63}
    static bool isValidId(const QString &id);

    // Checks one value against this field; returns an error whose `where` is `path`.
    Status validateValue(const QJsonValue &value, const QString &path) const;

    // The value a person typed for this field, the one rule of every text presenter: a string
    // or select option as typed; a number plain, or for a byte size (unit bytes) also with a
    // KiB/MiB/GiB/TiB (or K/M/G/T) suffix, with or without a space ("4GiB", "4 GiB"); a boolean
    // as true/yes/on/1 or false/no/off/0. A secret is never a plain value. The value read is
    // checked as validateValue does (range, options); errors name `path`, the field.
    Result<QJsonValue> parseText(const QString &text, const QString &path) const;

    QJsonObject toJson() const;
    static Result<FieldSpec> fromJson(const QJsonValue &value, const QString &path);

    friend bool operator==(const FieldSpec &, const FieldSpec &) = default;
};

} // namespace sandbox
