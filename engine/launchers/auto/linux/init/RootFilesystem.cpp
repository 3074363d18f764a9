#include "RootFilesystem.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace sandbox::init {

namespace {

constexpr const char *kStage = "/tmp"; // only ever used after /tmp is replaced by our tmpfs
std::string errnoText(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

bool writeFile(const std::string &path, const std::string &content, std::string &error)
{
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        error = errnoText("cannot open " + path);
        return false;
    }
    const ssize_t n = write(fd, content.data(), content.size());
    const int saved = errno;
    close(fd);
    if (n != static_cast<ssize_t>(content.size())) {
        errno = saved;
        error = errnoText("cannot write " + path);
        return false;
    }
    return true;
}

// mkdir -p inside the new root (paths there belong to our tmpfs or to a parent mount
// point we created).
bool makeDirs(const std::string &path, std::string &error)
{
    std::string partial;
    size_t pos = 1;
    while (pos <= path.size()) {
        size_t next = path.find('/', pos);
        if (next == std::string::npos)
            next = path.size();
        partial = path.substr(0, next);
        if (!partial.empty() && mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
            error = errnoText("cannot create mount point " + partial);
            return false;
        }
        pos = next + 1;
    }
    return true;
}

// Creates the mount point `target` (a directory or an empty file, like `source`).
bool makeMountPoint(const std::string &target, bool directory, std::string &error)
{
    struct stat st = {};
    if (lstat(target.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            error = "refusing to mount over the symbolic link " + target;
            return false;
        }
        return true;
    }
    const size_t slash = target.rfind('/');
    if (slash != std::string::npos && slash > 0 && !makeDirs(target.substr(0, slash), error))
        return false;
    if (directory)
        return makeDirs(target, error);
    const int fd = open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        error = errnoText("cannot create mount point " + target);
        return false;
    }
    close(fd);
    return true;
}

bool setAttributes(const std::string &target, unsigned long long set, std::string &error)
{
    struct mount_attr attr = {};
    attr.attr_set = set;
    if (mount_setattr(AT_FDCWD, target.c_str(), AT_RECURSIVE | AT_SYMLINK_NOFOLLOW, &attr, sizeof attr) != 0) {
        error = errnoText("cannot set mount attributes on " + target);
        return false;
    }
    return true;
}

// `sourceFd` is a detached copy of the source's mount tree (open_tree), taken before the
// staging tmpfs covered the host's /tmp: a bind made later would carry that tmpfs along
// and show it, read-only and empty, wherever the host's /tmp should be.
bool bindInto(const std::string &root, const MountOp &op, int sourceFd, std::string &error)
{
    if (sourceFd < 0)
        return true; // a policy path that does not exist on this host
    struct stat st = {};
    if (fstat(sourceFd, &st) != 0) {
        error = errnoText("cannot stat " + op.source);
        return false;
    }
    const std::string target = root + op.target;
    if (!makeMountPoint(target, S_ISDIR(st.st_mode), error))
        return false;
    if (move_mount(sourceFd, "", AT_FDCWD, target.c_str(), MOVE_MOUNT_F_EMPTY_PATH) != 0) {
        error = errnoText("cannot bind " + op.source);
        return false;
    }
    unsigned long long attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    if (op.kind == MountOp::Kind::BindReadOnly)
        attrs |= MOUNT_ATTR_RDONLY;
    return setAttributes(target, attrs, error);
}

// Hides whatever is at `target` under an empty, read-only, inaccessible object.
bool maskInto(const std::string &root, const MountOp &op, std::string &error)
{
    const std::string target = root + op.target;
    struct stat st = {};
    if (lstat(target.c_str(), &st) != 0) {
        if (errno == ENOENT)
            return true; // not visible in this sandbox, nothing to hide
        error = errnoText("cannot stat " + target);
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        error = "mask target " + op.target + " is a symbolic link (the launcher resolves them)";
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        if (mount("tmpfs", target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "mode=000,size=0")
            != 0) {
            error = errnoText("cannot mask " + op.target);
            return false;
        }
        return true;
    }
    const std::string empty = std::string(kStage) + "/.sandbox-empty";
    if (mount(empty.c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0) {
        error = errnoText("cannot mask " + op.target);
        return false;
    }
    return setAttributes(target, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, error);
}

bool tmpfsInto(const std::string &root, const MountOp &op, std::string &error)
{
    const std::string target = root + op.target;
    if (!makeMountPoint(target, true, error))
        return false;
    if (mount("tmpfs", target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0) {
        error = errnoText("cannot mount a private tmpfs on " + op.target);
        return false;
    }
    return true;
}

bool buildDev(const std::string &root, std::string &error)
{
    const std::string dev = root + "/dev";
    if (!makeMountPoint(dev, true, error))
        return false;
    if (mount("tmpfs", dev.c_str(), "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=755") != 0) {
        error = errnoText("cannot mount /dev");
        return false;
    }
    for (const char *node : { "null", "zero", "full", "random", "urandom", "tty" }) {
        const std::string source = std::string("/dev/") + node;
        const std::string target = dev + "/" + node;
        const int fd = open(target.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            error = errnoText("cannot create " + target);
            return false;
        }
        close(fd);
        if (mount(source.c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0) {
            error = errnoText("cannot provide " + source);
            return false;
        }
    }
    for (const char *dir : { "/pts", "/shm" }) {
        if (mkdir((dev + dir).c_str(), 0755) != 0) {
            error = errnoText("cannot create /dev" + std::string(dir));
            return false;
        }
    }
    if (mount("devpts", (dev + "/pts").c_str(), "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
        == 0) {
        if (symlink("pts/ptmx", (dev + "/ptmx").c_str()) != 0) {
            error = errnoText("cannot create /dev/ptmx");
            return false;
        }
    }
    if (mount("tmpfs", (dev + "/shm").c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0) {
        error = errnoText("cannot mount /dev/shm");
        return false;
    }
    const std::pair<const char *, const char *> links[] = {
        { "/proc/self/fd", "/fd" },
        { "/proc/self/fd/0", "/stdin" },
        { "/proc/self/fd/1", "/stdout" },
        { "/proc/self/fd/2", "/stderr" },
    };
    for (const auto &[to, name] : links) {
        if (symlink(to, (dev + name).c_str()) != 0) {
            error = errnoText("cannot create /dev" + std::string(name));
            return false;
        }
    }
    return true;
}

bool buildProc(const std::string &root, std::string &error)
{
    const std::string proc = root + "/proc";
    if (!makeMountPoint(proc, true, error))
        return false;
    if (mount("proc", proc.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
        error = errnoText("cannot mount /proc");
        return false;
    }
    // Kernel knobs stay read-only even where the namespace would let them be written.
    for (const char *sub : { "/sys", "/sysrq-trigger" }) {
        const std::string path = proc + sub;
        if (access(path.c_str(), F_OK) != 0)
            continue;
        if (mount(path.c_str(), path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0
            || !setAttributes(path, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
                              error)) {
            if (error.empty())
                error = errnoText("cannot protect /proc" + std::string(sub));
            return false;
        }
    }
    return true;
}

} // namespace

bool mapIds(uid_t uid, gid_t gid, std::string &error)
{
    return writeFile("/proc/self/setgroups", "deny", error)
        && writeFile("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n", error)
        && writeFile("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n", error);
}

bool buildRoot(const InitConfig &config, int &proxyFd, std::string &error)
{
    proxyFd = -1;
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
        error = errnoText("cannot make the mount tree private");
        return false;
    }
    if (!config.proxySocket.empty()) {
        proxyFd = open(config.proxySocket.c_str(), O_PATH | O_CLOEXEC);
        if (proxyFd < 0) {
            error = errnoText("cannot open the proxy socket " + config.proxySocket);
            return false;
        }
    }
    std::vector<int> sourceFds(config.mounts.size(), -1);
    for (size_t i = 0; i < config.mounts.size(); ++i) {
        const MountOp &op = config.mounts[i];
        if (op.kind != MountOp::Kind::BindReadOnly && op.kind != MountOp::Kind::BindWritable)
            continue;
        sourceFds[i] = open_tree(AT_FDCWD, op.source.c_str(), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
        if (sourceFds[i] < 0 && errno != ENOENT) {
            error = errnoText("cannot open " + op.source);
            return false;
        }
    }
    // A scratch tmpfs for the new root; mounted over the host's /tmp in this namespace
    // only, where nothing else can see or swap it. Bind sources were copied above, so
    // hiding the host's /tmp hides none of them and none of the copies contains it.
    if (mount("tmpfs", kStage, "tmpfs", MS_NOSUID | MS_NODEV, "mode=700") != 0) {
        error = errnoText("cannot mount the staging tmpfs");
        return false;
    }
    const std::string empty = std::string(kStage) + "/.sandbox-empty";
    const int emptyFd = open(empty.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0000);
    if (emptyFd < 0) {
        error = errnoText("cannot create the mask file");
        return false;
    }
    close(emptyFd);
    const std::string root = std::string(kStage) + "/root";
    if (mkdir(root.c_str(), 0755) != 0
        || mount("tmpfs", root.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=755") != 0) {
        error = errnoText("cannot mount the sandbox root");
        return false;
    }
    for (size_t i = 0; i < config.mounts.size(); ++i) {
        const MountOp &op = config.mounts[i];
        bool ok = true;
        switch (op.kind) {
        case MountOp::Kind::BindReadOnly:
        case MountOp::Kind::BindWritable:
            ok = bindInto(root, op, sourceFds[i], error);
            break;
        case MountOp::Kind::Tmpfs:
            ok = tmpfsInto(root, op, error);
            break;
        case MountOp::Kind::Mask:
            ok = maskInto(root, op, error);
            break;
        }
        if (!ok)
            return false;
    }
    // Top-level links such as /bin -> usr/bin, when only their targets are readable.
    for (const auto &[target, link] : config.symlinks) {
        struct stat st = {};
        const std::string path = root + link;
        if (lstat(path.c_str(), &st) == 0)
            continue;
        if (symlink(target.c_str(), path.c_str()) != 0) {
            error = errnoText("cannot create the link " + link);
            return false;
        }
    }
    for (int fd : sourceFds) {
        if (fd >= 0)
            close(fd);
    }
    if (!buildDev(root, error) || !buildProc(root, error))
        return false;
    if (chdir(root.c_str()) != 0 || syscall(SYS_pivot_root, ".", ".") != 0) {
        error = errnoText("cannot pivot into the sandbox root");
        return false;
    }
    if (umount2(".", MNT_DETACH) != 0 || chdir("/") != 0) {
        error = errnoText("cannot detach the host's tree");
        return false;
    }
    // The root tmpfs itself stays read-only: only the policy's writable paths are.
    struct mount_attr attr = {};
    attr.attr_set = MOUNT_ATTR_RDONLY;
    if (mount_setattr(AT_FDCWD, "/", 0, &attr, sizeof attr) != 0) {
        error = errnoText("cannot make the sandbox root read-only");
        return false;
    }
    return true;
}

} // namespace sandbox::init
