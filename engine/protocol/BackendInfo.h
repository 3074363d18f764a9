#pragma once

#include "BackendDescriptor.h"
#include "BackendRef.h"
#include "Error.h"

#include <QJsonObject>
#include <QString>

namespace sandbox {

// Whether a backend can run now, and why not.
struct Availability
{
    bool available = false;
    QString reason;

    QJsonObject toJson() const;
    static Result<Availability> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("availability"));
    friend bool operator==(const Availability &, const Availability &) = default;
};

// A backend as discovery lists it.
// JSON: { ref, descriptor, availability, active, sourceLabel, unenforced?, missingSettings? }
// `unenforced` names the policy dimensions the current policy restricts that the backend
// does not enforce: the engine refuses to make it active (commands never run unconfined).
// `missingSettings` names its required fields (by id) that have no value, no default, or
// (secrets) nothing stored: activating it without them fails.
struct BackendInfo
{
    BackendRef ref;
    BackendDescriptor descriptor;
    Availability availability;
    bool active = false;
    QString sourceLabel; // "Built-in" or the contributing pack's name
    QStringList unenforced;
    QStringList missingSettings;

    QJsonObject toJson() const;
    static Result<BackendInfo> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("backend"));
    friend bool operator==(const BackendInfo &, const BackendInfo &) = default;
};

// An installed atom pack. JSON: { id, publisher, name, version, enabled, backends: [ref],
// description?, refused? } — `refused` says, one sentence each, which backends the pack
// offers that the engine refused and why.
struct PackInfo
{
    QString id;
    QString publisher;
    QString name;
    QString version;
    bool enabled = true;
    QList<BackendRef> backends;
    QString description;
    QStringList refused;

    QJsonObject toJson() const;
    static Result<PackInfo> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("pack"));
    friend bool operator==(const PackInfo &, const PackInfo &) = default;
};

} // namespace sandbox
