#include "StatusChannel.h"

#include "fdio/FdIo.h"

#include <unistd.h>

namespace sandbox::init {

namespace {

// What cannot be written (the launcher is gone) is dropped.
void writeAll(int fd, const std::string &text)
{
    fdio::writeAll(fd, text.data(), text.size());
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
