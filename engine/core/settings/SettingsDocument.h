#pragma once

#include "protocol/BackendRef.h"
#include "protocol/Error.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <optional>

namespace sandbox {

// The content of settings.json:
// { version: 1, active?: "<ref>", backends: { "<ref>": { <fieldId>: value } },
//   retained?: { "<publisher>/<packId>": { "<ref>": { ... } } } }
// `backends` holds only values that differ from the schema defaults and never a secret.
// `retained` keeps the settings of a pack identity that was replaced by a pack with the
// same id from another publisher, so they are neither lost nor handed to the newcomer.
struct SettingsDocument
{
    static constexpr int currentVersion = 1;

    std::optional<BackendRef> active;
    QMap<QString, QJsonObject> backends;
    QMap<QString, QMap<QString, QJsonObject>> retained;

    // The key older builds kept the VM baseline settings under, at the top level: a boolean
    // (enabled) or { enabled?, maxInactiveArtifacts?, maxBytes? }.
    static constexpr const char *legacyVmBaselineKey = "sandbox.vm.baseline";

    QJsonObject toJson() const;
    // Legacy settings are normalised into their backend's source-qualified settings (a value
    // already set there wins) and never written back under their old key; `notices` gets a
    // sentence for each normalisation.
    static Result<SettingsDocument> fromJson(const QJsonObject &object, const QString &where,
                                             QStringList *notices = nullptr);

    friend bool operator==(const SettingsDocument &, const SettingsDocument &) = default;
};

} // namespace sandbox
