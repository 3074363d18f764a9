#include "SandboxPlanCache.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

constexpr uint32_t kEntryEvents = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF
    | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;

// The entry at `path` as a lookup sees it: which inode, its type, owner and mode, and
// where a symlink points; or that there is none.
void appendEntry(QByteArray &out, const QByteArray &path)
{
    struct stat st = {};
    if (lstat(path.constData(), &st) != 0) {
        out += "-\n";
        return;
    }
    out += QByteArray::number(quint64(st.st_dev)) + ' ' + QByteArray::number(quint64(st.st_ino)) + ' '
        + QByteArray::number(st.st_mode) + ' ' + QByteArray::number(st.st_uid) + ' ' + QByteArray::number(st.st_gid);
    if (S_ISLNK(st.st_mode)) {
        char target[PATH_MAX];
        const ssize_t length = readlink(path.constData(), target, sizeof target);
        out += " -> " + (length >= 0 ? QByteArray(target, length) : QByteArray("?"));
    }
    out += '\n';
}

} // namespace

SandboxPlanCache::SandboxPlanCache() = default;

SandboxPlanCache::~SandboxPlanCache()
{
    if (m_inotify >= 0)
        close(m_inotify);
    if (m_mountTable >= 0)
        close(m_mountTable);
}

int SandboxPlanCache::reuses() const
{
    QMutexLocker lock(&m_mutex);
    return m_reuses;
}

bool SandboxPlanCache::sameInputs(const SandboxPlan::Input &a, const SandboxPlan::Input &b)
{
    return a.policy == b.policy && a.request.cwd == b.request.cwd
        && a.request.effectiveWorkspace() == b.request.effectiveWorkspace() && a.tier == b.tier
        && a.landlockAbi == b.landlockAbi && a.proxySocket == b.proxySocket && a.agentSocket == b.agentSocket
        && a.sshEnvironment == b.sshEnvironment && a.sshFiles == b.sshFiles
        && a.exposeHostExecution == b.exposeHostExecution && a.homePath == b.homePath
        && a.hostEnvironment == b.hostEnvironment && a.credentialEnvironment == b.credentialEnvironment
        && a.certificateBundle == b.certificateBundle && a.systemBundle == b.systemBundle;
}

QByteArray SandboxPlanCache::stateOf(const QString &directory, const FilesystemReads::Consulted &consulted)
{
    const QByteArray path = QFile::encodeName(directory);
    const QByteArray prefix = path == "/" ? QByteArray("/") : path + '/';
    QByteArray state;
    appendEntry(state, path);
    QList<QByteArray> names;
    if (consulted.listed) {
        DIR *dir = opendir(path.constData());
        if (!dir)
            return state + "unlistable\n";
        while (const dirent *entry = readdir(dir)) {
            const QByteArray name(entry->d_name);
            if (name != "." && name != "..")
                names.append(name);
        }
        closedir(dir);
    } else {
        for (const QString &name : consulted.names)
            names.append(QFile::encodeName(name));
    }
    std::sort(names.begin(), names.end());
    for (const QByteArray &name : names) {
        state += name + '\0';
        appendEntry(state, prefix + name);
    }
    return state;
}

void SandboxPlanCache::forgetAll()
{
    m_entries.clear();
    m_watched.clear();
    m_byWatch.clear();
    if (m_inotify >= 0)
        close(m_inotify);
    if (m_mountTable >= 0)
        close(m_mountTable);
    // Both opened before anything is read again: what changes after this is seen.
    m_inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    m_mountTable = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
}

bool SandboxPlanCache::unchanged()
{
    if (m_inotify < 0 || m_mountTable < 0)
        return false;
    QSet<int> touched;
    alignas(inotify_event) char events[8192];
    for (;;) {
        const ssize_t n = read(m_inotify, events, sizeof events);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        if (n <= 0)
            return false;
        for (ssize_t offset = 0; offset + ssize_t(sizeof(inotify_event)) <= n;) {
            const auto *event = reinterpret_cast<const inotify_event *>(events + offset);
            // A lost event or a watch the kernel dropped: nothing can be vouched for.
            if (event->mask & (IN_Q_OVERFLOW | IN_IGNORED | IN_UNMOUNT))
                return false;
            touched.insert(event->wd);
            offset += ssize_t(sizeof(inotify_event)) + ssize_t(event->len);
        }
    }
    pollfd mounts = { m_mountTable, POLLPRI, 0 };
    if (poll(&mounts, 1, 0) != 0)
        return false; // a mount or unmount anywhere in this mount namespace (or poll failed)
    for (const int wd : touched) {
        for (const QString &directory : m_byWatch.value(wd)) {
            const Watched &watched = m_watched[directory];
            if (stateOf(directory, watched.consulted) != watched.state)
                return false;
        }
    }
    return true;
}

bool SandboxPlanCache::covers(const QString &directory, const FilesystemReads::Consulted &consulted) const
{
    const auto found = m_watched.constFind(directory);
    if (found == m_watched.cend())
        return false;
    const FilesystemReads::Consulted &watched = found->consulted;
    return watched.listed || (!consulted.listed && watched.names.contains(consulted.names));
}

bool SandboxPlanCache::watch(const QString &directory, const FilesystemReads::Consulted &consulted)
{
    const QByteArray path = QFile::encodeName(directory);
    Watched &watched = m_watched[directory];
    if (watched.state.isEmpty()) {
        const int wd = FilesystemReads::onLocalFilesystem(path)
            ? inotify_add_watch(m_inotify, path.constData(), kEntryEvents)
            : -1;
        if (wd < 0) {
            m_watched.remove(directory);
            return false;
        }
        m_byWatch[wd].append(directory);
    }
    watched.consulted.names.unite(consulted.names);
    watched.consulted.listed = watched.consulted.listed || consulted.listed;
    watched.state = stateOf(directory, watched.consulted);
    return true;
}

Result<SandboxPlan> SandboxPlanCache::plan(const SandboxPlan::Input &input)
{
    QMutexLocker lock(&m_mutex);
    if (!unchanged())
        forgetAll();
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        if (!sameInputs(m_entries[i].key, input))
            continue;
        Result<SandboxPlan> reused = m_entries[i].plan.forCommand(input);
        if (reused) {
            ++m_reuses;
            m_entries.move(i, 0);
        }
        return reused;
    }
    // A process that plans one command (an embedded engine) never pays for watching.
    if (!m_planned) {
        m_planned = true;
        return SandboxPlan::build(input);
    }
    FilesystemReads reads;
    Result<SandboxPlan> built = SandboxPlan::build(input, &reads);
    if (!built || reads.unrepeatable())
        return built;
    // Kept only when every read was under a watch set up before it happened.
    bool underWatch = true;
    for (auto it = reads.directories().cbegin(); it != reads.directories().cend(); ++it) {
        if (covers(it.key(), it.value()))
            continue;
        underWatch = false;
        if (!watch(it.key(), it.value())) {
            forgetAll(); // a directory no watch can follow: this plan is never reused
            return built;
        }
    }
    if (!unchanged()) {
        forgetAll();
        return built;
    }
    if (underWatch) {
        m_entries.prepend({ input, built.value() });
        if (m_entries.size() > kMaxPlans)
            m_entries.removeLast();
    }
    return built;
}

} // namespace sandbox
