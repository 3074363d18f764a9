#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QFileDevice>
#include <QJsonObject>
#include <QLockFile>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

// One JSON file of the engine's configuration, shared by every process of the user:
// a lock file beside it serializes writers and the readers that must repair a file, writes are atomic (QSaveFile:
// write a temporary file, flush, rename), and a file that cannot be read is kept as
// "<name>.corrupt-<timestamp>" and reported rather than overwritten.
class LockedJsonFile final
{
    Q_DECLARE_TR_FUNCTIONS(LockedJsonFile)

public:
    // Checks a parsed object; an error makes the file count as corrupt.
    using Validator = std::function<Status(const QJsonObject &)>;
    // What read() does with a file that cannot be read: move it aside (its defaults are then
    // safe to use), or keep it where it is and fail (nothing may stand in for it).
    enum class OnCorrupt { MoveAside, Keep };

    explicit LockedJsonFile(QString path,
                            QFileDevice::Permissions permissions = QFileDevice::ReadOwner | QFileDevice::WriteOwner,
                            OnCorrupt onCorrupt = OnCorrupt::MoveAside);

    QString path() const { return m_path; }

    // Takes the cross-process lock (waits up to `timeoutMs`). Stale locks of dead
    // processes are taken over.
    Status lock(int timeoutMs = 10000);
    void unlock();

    // Reads the file (call with the lock held). Absent file: no object, no warning.
    // Unreadable file: renamed to a backup, no object, *warning says what happened; with
    // OnCorrupt::Keep left untouched, and an error says what is wrong with it.
    // When the backup cannot be made the result is an error, so nothing overwrites it.
    Result<std::optional<QJsonObject>> read(const Validator &validate, QString *warning);
    // Reads the file without taking the lock: every writer replaces it by an atomic rename,
    // so this sees one whole version, as a locked read at the same moment would. Only a
    // clean outcome is returned: no object for an absent file, or the object when it parses
    // and `validate` accepts it. nullopt when the file needs read() under the lock (it is
    // unreadable or corrupt, and moving it aside must not race another process) or a lock
    // file lies beside it.
    std::optional<std::optional<QJsonObject>> readClean(const Validator &validate) const;
    // Atomically replaces the file (call with the lock held).
    Status write(const QJsonObject &object);

private:
    QString m_path;
    QFileDevice::Permissions m_permissions;
    OnCorrupt m_onCorrupt;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace sandbox
