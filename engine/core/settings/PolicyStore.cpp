#include "core/settings/PolicyStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <sys/stat.h>

namespace sandbox {

PolicyStore::PolicyStore(const QString &configDirectory)
    : m_document(QDir(configDirectory).filePath(QStringLiteral("policy.json")), LockedJsonFile::OnCorrupt::Keep)
{ }

std::optional<PolicyStore::FileIdentity> PolicyStore::identityOf(const QString &path, bool *absent)
{
    struct stat st = {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) {
        *absent = errno == ENOENT;
        return std::nullopt;
    }
    *absent = false;
    return FileIdentity{ quint64(st.st_dev), quint64(st.st_ino), qint64(st.st_size),
                         qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
                         qint64(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec };
}

Result<Policy> PolicyStore::load()
{
    const QString path = m_document.path();
    bool absent = false;
    const std::optional<FileIdentity> before = identityOf(path, &absent);
    // Saves rename a complete file into place, so an absent file is no half-written one.
    if (absent)
        return Policy::defaults();
    if (before) {
        QMutexLocker locker(&m_cacheMutex);
        if (m_cachedIdentity == before)
            return m_cached;
    }
    Result<std::optional<QJsonObject>> object = m_document.read([&path](const QJsonObject &json) -> Status {
        Result<Policy> policy = Policy::fromJson(json, path);
        if (!policy.ok())
            return policy.error();
        return policy.value().validate(path);
    });
    if (!object.ok()) {
        // The problem without the file's path again: the error names it once.
        const Error &problem = object.error();
        const QString detail = problem.where == path ? problem.message : problem.toString();
        return Error{ path,
                      QCoreApplication::translate(
                          "sandbox::PolicyStore",
                          "The sandbox policy cannot be read (%1), so no command runs until it is fixed: a command "
                          "never runs under a policy other than yours. Repair the file, or replace it with "
                          "\"sandboxctl policy set FILE\" or with the defaults by \"sandboxctl policy reset\" (or in "
                          "Studio's policy panel). The file is left as it is until then.")
                          .arg(detail),
                      {} };
    }
    if (!object.value())
        return Policy::defaults();
    Result<Policy> policy = Policy::fromJson(*object.value(), path);
    // Remembered only when the file read is the one identified before reading it.
    bool absentAfter = false;
    if (policy.ok() && before && identityOf(path, &absentAfter) == before) {
        QMutexLocker locker(&m_cacheMutex);
        m_cachedIdentity = before;
        m_cached = policy.value();
    }
    return policy;
}

Status PolicyStore::save(const Policy &policy)
{
    if (Status valid = policy.validate(); !valid.ok())
        return valid;
    {
        QMutexLocker locker(&m_cacheMutex);
        m_cachedIdentity.reset();
    }
    return m_document.write(policy.toJson());
}

QStringList PolicyStore::warnings() const
{
    return m_document.warnings();
}

} // namespace sandbox
