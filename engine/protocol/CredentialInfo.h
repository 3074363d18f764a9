#pragma once

#include "Error.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace sandbox {

// What a presenter learns of one credential: its name, whether a value is stored, and
// where the policy lets the engine use it. Never the value. JSON:
// { name, configured: bool, inPolicy: bool, hosts: [domain], env? }
struct CredentialInfo
{
    QString name;
    bool configured = false;
    bool inPolicy = false;
    QStringList hosts;
    QString env;

    QJsonObject toJson() const;
    static Result<CredentialInfo> fromJson(const QJsonValue &value, const QString &where);

    friend bool operator==(const CredentialInfo &, const CredentialInfo &) = default;
};

} // namespace sandbox
