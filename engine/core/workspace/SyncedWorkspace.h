#pragma once

#include "core/workspace/TarArchive.h"
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QStringList>

namespace sandbox {

// A host workspace as the sandbox gets it and gives it back: what is uploaded (everything
// but the policy's denied paths), and how the sandbox's files come back: a file is written
// only where the policy lets the command write, and only when the host's copy did not
// change while the command ran; otherwise the sandbox's version lands beside it as
// "NAME.sandbox-conflict", and a changed execute bit comes back the same way. Files the
// command deleted stay on the host; links are never written (a link the command made or
// changed is named, an unchanged one is not). Nothing comes back
// that makes the host's git run code: inside an existing git directory only the work
// state git writes (objects, refs, logs, index, ...), no .git entry, nothing through a
// .git or into a directory that is not a git directory here, no HEAD outside one.
class ArchiveLayout;

class SyncedWorkspace final
{
    Q_DECLARE_TR_FUNCTIONS(SyncedWorkspace)

public:
    // The largest workspace uploaded, and the largest archive taken back.
    static constexpr qint64 maximumBytes = 256ll * 1024 * 1024;

    struct Outcome
    {
        int written = 0;
        QStringList conflicts;
        QStringList refused;
    };

    SyncedWorkspace(QString root, const Policy &policy);

    const QString &root() const { return m_root; }
    // Paths under the root the upload leaves out (relative, "/"-separated).
    const QStringList &excluded() const { return m_excluded; }
    // Arguments for `tar` that archive the workspace without the excluded paths.
    QStringList tarArguments() const;
    // Records the state of every file, to tell later which ones the host changed.
    void snapshot();
    // Writes the sandbox's files back (see the class comment).
    Outcome apply(const TarArchive &archive) const;

private:
    struct Stamp
    {
        qint64 size = -1;
        qint64 modified = 0;
        friend bool operator==(const Stamp &, const Stamp &) = default;
    };

    Stamp stampOf(const QString &relative) const;
    bool isExcluded(const QString &relative) const;
    bool isWritable(const QString &relative) const;
    // Why writing `relative` back would change a file that makes this computer's git run
    // code (core/workspace/RepositoryRules.h), judged against the workspace as it is here and the
    // directories `layout` would turn into git directories; empty when it would not.
    QString repositoryRefusal(const QString &relative, const ArchiveLayout &layout) const;
    bool write(const QString &relative, const QByteArray &data, QString *why) const;
    // Sets (or clears) the execute bits of `relative`: for whoever may read it, when set.
    bool setExecutable(const QString &relative, bool executable, QString *why) const;

    QString m_root;
    QStringList m_excluded;
    QStringList m_readOnly;
    QStringList m_writable;
    QHash<QString, Stamp> m_snapshot;
};

} // namespace sandbox
