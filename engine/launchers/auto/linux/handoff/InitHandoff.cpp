#include "InitHandoff.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sandbox::init {

int sealedConfiguration(std::string_view configuration)
{
    // Through syscall(): the run front links the C library statically, where the wrapper may lack.
    const int fd
        = static_cast<int>(::syscall(SYS_memfd_create, "sandbox-init-config", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < configuration.size()) {
        const ssize_t n = ::write(fd, configuration.data() + done, configuration.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int saved = n < 0 ? errno : EIO;
            ::close(fd);
            errno = saved;
            return -1;
        }
        done += size_t(n);
    }
    if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0
        || ::lseek(fd, 0, SEEK_SET) != 0) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

bool placeDescriptors(int configFd, int statusFd)
{
    // Lift both above the target numbers first so neither dup2 can clobber the other; dup2
    // clears FD_CLOEXEC on the copies.
    const int configCopy = ::fcntl(configFd, F_DUPFD, 10);
    const int statusCopy = ::fcntl(statusFd, F_DUPFD, 10);
    return configCopy >= 0 && statusCopy >= 0 && ::dup2(configCopy, kConfigFd) == kConfigFd
        && ::dup2(statusCopy, kStatusFd) == kStatusFd;
}

void addPlacement(posix_spawn_file_actions_t &actions, int configFd, int statusFd)
{
    posix_spawn_file_actions_adddup2(&actions, configFd, kConfigFd);
    posix_spawn_file_actions_adddup2(&actions, statusFd, kStatusFd);
    posix_spawn_file_actions_addchdir_np(&actions, kWorkingDirectory);
}

void askToEnd(pid_t initPid)
{
    ::kill(initPid, kEndSignal);
}

void forceEnd(pid_t initPid)
{
    ::kill(initPid, SIGKILL);
}

} // namespace sandbox::init
