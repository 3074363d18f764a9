#include "StatusChannel.h"

#include <cerrno>
#include <unistd.h>

namespace sandbox::init {

namespace {

void writeAll(int fd, const std::string &text)
{
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += static_cast<size_t>(n);
    }
}

} // namespace

void report(const std::string &line)
{
    std::string text = line.substr(0, 500);
    for (char &c : text) {
        // One line, whatever a reported path holds.
        if (c == '\n' || c == '\r' || c == '\0')
            c = ' ';
    }
    writeAll(kStatusFd, text + "\n");
}

void failSetup(const std::string &message)
{
    report("error " + message);
    writeAll(STDERR_FILENO, "sandbox: " + message + " (the command was not run)\n");
    _exit(kSetupFailedStatus);
}

} // namespace sandbox::init
