#pragma once

#include "FilesystemReads.h"
#include "SandboxPlan.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QStringList>

namespace sandbox {

// Plans built before, reused while everything they were built from is unchanged: the
// policy, the workspace, the tier, the proxy channel, the host's environment and home,
// and what the plan read in the filesystem (FilesystemReads). Every directory read is
// watched (inotify) together with the mount table's change notice; when a watched
// directory reports anything, what was read there is read again and compared, and any
// difference (or a mount change, or a lost event) forgets every plan. A plan is kept only
// once a build read nothing that was not already watched, so nothing can change unseen
// between reading a directory and watching it. Directories on filesystems whose changes
// a watch may miss (network and FUSE filesystems) are never relied on: a plan that read
// one is not kept. Watching starts with the second plan, so a process that runs one
// command pays nothing for it. The command and its environment are the request's each time. Safe to
// call from any thread.
class SandboxPlanCache final
{
public:
    SandboxPlanCache();
    ~SandboxPlanCache();
    SandboxPlanCache(const SandboxPlanCache &) = delete;
    SandboxPlanCache &operator=(const SandboxPlanCache &) = delete;

    // What SandboxPlan::build(input) gives now.
    Result<SandboxPlan> plan(const SandboxPlan::Input &input);

    // Plans reused so far (for tests).
    int reuses() const;

    static constexpr int kMaxPlans = 8;

private:
    struct Entry
    {
        SandboxPlan::Input key;
        SandboxPlan plan;
    };
    struct Watched
    {
        FilesystemReads::Consulted consulted;
        QByteArray state; // what `consulted` shows now, taken once the watch was set
    };

    static bool sameInputs(const SandboxPlan::Input &a, const SandboxPlan::Input &b);
    static QByteArray stateOf(const QString &directory, const FilesystemReads::Consulted &consulted);
    // False when anything watched changed since the last call, or watching broke.
    bool unchanged();
    void forgetAll();
    // Watches `directory` for what `consulted` read there; false if no watch can.
    bool watch(const QString &directory, const FilesystemReads::Consulted &consulted);
    bool covers(const QString &directory, const FilesystemReads::Consulted &consulted) const;

    mutable QMutex m_mutex;
    int m_inotify = -1;
    int m_mountTable = -1;
    QHash<QString, Watched> m_watched;
    QHash<int, QStringList> m_byWatch; // one inode may be watched under several paths
    QList<Entry> m_entries; // most recently used first
    int m_reuses = 0;
    bool m_planned = false; // a plan was built before: watching starts with the second
};

} // namespace sandbox
