#include "CredentialInfo.h"

#include "JsonReader.h"
#include "PolicyCredential.h"

#include <QJsonArray>

namespace sandbox {

QJsonObject CredentialInfo::toJson() const
{
    QJsonObject json{ { QStringLiteral("name"), name },
                      { QStringLiteral("configured"), configured },
                      { QStringLiteral("inPolicy"), inPolicy },
                      { QStringLiteral("hosts"), QJsonArray::fromStringList(hosts) } };
    if (!env.isEmpty())
        json.insert(QStringLiteral("env"), env);
    return json;
}

Result<CredentialInfo> CredentialInfo::fromJson(const QJsonValue &value, const QString &where)
{
    JsonReader reader(value, where);
    reader.rejectUnknownKeys({ QStringLiteral("name"), QStringLiteral("configured"), QStringLiteral("inPolicy"),
                               QStringLiteral("hosts"), QStringLiteral("env") });
    CredentialInfo info;
    info.name = reader.requireString(QStringLiteral("name"));
    info.configured = reader.requireBool(QStringLiteral("configured"));
    info.inPolicy = reader.requireBool(QStringLiteral("inPolicy"));
    info.hosts = reader.optionalStringList(QStringLiteral("hosts"));
    info.env = reader.optionalString(QStringLiteral("env"));
    if (!reader.ok())
        return reader.error();
    if (const QString problem = PolicyCredential::nameProblem(info.name); !problem.isEmpty())
        return Error{ reader.childPath(QStringLiteral("name")), problem, {} };
    return info;
}

} // namespace sandbox
