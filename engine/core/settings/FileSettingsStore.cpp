#include "core/settings/FileSettingsStore.h"

#include <QDir>

namespace sandbox {

FileSettingsStore::FileSettingsStore(const QString &configDirectory)
    : m_file(QDir(configDirectory).filePath(QStringLiteral("settings.json")))
{ }

Result<SettingsDocument> FileSettingsStore::readLocked()
{
    QString warning;
    Result<std::optional<QJsonObject>> object = m_file.read(
        [this](const QJsonObject &json) -> Status {
            Result<SettingsDocument> document = SettingsDocument::fromJson(json, m_file.path());
            return document.ok() ? Status() : Status(document.error());
        },
        &warning);
    if (!warning.isEmpty())
        m_warnings.append(warning);
    if (!object.ok())
        return object.error();
    if (!object.value())
        return SettingsDocument();
    QStringList notices;
    Result<SettingsDocument> document = SettingsDocument::fromJson(*object.value(), m_file.path(), &notices);
    if (document.ok() && !notices.isEmpty()) {
        // Normalised once: written back (under the lock we hold) without the legacy keys.
        const Status written = m_file.write(document.value().toJson());
        m_warnings += notices;
        if (!written.ok())
            m_warnings.append(written.error().toString());
    }
    return document;
}

std::optional<SettingsDocument> FileSettingsStore::readCleanDocument() const
{
    // A current, valid file is read without the lock; one to repair or to normalise
    // (legacy keys, written back) is read under it.
    const std::optional<std::optional<QJsonObject>> clean = m_file.readClean(nullptr);
    if (!clean)
        return std::nullopt;
    if (!*clean)
        return SettingsDocument();
    QStringList notices;
    Result<SettingsDocument> document = SettingsDocument::fromJson(**clean, m_file.path(), &notices);
    if (!document.ok() || !notices.isEmpty())
        return std::nullopt;
    return document.value();
}

Result<SettingsDocument> FileSettingsStore::load()
{
    QMutexLocker locker(&m_mutex);
    if (std::optional<SettingsDocument> clean = readCleanDocument())
        return *clean;
    if (Status status = m_file.lock(); !status.ok())
        return status.error();
    Result<SettingsDocument> document = readLocked();
    m_file.unlock();
    return document;
}

Status FileSettingsStore::update(const std::function<Status(SettingsDocument &)> &change)
{
    QMutexLocker locker(&m_mutex);
    // A change that leaves the current, valid file as it is (an engine start restoring the
    // saved selection) is done without the lock and its synced lock file: a write by
    // another process right after this read would have come after it under the lock too.
    if (const std::optional<SettingsDocument> clean = readCleanDocument()) {
        SettingsDocument changed = *clean;
        if (change(changed).ok() && changed == *clean)
            return {};
    }
    if (Status status = m_file.lock(); !status.ok())
        return status;
    Result<SettingsDocument> document = readLocked();
    Status status = document.ok() ? Status() : Status(document.error());
    if (status.ok()) {
        SettingsDocument changed = document.value();
        status = change(changed);
        // Nothing to write is not written: no churn, and no file that only holds defaults.
        if (status.ok() && !(changed == document.value()))
            status = m_file.write(changed.toJson());
    }
    m_file.unlock();
    return status;
}

QStringList FileSettingsStore::warnings() const
{
    QMutexLocker locker(&m_mutex);
    return m_warnings;
}

} // namespace sandbox
