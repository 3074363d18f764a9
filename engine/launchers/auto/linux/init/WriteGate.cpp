#include "WriteGate.h"

#include "CallerAccess.h"
#include "ControllingTerminal.h"
#include "core/workspace/RepositoryRules.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace sandbox::init {

using repository::components;
using repository::entryIs;

namespace {

constexpr int kMaxLinks = 40; // as the kernel's MAXSYMLINKS
constexpr unsigned long kProcRootInode = 1;
// FIFO opens waiting for their other end, each on a thread of its own.
constexpr int kMaxWaitingOpens = 64;
std::atomic<int> waitingOpens{ 0 };

int lowInt(unsigned long long value)
{
    return static_cast<int>(static_cast<unsigned>(value & 0xffffffffULL));
}

bool isUnder(const std::string &path, const std::string &root)
{
    if (root == "/")
        return !path.empty() && path[0] == '/';
    return path == root
        || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

std::string joinPath(const std::string &directory, const std::string &name)
{
    return directory == "/" ? "/" + name : directory + "/" + name;
}

std::string parentOf(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? std::string("/") : path.substr(0, slash);
}

std::string baseOf(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Resolves the absolute `path` as the kernel would: symbolic links followed where they lie on
// it (dangling ones too), `..` taken from the directory reached, a missing tail kept as
// written. Each link met on the way goes to `links` (its directory resolved, its own name
// kept): replacing one would change what `path` names without writing anything under it.
std::string resolveKeepingLinks(const std::string &path, std::vector<std::string> &links)
{
    std::deque<std::string> pending;
    const auto queue = [&pending](const std::string &text) {
        std::vector<std::string> parts;
        for (size_t at = 0; at <= text.size();) {
            const size_t slash = std::min(text.find('/', at), text.size());
            if (slash > at)
                parts.push_back(text.substr(at, slash - at));
            at = slash + 1;
        }
        pending.insert(pending.begin(), parts.begin(), parts.end());
    };
    queue(path);
    std::string resolved = "/";
    for (int links_followed = 0; !pending.empty();) {
        const std::string part = pending.front();
        pending.pop_front();
        if (part == ".")
            continue;
        if (part == "..") {
            resolved = parentOf(resolved);
            continue;
        }
        const std::string candidate = joinPath(resolved, part);
        struct stat st = {};
        if (lstat(candidate.c_str(), &st) == 0 && S_ISLNK(st.st_mode) && links_followed < 40) {
            ++links_followed;
            links.push_back(candidate);
            char target[PATH_MAX + 1];
            const ssize_t n = readlink(candidate.c_str(), target, PATH_MAX);
            if (n > 0) {
                if (target[0] == '/')
                    resolved = "/";
                queue(std::string(target, static_cast<size_t>(n)));
                continue;
            }
        }
        resolved = candidate;
    }
    return resolved;
}

bool onProc(int fd)
{
    struct statfs fs = {};
    return fstatfs(fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

bool isProcRoot(int fd)
{
    struct stat st = {};
    return onProc(fd) && fstat(fd, &st) == 0 && st.st_ino == kProcRootInode;
}

// Whether the gate may walk on from `dir` for the caller `pid`: anything off /proc; on /proc
// its root (whose numeric entries are checked by name) and what lies in the caller's own
// /proc/PID directory, its thread's or its process's. Another process's /proc directory is
// never entered for a caller, however it was reached (a descriptor, the working directory,
// a /proc link): sandbox-init would open there what the caller may not (another process's
// memory, pipes and descriptors, sandbox-init's own among them). Found by walking up to the
// /proc root, comparing with the caller's directories; a walk that does not end there fails
// closed.
bool callerMayEnter(unsigned pid, int dir)
{
    if (!onProc(dir) || isProcRoot(dir))
        return true;
    std::vector<struct stat> own;
    for (const long long id : { static_cast<long long>(pid), callerProcess(pid) }) {
        if (id <= 0)
            continue;
        const int fd = open(("/proc/" + std::to_string(id)).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        struct stat st = {};
        if (fd >= 0 && fstat(fd, &st) == 0)
            own.push_back(st);
        if (fd >= 0)
            close(fd);
    }
    int current = fcntl(dir, F_DUPFD_CLOEXEC, 0);
    for (int depth = 0; current >= 0 && depth < 16; ++depth) {
        struct stat st = {};
        if (fstat(current, &st) != 0 || st.st_ino == kProcRootInode)
            break;
        for (const struct stat &mine : own) {
            if (st.st_dev == mine.st_dev && st.st_ino == mine.st_ino) {
                close(current);
                return true;
            }
        }
        const int up = openat(current, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        close(current);
        current = up;
    }
    if (current >= 0)
        close(current);
    return false;
}

void removeTree(int parent, const std::string &name)
{
    const int fd = openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        if (DIR *dir = fdopendir(fd)) {
            std::vector<std::string> names;
            while (dirent *entry = readdir(dir)) {
                if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
                    names.push_back(entry->d_name);
            }
            for (const std::string &child : names)
                removeTree(dirfd(dir), child);
            closedir(dir);
        } else {
            close(fd);
        }
        unlinkat(parent, name.c_str(), AT_REMOVEDIR);
        return;
    }
    unlinkat(parent, name.c_str(), 0);
}

// Installs `fd` as a new descriptor of the waiting caller and sets `response` to answer
// its call with the number (or the error). sandbox-init's own copy is closed before the
// caller is answered: while it stayed open, a file just written could not be executed by
// the caller ("Text file busy"), so the descriptor is installed first and the answer sent
// separately, never in one step (SECCOMP_ADDFD_FLAG_SEND).
void installInCaller(int notifyFd, unsigned long long id, int fd, bool closeOnExec, seccomp_notif_resp &response)
{
    seccomp_notif_addfd addfd = {};
    addfd.id = id;
    addfd.srcfd = static_cast<unsigned>(fd);
    addfd.newfd_flags = closeOnExec ? O_CLOEXEC : 0;
    const int rc = ioctl(notifyFd, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd);
    const int saved = errno;
    close(fd);
    response.error = rc < 0 ? -saved : 0;
    response.val = rc < 0 ? 0 : rc;
}

void closeTarget(int &fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

} // namespace

WriteGate::WriteGate(const InitConfig &config)
    : m_tier(config.tier)
    , m_guest(config.inGuest)
{
    auto canonical = [](const std::string &path) {
        char *resolved = realpath(path.c_str(), nullptr);
        std::string out = resolved ? resolved : path;
        std::free(resolved);
        return out;
    };
    for (const std::string &root : config.guardRepositories)
        m_roots.push_back(canonical(root));
    for (const std::string &path : config.guardReadOnly) {
        const std::string resolved = resolveKeepingLinks(path, m_linksToReadOnly);
        if (std::find(m_readOnly.begin(), m_readOnly.end(), resolved) == m_readOnly.end())
            m_readOnly.push_back(resolved);
    }
    for (const std::string &path : config.guardDenied) {
        m_denied.push_back(path);
        if (const std::string real = canonical(path); real != path)
            m_denied.push_back(real);
    }
    for (const std::string &path : config.landlockWritable)
        m_writable.push_back(canonical(path));
    m_devices = config.landlockDevices;
    // Modes are the caller's: its umask is applied to each creation made here.
    umask(0);
}

WriteGate::~WriteGate() = default;

bool WriteGate::wanted(const InitConfig &config)
{
    return !config.guardRepositories.empty() || !config.guardReadOnly.empty() || !config.guardDenied.empty();
}

bool WriteGate::handles(int nr)
{
    static const int calls[]
        = { SCMP_SYS(open),    SCMP_SYS(openat),   SCMP_SYS(creat),   SCMP_SYS(truncate), SCMP_SYS(mkdir),
            SCMP_SYS(mkdirat), SCMP_SYS(mknod),    SCMP_SYS(mknodat), SCMP_SYS(symlink),  SCMP_SYS(symlinkat),
            SCMP_SYS(link),    SCMP_SYS(linkat),   SCMP_SYS(rename),  SCMP_SYS(renameat), SCMP_SYS(renameat2),
            SCMP_SYS(unlink),  SCMP_SYS(unlinkat), SCMP_SYS(rmdir) };
    return std::find(std::begin(calls), std::end(calls), nr) != std::end(calls);
}

std::string WriteGate::objectPath(int fd) const
{
    char buffer[PATH_MAX + 1];
    const ssize_t n = readlink(("/proc/self/fd/" + std::to_string(fd)).c_str(), buffer, PATH_MAX);
    return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

bool WriteGate::underGuardedRoot(const std::string &path) const
{
    for (const std::string &root : m_roots) {
        if (isUnder(path, root))
            return true;
    }
    return false;
}

std::string WriteGate::deniedPathOf(const std::string &path) const
{
    for (const std::string &denied : m_denied) {
        if (isUnder(path, denied))
            return denied;
    }
    return {};
}

std::string WriteGate::nearestGitDirectory(const std::string &directory) const
{
    for (std::string path = directory; underGuardedRoot(path); path = parentOf(path)) {
        if (repository::isGitDirectory(path))
            return path;
        if (path == "/")
            break;
    }
    return {};
}

std::string WriteGate::judge(const std::string &directory, const std::string &name, Change change) const
{
    if (name == "." || name == "..")
        return {}; // the kernel refuses changing these itself
    const bool moving = change == Change::Move;
    const std::string full = joinPath(directory, name);
    if (const std::string denied = deniedPathOf(full); !denied.empty())
        return "beneath " + denied + ", which the policy denies";
    if (std::find(m_linksToReadOnly.begin(), m_linksToReadOnly.end(), full) != m_linksToReadOnly.end())
        return "a symbolic link on the way to a read-only path of the policy";
    // The roots are known by path: a root moved away (or the directory holding it) would
    // leave its repositories unguarded under the new name.
    if (moving) {
        for (const std::string &root : m_roots) {
            if (isUnder(root, full))
                return "holds a writable path of the policy, whose repositories are guarded";
        }
    }
    // A directory on the way to a read-only path (existing or not yet) is neither moved,
    // removed nor replaced by something else of that name (a link elsewhere); only made.
    for (const std::string &path : m_readOnly) {
        if (isUnder(full, path))
            return "a read-only path of the policy";
        if (change != Change::MakeDirectory && isUnder(path, full))
            return "holds a read-only path of the policy";
    }
    if (!underGuardedRoot(full))
        return {};
    // The rules see the path from the parent of the outermost guarded root holding it, and
    // only the directories under a guarded root as git directories.
    std::string outermost;
    for (const std::string &root : m_roots) {
        if (isUnder(full, root) && (outermost.empty() || root.size() < outermost.size()))
            outermost = root;
    }
    const std::string base = parentOf(outermost);
    const std::string relative = full.substr(base == "/" ? 1 : base.size() + 1);
    const auto absolute = [&](const std::string &path) { return path.empty() ? base : joinPath(base, path); };
    const auto kind = [&](const std::string &relativeDirectory) {
        const std::string path = absolute(relativeDirectory);
        return underGuardedRoot(path) && repository::isGitDirectory(path) ? repository::DirectoryKind::GitDirectory
                                                                          : repository::DirectoryKind::Ordinary;
    };
    // Only the command's own rebase or sequencer state changes: the one it created here,
    // or creating it where there is none.
    const auto mayChangeState = [&](const std::string &state, const std::string &entry) {
        const std::string path = absolute(state);
        return std::find(m_createdState.begin(), m_createdState.end(), path) != m_createdState.end()
            || (entry == state && !moving && !entryIs(path, true) && !entryIs(path, false));
    };
    return repository::refusal(base, relative, kind, mayChangeState);
}

bool WriteGate::mayWrite(const std::string &path, bool isParent) const
{
    // A VM guest's sysfs is the guest kernel's: nothing of it is the command's to change.
    if (m_guest && !path.empty() && path[0] == '/') {
        struct statfs fs = {};
        if (statfs(path.c_str(), &fs) == 0 && fs.f_type == SYSFS_MAGIC)
            return false;
    }
    // Tier 1: sandbox-init is pid 1 of the sandbox, under the command's own Landlock
    // rules and mounts; in a container (tier 1's rules) it has the command's mounts, user
    // and (no) capabilities: the kernel refuses it what it refuses the command.
    if (m_tier == 1)
        return true;
    // Tier 2: sandbox-init is not confined; it acts only where Landlock lets the command.
    if (path.empty() || path[0] != '/')
        return !isParent; // a pipe, socket or other object the caller holds itself
    for (const std::string &root : m_writable) {
        if (isUnder(path, root))
            return true;
    }
    return !isParent && std::find(m_devices.begin(), m_devices.end(), path) != m_devices.end();
}

int WriteGate::openBase(unsigned pid, int dirfd, const std::string &path) const
{
    if (!path.empty() && path[0] == '/')
        return -1;
    if (dirfd == AT_FDCWD)
        return openCallerPath(pid, "cwd");
    if (dirfd < 0)
        return -1;
    return openCallerPath(pid, "fd/" + std::to_string(dirfd));
}

int WriteGate::resolve(unsigned pid, int base, const std::string &path, bool followLast, Target &out) const
{
    if (path.empty())
        return -ENOENT;
    int dir = path[0] == '/' ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC) : fcntl(base, F_DUPFD_CLOEXEC, 0);
    if (dir < 0)
        return base < 0 && path[0] != '/' ? -EBADF : -errno;
    if (!callerMayEnter(pid, dir)) {
        close(dir);
        return -EACCES;
    }
    std::vector<std::string> rest = components(path);
    size_t index = 0;
    int links = 0;
    auto finish = [&](const std::string &name, int object) {
        out.parent = dir;
        out.name = name;
        out.object = object;
        out.parentPath = objectPath(dir);
        return 0;
    };
    if (rest.empty())
        return finish(".", fcntl(dir, F_DUPFD_CLOEXEC, 0));
    while (index < rest.size()) {
        std::string name = rest[index];
        const bool last = index + 1 == rest.size();
        // /proc/self and /proc/thread-self name the caller, not sandbox-init; no other
        // process's /proc directory is entered for it (sandbox-init may open what the
        // caller may not, its own descriptors first of all).
        const bool numeric = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
        if ((numeric || name == "self" || name == "thread-self") && isProcRoot(dir)) {
            if (name == "self" || name == "thread-self")
                name = std::to_string(pid);
            if (numeric && name != std::to_string(pid) && name != std::to_string(callerProcess(pid))) {
                close(dir);
                return -EACCES;
            }
        }
        if (last && !followLast)
            return finish(name, openat(dir, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
        int fd = openat(dir, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            const int saved = errno;
            if (saved == ENOENT && last)
                return finish(name, -1);
            // Where the walk stopped, so a refusal beneath a denied path can say so.
            out.parentPath = objectPath(dir);
            out.name = name;
            close(dir);
            return -saved;
        }
        struct stat st = {};
        if (fstat(fd, &st) != 0) {
            const int saved = errno;
            close(fd);
            close(dir);
            return -saved;
        }
        if (S_ISLNK(st.st_mode)) {
            if (++links > kMaxLinks) {
                close(fd);
                close(dir);
                return -ELOOP;
            }
            if (onProc(dir)) {
                // A /proc link (fd/N, cwd, root, exe) leads to what the caller holds: the
                // kernel follows it from the caller's /proc directory.
                close(fd);
                fd = openat(dir, name.c_str(), O_PATH | O_CLOEXEC);
                if (fd < 0) {
                    const int saved = errno;
                    close(dir);
                    return -saved;
                }
                // What it leads to on /proc is the caller's own directory or nothing: a
                // descriptor the caller holds on another process's /proc entry (an O_PATH
                // one needs no access to it) is never reopened for writing.
                struct stat reached = {};
                if (onProc(fd) && (fstat(fd, &reached) != 0 || !S_ISDIR(reached.st_mode) || !callerMayEnter(pid, fd))) {
                    close(fd);
                    close(dir);
                    return -EACCES;
                }
                if (last)
                    return finish(name, fd);
                close(dir);
                dir = fd;
                ++index;
                continue;
            }
            char target[PATH_MAX + 1];
            const ssize_t n = readlinkat(fd, "", target, PATH_MAX);
            close(fd);
            if (n <= 0) {
                close(dir);
                return n == 0 ? -ENOENT : -errno;
            }
            const std::string text(target, static_cast<size_t>(n));
            std::vector<std::string> spliced = components(text);
            spliced.insert(spliced.end(), rest.begin() + static_cast<std::ptrdiff_t>(index) + 1, rest.end());
            if (text[0] == '/') {
                close(dir);
                dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (dir < 0)
                    return -errno;
            }
            rest = std::move(spliced);
            index = 0;
            if (rest.empty())
                return finish(".", fcntl(dir, F_DUPFD_CLOEXEC, 0));
            continue;
        }
        if (last)
            return finish(name, fd);
        if (!S_ISDIR(st.st_mode)) {
            close(fd);
            close(dir);
            return -ENOTDIR;
        }
        close(dir);
        dir = fd;
        ++index;
        if (!callerMayEnter(pid, dir)) {
            close(dir);
            return -EACCES;
        }
    }
    close(dir);
    return -ENOENT;
}

bool WriteGate::answer(int notifyFd, const seccomp_notif &request, seccomp_notif_resp &response, std::string &refused,
                       std::string &deniedBy)
{
    response.error = -EPERM;
    response.val = 0;
    response.flags = 0;
    const unsigned pid = request.pid;
    const int nr = request.data.nr;
    const auto *args = request.data.args;

    enum class Op { Open, Truncate, Mkdir, Mknod, Symlink, Link, Rename, Unlink };
    Op op = Op::Open;
    int dirfd = AT_FDCWD; // of the path changed (the new name)
    int otherDirfd = AT_FDCWD; // of the old name (link, rename)
    unsigned long long pathAddress = 0;
    unsigned long long otherAddress = 0; // old name, or a symbolic link's target
    int flags = 0;
    mode_t mode = 0;
    dev_t device = 0;
    off_t length = 0;
    if (nr == SCMP_SYS(open)) {
        pathAddress = args[0];
        flags = lowInt(args[1]);
        mode = static_cast<mode_t>(args[2]);
    } else if (nr == SCMP_SYS(openat)) {
        dirfd = lowInt(args[0]);
        pathAddress = args[1];
        flags = lowInt(args[2]);
        mode = static_cast<mode_t>(args[3]);
    } else if (nr == SCMP_SYS(creat)) {
        pathAddress = args[0];
        flags = O_CREAT | O_WRONLY | O_TRUNC;
        mode = static_cast<mode_t>(args[1]);
    } else if (nr == SCMP_SYS(truncate)) {
        op = Op::Truncate;
        pathAddress = args[0];
        length = static_cast<off_t>(args[1]);
    } else if (nr == SCMP_SYS(mkdir) || nr == SCMP_SYS(mkdirat)) {
        op = Op::Mkdir;
        const int shift = nr == SCMP_SYS(mkdirat) ? 1 : 0;
        dirfd = shift ? lowInt(args[0]) : AT_FDCWD;
        pathAddress = args[shift];
        mode = static_cast<mode_t>(args[shift + 1]);
    } else if (nr == SCMP_SYS(mknod) || nr == SCMP_SYS(mknodat)) {
        op = Op::Mknod;
        const int shift = nr == SCMP_SYS(mknodat) ? 1 : 0;
        dirfd = shift ? lowInt(args[0]) : AT_FDCWD;
        pathAddress = args[shift];
        mode = static_cast<mode_t>(args[shift + 1]);
        device = static_cast<dev_t>(args[shift + 2]);
    } else if (nr == SCMP_SYS(symlink)) {
        op = Op::Symlink;
        otherAddress = args[0];
        pathAddress = args[1];
    } else if (nr == SCMP_SYS(symlinkat)) {
        op = Op::Symlink;
        otherAddress = args[0];
        dirfd = lowInt(args[1]);
        pathAddress = args[2];
    } else if (nr == SCMP_SYS(link) || nr == SCMP_SYS(rename)) {
        op = nr == SCMP_SYS(link) ? Op::Link : Op::Rename;
        otherAddress = args[0];
        pathAddress = args[1];
    } else if (nr == SCMP_SYS(linkat) || nr == SCMP_SYS(renameat) || nr == SCMP_SYS(renameat2)) {
        op = nr == SCMP_SYS(linkat) ? Op::Link : Op::Rename;
        otherDirfd = lowInt(args[0]);
        otherAddress = args[1];
        dirfd = lowInt(args[2]);
        pathAddress = args[3];
        flags = nr == SCMP_SYS(renameat) ? 0 : lowInt(args[4]);
    } else if (nr == SCMP_SYS(unlink) || nr == SCMP_SYS(rmdir)) {
        op = Op::Unlink;
        pathAddress = args[0];
        flags = nr == SCMP_SYS(rmdir) ? AT_REMOVEDIR : 0;
    } else if (nr == SCMP_SYS(unlinkat)) {
        op = Op::Unlink;
        dirfd = lowInt(args[0]);
        pathAddress = args[1];
        flags = lowInt(args[2]);
    } else {
        return false;
    }

    // Everything taken from the caller's memory is read once, here.
    std::string path;
    std::string other;
    if (!readCallerString(pid, pathAddress, path)
        || ((op == Op::Symlink || op == Op::Link || op == Op::Rename) && !readCallerString(pid, otherAddress, other))) {
        response.error = -EFAULT;
        return false;
    }
    const bool emptyOldPath = op == Op::Link && other.empty() && (flags & AT_EMPTY_PATH);
    int base = openBase(pid, dirfd, path);
    int otherBase = (op == Op::Link || op == Op::Rename)
        ? (emptyOldPath ? openBase(pid, otherDirfd, std::string()) : openBase(pid, otherDirfd, other))
        : -1;
    // The pid must still be the caller that is waiting (not a process that reused it).
    if (seccomp_notify_id_valid(notifyFd, request.id) != 0) {
        closeTarget(base);
        closeTarget(otherBase);
        response.error = -ESRCH;
        return false;
    }
    // The caller's umask, read only for the calls that create with a mode.
    auto creationMask = [pid]() {
        const int value = callerUmask(pid);
        return static_cast<mode_t>(value < 0 ? 077 : value);
    };

    Target target;
    Target source;
    auto cleanup = [&]() {
        closeTarget(base);
        closeTarget(otherBase);
        closeTarget(target.parent);
        closeTarget(target.object);
        closeTarget(source.parent);
        closeTarget(source.object);
    };
    auto refuse = [&](const std::string &where, const std::string &why) {
        refused = where + " (" + why + ")";
        deniedBy = deniedPathOf(where);
        if (!deniedBy.empty())
            refused = where;
        response.error = -EACCES;
        cleanup();
        return false;
    };
    auto fail = [&](int error) {
        response.error = error;
        cleanup();
        return false;
    };
    // A path that could not be resolved: beneath a denied path (a mask the walk cannot
    // enter), the call is refused as a write there.
    auto unresolved = [&](int error, const Target &at) {
        if (!at.parentPath.empty()) {
            const std::string where = joinPath(at.parentPath, at.name);
            if (const std::string denied = deniedPathOf(where); !denied.empty())
                return refuse(where, "beneath " + denied + ", which the policy denies");
        }
        return fail(error);
    };
    auto done = [&](int rc) {
        response.error = rc < 0 ? -errno : 0;
        cleanup();
        return false;
    };

    if (op == Op::Open && (flags & O_PATH)) {
        // O_PATH ignores every other flag but O_DIRECTORY and O_NOFOLLOW: nothing is made.
        if (const int rc = resolve(pid, base, path, !(flags & O_NOFOLLOW), target); rc < 0)
            return fail(rc);
        if (target.object < 0)
            return fail(-ENOENT);
        struct stat st = {};
        if ((flags & O_DIRECTORY) && (fstat(target.object, &st) != 0 || !S_ISDIR(st.st_mode)))
            return fail(-ENOTDIR);
        const int fd = fcntl(target.object, F_DUPFD_CLOEXEC, 0);
        if (fd < 0)
            return fail(-errno);
        installInCaller(notifyFd, request.id, fd, flags & O_CLOEXEC, response);
        cleanup();
        return false;
    }
    if (op == Op::Open) {
        const bool creating = flags & O_CREAT;
        if (creating && !path.empty() && path.back() == '/')
            return fail(-EISDIR);
        const bool temporary = (flags & O_TMPFILE) == O_TMPFILE;
        const bool follow = temporary || (!(flags & O_NOFOLLOW) && !(creating && (flags & O_EXCL)));
        if (const int rc = resolve(pid, base, path, follow, target); rc < 0)
            return unresolved(rc, target);
        const int passFlags = (flags & ~(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)) | O_CLOEXEC;
        int fd = -1;
        if (temporary) {
            // An unnamed file in a directory: it gets a name only through link(), judged then.
            if (target.object < 0)
                return fail(-ENOENT);
            if (!mayWrite(objectPath(target.object), true))
                return fail(-EACCES);
            fd = openat(target.object, ".", flags | O_CLOEXEC, mode & ~creationMask() & 07777);
        } else if (target.object >= 0) {
            if (creating && (flags & O_EXCL))
                return fail(-EEXIST);
            struct stat st = {};
            if (fstat(target.object, &st) != 0)
                return fail(-errno);
            if (S_ISLNK(st.st_mode))
                return fail(-ELOOP);
            const std::string real = objectPath(target.object);
            if (const std::string why = judgeEntry(target.object, real); !why.empty())
                return refuse(real, why);
            if (!mayWrite(real, false))
                return fail(-EACCES);
            const std::string self = "/proc/self/fd/" + std::to_string(target.object);
            // /dev/tty is the caller's controlling terminal, not sandbox-init's.
            if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(5, 0)
                && (fd = openControllingTerminal(pid, passFlags)) < 0)
                return fail(-errno);
            if (S_ISFIFO(st.st_mode) && !(flags & O_NONBLOCK)) {
                // With its other end open (a pipe the caller holds, mostly) it opens at once.
                fd = open(self.c_str(), passFlags | O_NONBLOCK);
                if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
                    const int saved = errno;
                    close(fd);
                    return fail(-saved);
                }
            }
            if (fd < 0 && S_ISFIFO(st.st_mode) && !(flags & O_NONBLOCK) && errno == ENXIO) {
                // Opening a FIFO waits for its other end: done aside, so the supervisor
                // keeps answering (the other end's own calls among them).
                // At most kMaxWaitingOpens at once, and a thread that cannot be made is the
                // caller's EAGAIN: a flood of such opens never takes the supervisor down.
                if (waitingOpens.fetch_add(1) >= kMaxWaitingOpens) {
                    waitingOpens.fetch_sub(1);
                    return fail(-EAGAIN);
                }
                const int object = target.object;
                try {
                    std::thread([notifyFd, id = request.id, object, passFlags, cloexec = (flags & O_CLOEXEC) != 0]() {
                        const int opened = open(("/proc/self/fd/" + std::to_string(object)).c_str(), passFlags);
                        const int saved = errno;
                        close(object);
                        seccomp_notif_resp reply = {};
                        reply.id = id;
                        if (opened >= 0)
                            installInCaller(notifyFd, id, opened, cloexec, reply);
                        else
                            reply.error = -saved;
                        (void)seccomp_notify_respond(notifyFd, &reply);
                        waitingOpens.fetch_sub(1);
                    }).detach();
                } catch (const std::system_error &) {
                    waitingOpens.fetch_sub(1);
                    return fail(-EAGAIN);
                }
                target.object = -1;
                cleanup();
                return true;
            }
            if (fd < 0)
                fd = open(self.c_str(), passFlags);
        } else {
            if (!creating)
                return fail(-ENOENT);
            if (target.parentPath.empty())
                return fail(-ENOENT);
            if (const std::string why = judge(target.parentPath, target.name, Change::Write); !why.empty())
                return refuse(joinPath(target.parentPath, target.name), why);
            if (!mayWrite(target.parentPath, true))
                return fail(-EACCES);
            fd = openat(target.parent, target.name.c_str(), passFlags | O_CREAT | (flags & O_EXCL) | O_NOFOLLOW,
                        mode & ~creationMask() & 07777);
        }
        if (fd < 0)
            return fail(-errno);
        installInCaller(notifyFd, request.id, fd, flags & O_CLOEXEC, response);
        cleanup();
        return false;
    }

    if (op == Op::Truncate) {
        if (const int rc = resolve(pid, base, path, true, target); rc < 0)
            return unresolved(rc, target);
        if (target.object < 0)
            return fail(-ENOENT);
        struct stat st = {};
        if (fstat(target.object, &st) != 0)
            return fail(-errno);
        if (!S_ISREG(st.st_mode))
            return fail(S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL);
        const std::string real = objectPath(target.object);
        if (const std::string why = judgeEntry(target.object, real); !why.empty())
            return refuse(real, why);
        if (!mayWrite(real, false))
            return fail(-EACCES);
        const int fd = open(("/proc/self/fd/" + std::to_string(target.object)).c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return fail(-errno);
        const int rc = ftruncate(fd, length);
        const int saved = errno;
        close(fd);
        errno = saved;
        return done(rc);
    }

    if (op == Op::Link || op == Op::Rename) {
        // The old name: for rename the entry itself, for link what it names (links followed
        // only with AT_SYMLINK_FOLLOW; AT_EMPTY_PATH: the descriptor itself).
        if (emptyOldPath) {
            if (otherBase < 0)
                return fail(-EBADF);
            source.object = otherBase;
            otherBase = -1;
        } else if (const int rc = resolve(pid, otherBase, other, op == Op::Link && (flags & AT_SYMLINK_FOLLOW), source);
                   rc < 0) {
            return unresolved(rc, source);
        }
        if (source.object < 0)
            return fail(-ENOENT);
    }
    if (const int rc = resolve(pid, base, path, false, target); rc < 0)
        return unresolved(rc, target);
    if (target.parentPath.empty())
        return fail(-ENOENT);
    const std::string where = joinPath(target.parentPath, target.name);

    switch (op) {
    case Op::Mkdir:
    case Op::Mknod:
    case Op::Symlink: {
        if (target.object >= 0)
            return fail(-EEXIST);
        if (const std::string why
            = judge(target.parentPath, target.name, op == Op::Mkdir ? Change::MakeDirectory : Change::Write);
            !why.empty())
            return refuse(where, why);
        if (!mayWrite(target.parentPath, true))
            return fail(-EACCES);
        int rc;
        if (op == Op::Mkdir) {
            rc = mkdirat(target.parent, target.name.c_str(), mode & ~creationMask() & 07777);
            const int saved = errno;
            if (rc == 0 && repository::isTransientState(target.name)
                && nearestGitDirectory(target.parentPath) == target.parentPath)
                m_createdState.push_back(where);
            errno = saved;
        } else if (op == Op::Mknod) {
            rc = mknodat(target.parent, target.name.c_str(), (mode & S_IFMT) | (mode & ~creationMask() & 07777),
                         device);
        } else {
            rc = symlinkat(other.c_str(), target.parent, target.name.c_str());
        }
        return done(rc);
    }
    case Op::Link: {
        if (target.object >= 0)
            return fail(-EEXIST);
        const std::string real = objectPath(source.object);
        if (const std::string why = judgeEntry(source.object, real); !why.empty())
            return refuse(real, why);
        if (const std::string why = judge(target.parentPath, target.name, Change::Write); !why.empty())
            return refuse(where, why);
        if (!mayWrite(target.parentPath, true) || !mayWrite(real, false))
            return fail(-EACCES);
        const std::string self = "/proc/self/fd/" + std::to_string(source.object);
        return done(linkat(AT_FDCWD, self.c_str(), target.parent, target.name.c_str(), AT_SYMLINK_FOLLOW));
    }
    case Op::Rename: {
        if (source.parentPath.empty())
            return fail(-ENOENT);
        const std::string from = joinPath(source.parentPath, source.name);
        if (const std::string why = judge(source.parentPath, source.name, Change::Move); !why.empty())
            return refuse(from, why);
        if (const std::string why = judge(target.parentPath, target.name, Change::Move); !why.empty())
            return refuse(where, why);
        if ((underGuardedRoot(from) || underGuardedRoot(where))
            && nearestGitDirectory(source.parentPath) != nearestGitDirectory(target.parentPath))
            return refuse(from, "moves an entry into or out of a git directory");
        if (!mayWrite(source.parentPath, true) || !mayWrite(target.parentPath, true))
            return fail(-EACCES);
        return done(static_cast<int>(syscall(SYS_renameat2, source.parent, source.name.c_str(), target.parent,
                                             target.name.c_str(), static_cast<unsigned>(flags))));
    }
    case Op::Unlink: {
        if (target.object < 0)
            return fail(-ENOENT);
        if (const std::string why = judge(target.parentPath, target.name, Change::Write); !why.empty())
            return refuse(where, why);
        if (!mayWrite(target.parentPath, true))
            return fail(-EACCES);
        return done(unlinkat(target.parent, target.name.c_str(), flags & AT_REMOVEDIR));
    }
    default:
        return fail(-ENOSYS);
    }
}

std::string WriteGate::judgeEntry(int fd) const
{
    return judgeEntry(fd, objectPath(fd));
}

std::string WriteGate::judgeEntry(int fd, const std::string &real) const
{
    // Another name of the same file may lie anywhere (a local git clone hard-links its
    // objects): changing the file through this one would change it there too.
    struct stat st = {};
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
        return "a file with other hard links, which may lie outside the writable paths";
    if (real.empty() || real[0] != '/')
        return {};
    return judge(parentOf(real), baseOf(real), Change::Write);
}

void WriteGate::removeLeftovers()
{
    for (const std::string &path : m_createdState) {
        const int parent = open(parentOf(path).c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (parent < 0)
            continue;
        struct stat st = {};
        if (fstatat(parent, baseOf(path).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
            std::fprintf(stderr, "sandbox: removed the unfinished %s the command left in %s\n", baseOf(path).c_str(),
                         parentOf(path).c_str());
            removeTree(parent, baseOf(path));
        }
        close(parent);
    }
    m_createdState.clear();
}

} // namespace sandbox::init
