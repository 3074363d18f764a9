#include "core/settings/LockedJsonFile.h"

#include "protocol/JsonReader.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace sandbox {

LockedJsonFile::LockedJsonFile(QString path, QFileDevice::Permissions permissions, OnCorrupt onCorrupt)
    : m_path(std::move(path))
    , m_permissions(permissions)
    , m_onCorrupt(onCorrupt)
{ }

Status LockedJsonFile::lock(int timeoutMs)
{
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir))
        return Error{ dir, tr("Cannot create the configuration directory. Check its permissions."), {} };
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_lock = std::make_unique<QLockFile>(m_path + QStringLiteral(".lock"));
    // QLockFile takes over at once a lock whose owner is known to be dead. A writer killed
    // while it was creating the lock file leaves an empty one that names no owner; such a
    // lock counts as stale after this long. Holding the lock only spans one small read and
    // one atomic write, so a live owner is never near it, and even a takeover could only
    // lose an update, never tear the file (writes are atomic renames).
    m_lock->setStaleLockTime(3000);
    if (!m_lock->tryLock(timeoutMs)) {
        const QLockFile::LockError error = m_lock->error();
        m_lock.reset();
        if (error == QLockFile::PermissionError)
            return Error{ m_path, tr("Cannot create the lock file beside it: permission denied."), {} };
        return Error{ m_path, tr("Another process has held the lock on this file for too long; try again."), {} };
    }
    return {};
}

void LockedJsonFile::unlock()
{
    if (m_lock)
        m_lock->unlock();
    m_lock.reset();
}

std::optional<std::optional<QJsonObject>> LockedJsonFile::readClean(const Validator &validate) const
{
    // A lock file present means a writer at work, or one that died holding it: the locked
    // read waits for the one and clears the other, so the next writer does not wait on it.
    if (QFileInfo::exists(m_path + QStringLiteral(".lock")))
        return std::nullopt;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (!file.exists())
            return std::optional<QJsonObject>();
        return std::nullopt;
    }
    const QByteArray text = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return std::nullopt;
    file.close();
    const Result<QJsonObject> parsed = parseJsonObject(text, m_path);
    if (!parsed.ok() || (validate && !validate(parsed.value()).ok()))
        return std::nullopt;
    return std::optional<QJsonObject>(parsed.value());
}

Result<std::optional<QJsonObject>> LockedJsonFile::read(const Validator &validate, QString *warning)
{
    QFile file(m_path);
    if (!file.exists())
        return std::optional<QJsonObject>();
    if (!file.open(QIODevice::ReadOnly))
        return Error{ m_path, tr("Cannot read the file: %1").arg(file.errorString()), {} };
    const QByteArray text = file.readAll();
    file.close();

    Result<QJsonObject> parsed = parseJsonObject(text, m_path);
    Status status = parsed.ok() ? (validate ? validate(parsed.value()) : Status()) : Status(parsed.error());
    if (status.ok())
        return std::optional<QJsonObject>(parsed.value());
    if (m_onCorrupt == OnCorrupt::Keep)
        return status.error();

    const QString backup = m_path + QStringLiteral(".corrupt-")
        + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    if (!QFile::rename(m_path, backup)) {
        return Error{ m_path,
                      tr("The file is unreadable (%1) and could not be moved aside to %2; it was left untouched. "
                         "Move or repair it by hand.")
                          .arg(status.error().toString(), backup),
                      {} };
    }
    if (warning) {
        *warning = tr("%1 was unreadable (%2). It was kept as %3 and defaults are used until you change a setting.")
                       .arg(m_path, status.error().toString(), backup);
    }
    return std::optional<QJsonObject>();
}

Status LockedJsonFile::write(const QJsonObject &object)
{
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{ m_path, tr("Cannot write the file: %1").arg(file.errorString()), {} };
    file.setPermissions(m_permissions);
    file.write(QJsonDocument(object).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return Error{ m_path, tr("Cannot save the file: %1").arg(file.errorString()), {} };
    return {};
}

} // namespace sandbox
