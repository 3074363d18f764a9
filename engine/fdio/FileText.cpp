#include "FileText.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace sandbox::fdio {

std::optional<std::string> readFileText(const std::string &path, size_t limit, bool *absent)
{
    if (absent)
        *absent = false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (absent)
            *absent = errno == ENOENT || errno == ENOTDIR;
        return std::nullopt;
    }
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || text.size() + size_t(n) > limit) {
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0)
            break;
        text.append(buffer, size_t(n));
    }
    ::close(fd);
    return text;
}

} // namespace sandbox::fdio
