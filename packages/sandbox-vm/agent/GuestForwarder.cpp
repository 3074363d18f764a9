#include "GuestForwarder.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sandbox::guest {

std::string startForwarder(const char *program, int waitMs)
{
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0)
        return std::string("cannot create a pipe for the forwarder: ") + std::strerror(errno);
    const pid_t pid = fork();
    if (pid == 0) {
        // Descriptor 3 tells the agent when the forwarder listens; nothing else is inherited.
        if (ready[1] != 3) {
            dup2(ready[1], 3);
        } else {
            fcntl(3, F_SETFD, 0);
        }
        const char *argv[] = { program, "3", nullptr };
        execv(program, const_cast<char **>(argv));
        const std::string message = std::string("cannot run ") + program + ": " + std::strerror(errno);
        (void)!write(3, message.data(), message.size());
        _exit(127);
    }
    close(ready[1]);
    if (pid < 0) {
        close(ready[0]);
        return std::string("cannot start the forwarder: ") + std::strerror(errno);
    }
    std::string answer;
    pollfd wait{ ready[0], POLLIN, 0 };
    for (;;) {
        const int polled = poll(&wait, 1, waitMs);
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0) {
            answer = "the forwarder did not start listening in time";
            break;
        }
        char buffer[512];
        const ssize_t n = read(ready[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        answer.append(buffer, size_t(n));
        if (answer.size() > 4096)
            break;
    }
    close(ready[0]);
    if (answer == "ready")
        return {};
    if (answer.empty())
        answer = "the forwarder ended before it listened";
    return answer;
}

} // namespace sandbox::guest
