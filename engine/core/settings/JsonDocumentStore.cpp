#include "core/settings/JsonDocumentStore.h"

namespace sandbox {

JsonDocumentStore::JsonDocumentStore(const QString &path, LockedJsonFile::OnCorrupt onCorrupt)
    : m_file(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner, onCorrupt)
{ }

Result<std::optional<QJsonObject>> JsonDocumentStore::read(const LockedJsonFile::Validator &validate)
{
    QMutexLocker locker(&m_mutex);
    // The lock (and its synced lock file) only when the file needs repairing.
    if (std::optional<std::optional<QJsonObject>> clean = m_file.readClean(validate))
        return *clean;
    if (Status status = m_file.lock(); !status.ok())
        return status.error();
    QString warning;
    Result<std::optional<QJsonObject>> object = m_file.read(validate, &warning);
    m_file.unlock();
    if (!warning.isEmpty())
        m_warnings.append(warning);
    return object;
}

Status JsonDocumentStore::write(const QJsonObject &object)
{
    QMutexLocker locker(&m_mutex);
    if (Status status = m_file.lock(); !status.ok())
        return status;
    Status status = m_file.write(object);
    m_file.unlock();
    return status;
}

QStringList JsonDocumentStore::warnings() const
{
    QMutexLocker locker(&m_mutex);
    return m_warnings;
}

} // namespace sandbox
