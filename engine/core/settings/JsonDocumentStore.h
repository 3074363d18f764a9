#pragma once

#include "core/settings/LockedJsonFile.h"
#include "protocol/Error.h"

#include <QJsonObject>
#include <QMutex>
#include <QStringList>

#include <optional>

namespace sandbox {

// A configuration document read and written whole: each read or write takes the file's
// cross-process lock for just that step, and what a read found wrong (a corrupt file
// moved to a backup) is kept as a warning for the engine to report.
class JsonDocumentStore final
{
public:
    explicit JsonDocumentStore(const QString &path,
                               LockedJsonFile::OnCorrupt onCorrupt = LockedJsonFile::OnCorrupt::MoveAside);

    QString path() const { return m_file.path(); }

    // The document, or no object when the file is absent or was unreadable (then backed up).
    Result<std::optional<QJsonObject>> read(const LockedJsonFile::Validator &validate);
    Status write(const QJsonObject &object);
    QStringList warnings() const;

private:
    mutable QMutex m_mutex;
    LockedJsonFile m_file;
    QStringList m_warnings;
};

} // namespace sandbox
