#pragma once

#include "core/settings/LockedJsonFile.h"
#include "core/settings/SettingsStore.h"

#include <QMutex>

namespace sandbox {

// settings.json in the user's configuration directory, shared by every process of the
// user through the lock file beside it.
class FileSettingsStore final : public SettingsStore
{
public:
    explicit FileSettingsStore(const QString &configDirectory);

    QString path() const { return m_file.path(); }

    Result<SettingsDocument> load() override;
    Status update(const std::function<Status(SettingsDocument &)> &change) override;
    QStringList warnings() const override;

private:
    Result<SettingsDocument> readLocked();
    // The document as the file holds it now, read without the lock; nullopt when the file
    // needs the locked read (corrupt, or holding legacy keys to write back).
    std::optional<SettingsDocument> readCleanDocument() const;

    mutable QMutex m_mutex; // the lock file serializes processes; this serializes our threads
    LockedJsonFile m_file;
    QStringList m_warnings;
};

} // namespace sandbox
