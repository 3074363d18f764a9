#include "ControllingTerminal.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace sandbox::init {

namespace {

// Unix98 pseudo-terminals' other sides: majors 136 to 143, 256 minors each.
constexpr unsigned kFirstPtsMajor = 136;
constexpr unsigned kLastPtsMajor = 143;

// The tty_nr field of /proc/PID/stat (0: no controlling terminal), or -1.
long long controllingTerminal(unsigned pid)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/stat";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buffer[1024];
    const ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buffer[n] = '\0';
    // The command's name may hold anything up to the last ')'.
    const char *after = std::strrchr(buffer, ')');
    long long terminal = -1;
    if (!after || std::sscanf(after + 1, " %*c %*d %*d %*d %lld", &terminal) != 1)
        return -1;
    return terminal;
}

} // namespace

int openControllingTerminal(unsigned pid, int flags)
{
    const long long encoded = controllingTerminal(pid);
    // The kernel's encoding of a device number in /proc/PID/stat.
    const unsigned major = static_cast<unsigned>((encoded >> 8) & 0xfff);
    const unsigned minor = static_cast<unsigned>((encoded & 0xff) | ((encoded >> 12) & 0xfff00));
    if (encoded <= 0 || major < kFirstPtsMajor || major > kLastPtsMajor) {
        errno = ENXIO;
        return -1;
    }
    const std::string path = "/dev/pts/" + std::to_string((major - kFirstPtsMajor) * 256 + minor);
    const int fd = open(path.c_str(), flags | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        errno = ENXIO;
        return -1;
    }
    struct stat st = {};
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(major, minor)) {
        close(fd);
        errno = ENXIO;
        return -1;
    }
    return fd;
}

} // namespace sandbox::init
