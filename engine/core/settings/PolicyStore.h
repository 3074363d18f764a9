#pragma once

#include "core/settings/JsonDocumentStore.h"
#include "protocol/Policy.h"

#include <QMutex>
#include <QStringList>

#include <optional>

namespace sandbox {

// policy.json in the configuration directory. Absent: Policy::defaults(). Only
// setPolicy() writes it; activating a backend never does. Unreadable: load() fails, naming
// the file, what is wrong and how to fix it, and the file is left as it is: no other policy
// (the defaults may be looser than the user's) stands in for it.
class PolicyStore final
{
public:
    explicit PolicyStore(const QString &configDirectory);

    Result<Policy> load();
    Status save(const Policy &policy);
    QStringList warnings() const;

private:
    // What identifies one version of the file: a save (a rename into place) or any edit
    // changes one of these.
    struct FileIdentity
    {
        quint64 device = 0;
        quint64 inode = 0;
        qint64 size = 0;
        qint64 modifiedNs = 0;
        qint64 changedNs = 0;
        bool operator==(const FileIdentity &) const = default;
    };
    static std::optional<FileIdentity> identityOf(const QString &path, bool *absent);

    JsonDocumentStore m_document;
    // Every spawn loads the policy: a file unchanged since the last load is not read (nor
    // locked) again.
    QMutex m_cacheMutex;
    std::optional<FileIdentity> m_cachedIdentity;
    Policy m_cached;
};

} // namespace sandbox
