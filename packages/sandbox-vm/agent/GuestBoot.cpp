#include "GuestBoot.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <istream>
#include <linux/vm_sockets.h>
#include <set>
#include <sstream>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace sandbox::guest {

namespace {

std::string failure(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

void makeDirectories(const std::string &path)
{
    std::string partial;
    std::stringstream parts(path);
    std::string part;
    while (std::getline(parts, part, '/')) {
        if (part.empty())
            continue;
        partial += "/" + part;
        mkdir(partial.c_str(), 0755);
    }
}

void loadModules(std::vector<std::string> &problems)
{
    std::ifstream list("/.sandbox/modules");
    std::string module;
    while (std::getline(list, module)) {
        if (module.empty())
            continue;
        const int fd = open(module.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            problems.push_back(failure("open module " + module));
            continue;
        }
        if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)
            problems.push_back(failure("load module " + module));
        close(fd);
    }
}

void applyLayout(std::istream &layout, std::vector<std::string> &problems)
{
    std::string line;
    while (std::getline(layout, line)) {
        std::stringstream fields(line);
        std::string verb;
        std::getline(fields, verb, '\t');
        if (verb == "mount") {
            std::string tag, mode, target;
            std::getline(fields, tag, '\t');
            std::getline(fields, mode, '\t');
            std::getline(fields, target, '\t');
            makeDirectories(target);
            const unsigned long flags = MS_NOSUID | MS_NODEV | (mode == "ro" ? MS_RDONLY : 0);
            const bool virtiofs = kernelFlag("sandbox.fs=virtiofs");
            const std::string options = virtiofs ? "" : "trans=virtio,version=9p2000.L,msize=262144,cache=none";
            if (mount(tag.c_str(), target.c_str(), virtiofs ? "virtiofs" : "9p", flags, options.c_str()) != 0)
                problems.push_back(failure("mount share " + tag + " on " + target));
        } else if (verb == "symlink") {
            std::string target, path;
            std::getline(fields, target, '\t');
            std::getline(fields, path, '\t');
            const size_t slash = path.rfind('/');
            if (slash != std::string::npos && slash > 0)
                makeDirectories(path.substr(0, slash));
            if (symlink(target.c_str(), path.c_str()) != 0)
                problems.push_back(failure("symlink " + path));
        } else if (verb == "bind") {
            // A file of the initramfs bound read-only over a path (the engine's certificate
            // bundle over the system's): made first where nothing is there yet.
            std::string source, target;
            std::getline(fields, source, '\t');
            std::getline(fields, target, '\t');
            const size_t slash = target.rfind('/');
            if (slash != std::string::npos && slash > 0)
                makeDirectories(target.substr(0, slash));
            const int made = open(target.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
            if (made >= 0)
                close(made);
            if (mount(source.c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0)
                problems.push_back(failure("bind " + source + " on " + target));
            else if (mount(nullptr, target.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
                           nullptr)
                     != 0)
                problems.push_back(failure("make " + target + " read-only"));
        } else if (!verb.empty()) {
            problems.push_back("unknown layout entry: " + verb);
        }
    }
}

// Without a shared host /bin, the guest's own busybox applets serve /bin (and /usr/bin).
constexpr const char *kOwnTools = "/.sandbox/bin";

void linkOwnTools()
{
    if (access("/bin/sh", X_OK) != 0)
        symlink(kOwnTools, "/bin");
    if (access("/usr/bin", F_OK) != 0) {
        mkdir("/usr", 0755);
        symlink(kOwnTools, "/usr/bin");
    }
}

bool isOwnToolsLink(const char *path)
{
    char target[64] = {};
    const ssize_t n = readlink(path, target, sizeof target - 1);
    return n > 0 && std::string(target, size_t(n)) == kOwnTools;
}

// The mount tags of the 9p devices the guest sees now.
std::set<std::string> presentTags()
{
    std::set<std::string> tags;
    if (DIR *devices = opendir("/sys/bus/virtio/devices")) {
        while (dirent *entry = readdir(devices)) {
            if (entry->d_name[0] == '.')
                continue;
            std::ifstream tagFile(std::string("/sys/bus/virtio/devices/") + entry->d_name + "/mount_tag");
            std::string tag;
            if (std::getline(tagFile, tag, '\0') && !tag.empty()) {
                while (!tag.empty() && (tag.back() == '\n' || tag.back() == '\0'))
                    tag.pop_back();
                tags.insert(tag);
            }
        }
        closedir(devices);
    }
    return tags;
}

void rescanPci()
{
    const int fd = open("/sys/bus/pci/rescan", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)!write(fd, "1", 1);
        close(fd);
    }
}

} // namespace

std::vector<std::string> attachLayout(const std::string &layout, int waitMs)
{
    std::vector<std::string> problems;
    std::set<std::string> wanted;
    {
        std::istringstream lines(layout);
        std::string line;
        while (std::getline(lines, line)) {
            std::stringstream fields(line);
            std::string verb, tag;
            std::getline(fields, verb, '\t');
            std::getline(fields, tag, '\t');
            if (verb == "mount")
                wanted.insert(tag);
        }
    }
    // The devices were hot-added by the host: ACPI hotplug announces them when the guest
    // has ACPI; a rescan finds them either way.
    const timespec pause{ 0, 5 * 1000 * 1000 };
    bool complete = false;
    for (int waited = 0; waited <= waitMs; waited += 5) {
        const std::set<std::string> present = presentTags();
        complete = std::includes(present.begin(), present.end(), wanted.begin(), wanted.end());
        if (complete)
            break;
        if (waited % 250 == 0)
            rescanPci();
        nanosleep(&pause, nullptr);
    }
    if (!complete) {
        const std::set<std::string> present = presentTags();
        std::string missing;
        for (const std::string &tag : wanted)
            if (!present.count(tag))
                missing += (missing.empty() ? "" : " ") + tag;
        problems.push_back("the hot-added shares did not appear: " + missing);
        return problems;
    }
    // The layout goes where a boot applies it: the guest's own tool links step aside first.
    if (isOwnToolsLink("/bin"))
        unlink("/bin");
    if (isOwnToolsLink("/usr/bin")) {
        unlink("/usr/bin");
        rmdir("/usr");
    }
    {
        std::ofstream file("/.sandbox/layout", std::ios::trunc);
        file << layout;
    }
    std::istringstream entries(layout);
    applyLayout(entries, problems);
    linkOwnTools();
    return problems;
}

bool kernelFlag(const char *flag)
{
    std::ifstream file("/proc/cmdline");
    std::string word;
    while (file >> word) {
        if (word == flag)
            return true;
    }
    return false;
}

int openReadOnlyBound(const char *path, std::string &problem)
{
    if (mount(path, path, nullptr, MS_BIND, nullptr) != 0) {
        problem = failure(std::string("bind ") + path);
        return -1;
    }
    if (mount(nullptr, path, nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0) {
        problem = failure(std::string("make ") + path + " read-only");
        return -1;
    }
    const int fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        problem = failure(std::string("open ") + path);
    return fd;
}

int openAgentVsock(unsigned port)
{
    const int listener = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0)
        return -1;
    sockaddr_vm address{};
    address.svm_family = AF_VSOCK;
    address.svm_cid = VMADDR_CID_ANY;
    address.svm_port = port;
    if (bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || listen(listener, 1) != 0) {
        close(listener);
        return -1;
    }
    const int channel = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    close(listener);
    return channel;
}

std::vector<std::string> bootGuest()
{
    std::vector<std::string> problems;
    mkdir("/proc", 0555);
    mkdir("/sys", 0555);
    mkdir("/dev", 0755);
    mkdir("/tmp", 01777);
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
        problems.push_back(failure("mount /proc"));
    if (mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
        problems.push_back(failure("mount /sys"));
    if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755") != 0)
        problems.push_back(failure("mount /dev"));
    // The guest's own /tmp, private to this VM (a workspace under /tmp is mounted on it).
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0)
        problems.push_back(failure("mount /tmp"));
    loadModules(problems);
    {
        std::ifstream layout("/.sandbox/layout");
        applyLayout(layout, problems);
    }
    mkdir("/dev/shm", 01777);
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
    mkdir("/dev/pts", 0755);
    mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "ptmxmode=0666");
    linkOwnTools();
    return problems;
}

int openAgentPort(const char *name, int waitMs)
{
    const timespec pause{ 0, 5 * 1000 * 1000 };
    for (int waited = 0; waited <= waitMs; waited += 5) {
        if (DIR *ports = opendir("/sys/class/virtio-ports")) {
            while (dirent *entry = readdir(ports)) {
                if (entry->d_name[0] == '.')
                    continue;
                std::ifstream nameFile(std::string("/sys/class/virtio-ports/") + entry->d_name + "/name");
                std::string portName;
                std::getline(nameFile, portName);
                if (portName != name)
                    continue;
                const std::string device = std::string("/dev/") + entry->d_name;
                const int fd = open(device.c_str(), O_RDWR | O_CLOEXEC);
                if (fd >= 0) {
                    mkdir("/dev/virtio-ports", 0755);
                    symlink(device.c_str(), (std::string("/dev/virtio-ports/") + name).c_str());
                    closedir(ports);
                    return fd;
                }
            }
            closedir(ports);
        }
        nanosleep(&pause, nullptr);
    }
    return -1;
}

} // namespace sandbox::guest
