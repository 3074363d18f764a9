#pragma once

#include "BackendRef.h"
#include "Error.h"
#include "FieldSpec.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sandbox {

// A question a launcher (or the engine, for hostExecution "ask") needs answered now.
// JSON: { id, subject?, ref?, kind: "confirm"|"choice"|"text"|"secret", title, message,
//         options?: [{value,label}] (choice), defaultValue? }
// `id` is new for every question; `subject` names what is asked the same way each time it
// is asked (e.g. "host-execution"), so a presenter can take an answer given in advance.
struct HostInteractionRequest
{
    enum class Kind { Confirm, Choice, Text, Secret };

    QString id;
    QString subject; // lower-case letters, digits, '-' and '.'; empty: none
    BackendRef ref;
    bool hasRef = false;
    Kind kind = Kind::Confirm;
    QString title;
    QString message;
    QList<SelectOption> options;
    QString defaultValue;

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);
    QJsonObject toJson() const;
    static Result<HostInteractionRequest> fromJson(const QJsonValue &value,
                                                   const QString &path = QStringLiteral("interaction"));
    friend bool operator==(const HostInteractionRequest &, const HostInteractionRequest &) = default;
};

// JSON: { id, accepted, value? }. A secret answer's value is never logged or echoed.
struct HostInteractionResponse
{
    QString id;
    bool accepted = false;
    QString value;

    QJsonObject toJson() const;
    static Result<HostInteractionResponse> fromJson(const QJsonValue &value,
                                                    const QString &path = QStringLiteral("answer"));
    friend bool operator==(const HostInteractionResponse &, const HostInteractionResponse &) = default;
};

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::HostInteractionRequest)
