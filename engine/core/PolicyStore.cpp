#include "PolicyStore.h"

#include <QDir>

namespace sandbox {

PolicyStore::PolicyStore(const QString &configDirectory)
    : m_file(QDir(configDirectory).filePath(QStringLiteral("policy.json")))
{ }

Result<Policy> PolicyStore::load()
{
    QMutexLocker locker(&m_mutex);
    if (Status status = m_file.lock(); !status.ok())
        return status.error();
    QString warning;
    Result<std::optional<QJsonObject>> object = m_file.read(
        [this](const QJsonObject &json) -> Status {
            Result<Policy> policy = Policy::fromJson(json, m_file.path());
            if (!policy.ok())
                return policy.error();
            return policy.value().validate(m_file.path());
        },
        &warning);
    m_file.unlock();
    if (!warning.isEmpty())
        m_warnings.append(warning);
    if (!object.ok())
        return object.error();
    if (!object.value())
        return Policy::defaults();
    return Policy::fromJson(*object.value(), m_file.path());
}

Status PolicyStore::save(const Policy &policy)
{
    if (Status valid = policy.validate(); !valid.ok())
        return valid;
    QMutexLocker locker(&m_mutex);
    if (Status status = m_file.lock(); !status.ok())
        return status;
    Status status = m_file.write(policy.toJson());
    m_file.unlock();
    return status;
}

QStringList PolicyStore::warnings() const
{
    QMutexLocker locker(&m_mutex);
    return m_warnings;
}

} // namespace sandbox
