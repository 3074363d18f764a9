#pragma once

#include "Error.h"
#include "FieldSpec.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandbox {

// What a backend says about itself: serializable, data only. Unknown keys anywhere
// (code, html, script, callbacks, validate, pattern expressions ...) are rejected.
//
// JSON: { name, description, settings: { fields: [FieldSpec...] },
//         platforms?: ["linux","macos","windows"],
//         enforcement?: { filesystem?: text, network?: text, allowedDomains?: text,
//                         hostExecution?: text, confinement?: text, credentials?: text,
//                         sshAgent?: text },
//         timeouts?: { configure?: s, prepare?: s, probe?: s, spawn?: s, dispose?: s },
//         refusals?: text }
// enforcement values say, as plain text, what enforces that policy dimension
// ("Landlock ABI 4 + mount namespace", "not enforced", ...). timeouts state, in whole
// seconds (1 to 3600), how long each launcher call may take before the engine cancels it;
// a call not named gets the engine's default. refusals says, as plain text, which of the
// sandbox's refusals this backend can report as they happen (and which it cannot observe).
struct BackendDescriptor
{
    QString name;
    QString description;
    QList<FieldSpec> fields;
    QStringList platforms;
    QMap<QString, QString> enforcement;
    QMap<QString, int> timeouts; // launcher call -> seconds
    QString refusals; // which refusals are reported as they happen

    static const QStringList &enforcementDimensions();
    static const QStringList &timeoutCalls();
    static constexpr int maxTimeoutSeconds = 3600;
    static const QStringList &knownPlatforms();

    const FieldSpec *field(const QString &id) const;
    bool hasSecrets() const;

    QJsonObject toJson() const;
    static Result<BackendDescriptor> fromJson(const QJsonValue &value,
                                              const QString &path = QStringLiteral("descriptor"));
    // Checks invariants (ids unique, select options present, defaults well typed, ...).
    Status validate(const QString &path = QStringLiteral("descriptor")) const;

    friend bool operator==(const BackendDescriptor &, const BackendDescriptor &) = default;
};

} // namespace sandbox
