#include "PolicyStore.h"

#include <QDir>

namespace sandbox {

PolicyStore::PolicyStore(const QString &configDirectory)
    : m_document(QDir(configDirectory).filePath(QStringLiteral("policy.json")))
{ }

Result<Policy> PolicyStore::load()
{
    const QString path = m_document.path();
    Result<std::optional<QJsonObject>> object = m_document.read([&path](const QJsonObject &json) -> Status {
        Result<Policy> policy = Policy::fromJson(json, path);
        if (!policy.ok())
            return policy.error();
        return policy.value().validate(path);
    });
    if (!object.ok())
        return object.error();
    if (!object.value())
        return Policy::defaults();
    return Policy::fromJson(*object.value(), path);
}

Status PolicyStore::save(const Policy &policy)
{
    if (Status valid = policy.validate(); !valid.ok())
        return valid;
    return m_document.write(policy.toJson());
}

QStringList PolicyStore::warnings() const
{
    return m_document.warnings();
}

} // namespace sandbox
