#pragma once

#include "BackendDescriptor.h"
#include "Error.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>

namespace sandbox {

// Ordinary (non-secret) setting values of one backend, by field id.
// Secrets never appear here.
struct SettingsValues
{
    QMap<QString, QJsonValue> values;

    // Errors name each offending field ("<ref>.<fieldId>: ..."), collected in details.
    // Unknown ids, secrets given as plain values and wrong types are errors; a missing
    // required non-secret field is an error unless it has a default.
    Status validate(const BackendDescriptor &descriptor, const QString &where) const;
    // The values with defaults filled in for absent fields.
    SettingsValues withDefaults(const BackendDescriptor &descriptor) const;
    // Only the values that differ from the defaults (what gets written to disk).
    SettingsValues withoutDefaults(const BackendDescriptor &descriptor) const;

    QJsonObject toJson() const;
    static Result<SettingsValues> fromJson(const QJsonValue &value, const QString &path);

    friend bool operator==(const SettingsValues &, const SettingsValues &) = default;
};

// What a read API returns: values plus, for each secret field, only whether it is set.
// JSON: { values: {...}, secrets: { <id>: { configured: bool } }, insecureStorage?: bool }
struct SettingsView
{
    SettingsValues values;
    QMap<QString, bool> secretsConfigured;
    bool insecureStorage = false;
    // Why whether the secrets are set is unknown (the keychain cannot be reached); the
    // other fields are still shown and can be changed. JSON: secretsUnknown (absent: known).
    QString secretsUnknown;

    QJsonObject toJson() const;
    static Result<SettingsView> fromJson(const QJsonValue &value, const QString &path);
    friend bool operator==(const SettingsView &, const SettingsView &) = default;
};

// An explicit change to one secret field. An empty Replace is treated as Keep.
struct SecretUpdate
{
    enum class Action { Keep, Replace, Remove };
    QString fieldId;
    Action action = Action::Keep;
    QString value; // only for Replace; never serialized back out by read APIs

    static QString actionName(Action action);
    // What the update does: an empty Replace keeps the stored secret (empty input = no change).
    Action effectiveAction() const { return action == Action::Replace && value.isEmpty() ? Action::Keep : action; }

    QJsonObject toJson() const;
    static Result<SecretUpdate> fromJson(const QJsonValue &value, const QString &path);
    friend bool operator==(const SecretUpdate &, const SecretUpdate &) = default;
};

// Values handed to Launcher::configure(): ordinary values with defaults filled in plus
// the resolved secret values. Exists only inside the engine; has no JSON form on purpose.
struct ResolvedSettings
{
    SettingsValues values;
    QMap<QString, QString> secrets;
    // Optional secret fields the secret store could not be read for (no keychain reachable),
    // with why: the backend works without them until its settings need one, then says why.
    QMap<QString, QString> unreadSecrets;
};

} // namespace sandbox
