#include "core/secrets/CredentialVault.h"

#include "core/secrets/CredentialStore.h"

#include <QFile>
#include <QMutexLocker>

#include <sys/stat.h>

namespace sandbox {

CredentialVault::CredentialVault(CredentialStore *store, QString indexPath)
    : m_store(store)
    , m_indexPath(std::move(indexPath))
{ }

QByteArray CredentialVault::indexStamp() const
{
    struct stat status = {};
    if (::stat(QFile::encodeName(m_indexPath).constData(), &status) != 0)
        return QByteArrayLiteral("absent");
    return QByteArray::number(qulonglong(status.st_dev)) + ':' + QByteArray::number(qulonglong(status.st_ino)) + ':'
        + QByteArray::number(qlonglong(status.st_size)) + ':' + QByteArray::number(qlonglong(status.st_mtim.tv_sec))
        + '.' + QByteArray::number(qlonglong(status.st_mtim.tv_nsec)) + ':'
        + QByteArray::number(qlonglong(status.st_ctim.tv_nsec));
}

std::optional<QByteArray> CredentialVault::value(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    if (!m_store)
        return std::nullopt;
    const QByteArray stamp = indexStamp();
    if (stamp != m_stamp) {
        for (QByteArray &kept : m_values)
            kept.fill('\0');
        m_values.clear();
        m_stamp = stamp;
    }
    if (const auto it = m_values.constFind(name); it != m_values.constEnd())
        return it.value();
    const Result<std::optional<QString>> read = m_store->read(name);
    if (!read.ok() || !read.value())
        return std::nullopt;
    const QByteArray bytes = read.value()->toUtf8();
    m_values.insert(name, bytes);
    return bytes;
}

void CredentialVault::forget()
{
    QMutexLocker lock(&m_mutex);
    for (QByteArray &kept : m_values)
        kept.fill('\0');
    m_values.clear();
}

void CredentialVault::detach()
{
    forget();
    QMutexLocker lock(&m_mutex);
    m_store = nullptr;
}

} // namespace sandbox
