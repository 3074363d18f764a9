#include "MetadataSupervisor.h"

#include "CallerAccess.h"
#include "WriteGate.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <seccomp.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
#include <utime.h>

namespace sandbox::init {

namespace {

constexpr int kFchmodat2 = 452; // Linux 6.6; older libseccomp headers lack the name

int lowInt(unsigned long long value)
{
    return static_cast<int>(static_cast<unsigned>(value & 0xffffffffULL));
}

} // namespace

MetadataSupervisor::MetadataSupervisor(const std::vector<std::string> &writablePaths, const WriteGate *gate)
    : m_gate(gate)
{
    for (const std::string &path : writablePaths) {
        char *canonical = realpath(path.c_str(), nullptr);
        if (!canonical)
            continue;
        Root root;
        root.path = canonical;
        std::free(canonical);
        root.fd = open(root.path.c_str(), O_PATH | O_CLOEXEC);
        if (root.fd >= 0)
            m_roots.push_back(std::move(root));
    }
}

MetadataSupervisor::~MetadataSupervisor()
{
    for (const Root &root : m_roots)
        close(root.fd);
}

bool MetadataSupervisor::handles(int nr)
{
    return nr == SCMP_SYS(chmod) || nr == SCMP_SYS(fchmod) || nr == SCMP_SYS(fchmodat) || nr == kFchmodat2
        || nr == SCMP_SYS(utimensat) || nr == SCMP_SYS(utimes) || nr == SCMP_SYS(utime) || nr == SCMP_SYS(futimesat)
        || nr == SCMP_SYS(chown) || nr == SCMP_SYS(fchown) || nr == SCMP_SYS(lchown) || nr == SCMP_SYS(fchownat);
}

bool MetadataSupervisor::underWritable(int objectFd) const
{
    struct stat object = {};
    if (fstat(objectFd, &object) != 0)
        return false;
    char buffer[PATH_MAX + 1];
    const std::string link = "/proc/self/fd/" + std::to_string(objectFd);
    const ssize_t n = readlink(link.c_str(), buffer, PATH_MAX);
    if (n <= 0 || buffer[0] != '/')
        return false;
    const std::string path(buffer, static_cast<size_t>(n));
    for (const Root &root : m_roots) {
        std::string rest;
        if (path == root.path)
            rest = ".";
        else if (path.starts_with(root.path == "/" ? root.path : root.path + "/"))
            rest = path.substr(root.path == "/" ? 1 : root.path.size() + 1);
        else
            continue;
        // The name is only a hint: the object must be found again beneath the root,
        // without leaving it and without following a link.
        open_how how = {};
        how.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        const int again = static_cast<int>(syscall(SYS_openat2, root.fd, rest.c_str(), &how, sizeof how));
        if (again < 0)
            continue;
        struct stat found = {};
        const bool same = fstat(again, &found) == 0 && found.st_dev == object.st_dev && found.st_ino == object.st_ino;
        close(again);
        if (same)
            return true;
    }
    return false;
}

void MetadataSupervisor::answer(int notifyFd, const seccomp_notif &request, seccomp_notif_resp &response,
                                std::string *refusedPath, bool *protectedByGate) const
{
    response.error = -EPERM;
    response.val = 0;
    response.flags = 0;
    const unsigned pid = request.pid;
    const int nr = request.data.nr;
    const auto *args = request.data.args;

    // Which object: a descriptor of the caller, or a path relative to one (or its cwd).
    bool byDescriptor = false;
    int dirfd = AT_FDCWD;
    unsigned long long pathAddress = 0;
    int flags = 0;
    bool isChmod = true;
    bool isChown = false;
    long long owner = -1;
    long long group = -1;
    mode_t mode = 0;
    unsigned long long timesAddress = 0;
    if (nr == SCMP_SYS(chmod)) {
        pathAddress = args[0];
        mode = static_cast<mode_t>(args[1]);
    } else if (nr == SCMP_SYS(fchmod)) {
        byDescriptor = true;
        dirfd = lowInt(args[0]);
        mode = static_cast<mode_t>(args[1]);
    } else if (nr == SCMP_SYS(fchmodat) || nr == kFchmodat2) {
        dirfd = lowInt(args[0]);
        pathAddress = args[1];
        mode = static_cast<mode_t>(args[2]);
        flags = nr == kFchmodat2 ? lowInt(args[3]) : 0;
    } else if (nr == SCMP_SYS(utimensat)) {
        isChmod = false;
        dirfd = lowInt(args[0]);
        pathAddress = args[1];
        timesAddress = args[2];
        flags = lowInt(args[3]);
        byDescriptor = pathAddress == 0;
    } else if (nr == SCMP_SYS(utimes) || nr == SCMP_SYS(utime)) {
        isChmod = false;
        pathAddress = args[0];
        timesAddress = args[1];
    } else if (nr == SCMP_SYS(futimesat)) {
        isChmod = false;
        dirfd = lowInt(args[0]);
        pathAddress = args[1];
        timesAddress = args[2];
    } else if (nr == SCMP_SYS(chown) || nr == SCMP_SYS(lchown) || nr == SCMP_SYS(fchown) || nr == SCMP_SYS(fchownat)) {
        isChmod = false;
        isChown = true;
        const int shift = nr == SCMP_SYS(fchownat) ? 1 : 0;
        if (nr == SCMP_SYS(fchown)) {
            byDescriptor = true;
            dirfd = lowInt(args[0]);
        } else {
            dirfd = shift ? lowInt(args[0]) : AT_FDCWD;
            pathAddress = args[shift];
        }
        owner = lowInt(args[shift + 1]);
        group = lowInt(args[shift + 2]);
        flags = nr == SCMP_SYS(fchownat) ? lowInt(args[4]) : nr == SCMP_SYS(lchown) ? AT_SYMLINK_NOFOLLOW : 0;
    } else {
        return;
    }
    if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
        response.error = -EINVAL;
        return;
    }

    // Everything taken from the caller's memory is read once, here.
    std::string path;
    if (!byDescriptor && !readCallerString(pid, pathAddress, path)) {
        response.error = -EFAULT;
        return;
    }
    timespec times[2] = {};
    const timespec *timesArg = nullptr;
    if (!isChmod && timesAddress != 0) {
        bool ok = false;
        if (nr == SCMP_SYS(utimensat)) {
            ok = readCallerBytes(pid, timesAddress, times, sizeof times);
        } else if (nr == SCMP_SYS(utime)) {
            utimbuf buffer = {};
            ok = readCallerBytes(pid, timesAddress, &buffer, sizeof buffer);
            times[0] = { buffer.actime, 0 };
            times[1] = { buffer.modtime, 0 };
        } else {
            timeval buffer[2] = {};
            ok = readCallerBytes(pid, timesAddress, buffer, sizeof buffer);
            for (int i = 0; i < 2; ++i) {
                if (buffer[i].tv_usec < 0 || buffer[i].tv_usec >= 1000000) {
                    response.error = -EINVAL;
                    return;
                }
                times[i] = { buffer[i].tv_sec, buffer[i].tv_usec * 1000 };
            }
        }
        if (!ok) {
            response.error = -EFAULT;
            return;
        }
        timesArg = times;
    }
    if (path.empty() && !byDescriptor) {
        if (!(flags & AT_EMPTY_PATH)) {
            response.error = -ENOENT;
            return;
        }
        byDescriptor = true;
    }

    // /proc/self and /proc/thread-self name the caller, not sandbox-init (glibc's
    // fchmodat(AT_SYMLINK_NOFOLLOW) changes the mode through /proc/self/fd/N).
    for (const char *self : { "/proc/self/", "/proc/thread-self/" }) {
        if (path.rfind(self, 0) == 0) {
            path = "/proc/" + std::to_string(pid) + "/" + path.substr(std::strlen(self));
            break;
        }
    }
    if (path.rfind("/proc/", 0) == 0 && path.size() > 6 && std::isdigit(static_cast<unsigned char>(path[6]))
        && path.compare(6, std::to_string(pid).size() + 1, std::to_string(pid) + "/") != 0) {
        response.error = -EACCES; // another process's /proc directory
        return;
    }

    // The caller's directory or descriptor, through /proc (the same object it holds).
    int base = -1;
    if (byDescriptor || path[0] != '/') {
        if (dirfd == AT_FDCWD && !byDescriptor)
            base = openCallerPath(pid, "cwd");
        else if (dirfd >= 0)
            base = openCallerPath(pid, "fd/" + std::to_string(dirfd));
        if (base < 0) {
            response.error = -EBADF;
            return;
        }
    }
    int object = -1;
    if (byDescriptor) {
        object = base;
        base = -1;
    } else {
        const bool follow = !(flags & AT_SYMLINK_NOFOLLOW);
        object = openat(path[0] == '/' ? AT_FDCWD : base, path.c_str(), O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
        const int saved = errno;
        if (base >= 0)
            close(base);
        if (object < 0) {
            response.error = -saved;
            return;
        }
    }
    // The pid must still be the caller that is waiting (not a process that reused it).
    if (seccomp_notify_id_valid(notifyFd, request.id) != 0) {
        close(object);
        response.error = -ESRCH;
        return;
    }
    struct stat st = {};
    const bool writable = fstat(object, &st) == 0 && underWritable(object);
    const bool guarded = writable && m_gate && !m_gate->judgeEntry(object).empty();
    if (!writable || guarded) {
        if (protectedByGate)
            *protectedByGate = guarded;
        if (refusedPath) {
            char resolved[PATH_MAX] = {};
            const std::string held = "/proc/self/fd/" + std::to_string(object);
            const ssize_t n = readlink(held.c_str(), resolved, sizeof resolved - 1);
            *refusedPath = n > 0 ? std::string(resolved, static_cast<size_t>(n)) : std::string("a file");
        }
        close(object);
        return;
    }
    // sandbox-init keeps capabilities the command dropped: it acts only where the kernel
    // would let the command itself (the file's owner; no CAP_FOWNER in the sandbox).
    const long long fsuid = callerFsuid(pid);
    if (fsuid < 0 || static_cast<long long>(st.st_uid) != fsuid) {
        close(object);
        response.error = isChmod || timesArg ? -EPERM : -EACCES;
        return;
    }
    // Acting on the descriptor held: /proc/self/fd/N names exactly that object.
    const std::string self = "/proc/self/fd/" + std::to_string(object);
    int rc;
    if (isChown) {
        // Ownership is never given away in this tier: only a change to what it already is
        // (tar and cp -a run as root ask for that) succeeds, and changes nothing.
        const bool same = (owner == -1 || owner == static_cast<long long>(st.st_uid))
            && (group == -1 || group == static_cast<long long>(st.st_gid));
        rc = same ? 0 : -1;
        errno = EPERM;
    } else if (S_ISLNK(st.st_mode) && isChmod) {
        // A link itself (AT_SYMLINK_NOFOLLOW): Linux has no mode for links.
        rc = -1;
        errno = EOPNOTSUPP;
    } else if (S_ISLNK(st.st_mode)) {
        // A link's own times (tar sets them): on the descriptor held, never through its name.
        rc = utimensat(object, "", timesArg, AT_EMPTY_PATH);
    } else if (isChmod) {
        rc = chmod(self.c_str(), mode & 07777);
    } else {
        rc = utimensat(AT_FDCWD, self.c_str(), timesArg, 0);
    }
    response.error = rc == 0 ? 0 : -errno;
    close(object);
}

} // namespace sandbox::init
