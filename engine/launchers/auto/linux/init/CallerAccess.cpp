#include "CallerAccess.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

namespace sandbox::init {

namespace {

// The text of /proc/PID/status (its first 4 KiB: every field read here is in them).
std::string statusText(unsigned pid)
{
    const int status = open(("/proc/" + std::to_string(pid) + "/status").c_str(), O_RDONLY | O_CLOEXEC);
    if (status < 0)
        return {};
    char buffer[4096] = {};
    const ssize_t n = read(status, buffer, sizeof buffer - 1);
    close(status);
    return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

} // namespace

int openCallerPath(unsigned pid, const std::string &rest)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/" + rest;
    return open(path.c_str(), O_PATH | O_CLOEXEC);
}

bool readCallerString(unsigned pid, unsigned long long address, std::string &out)
{
    out.clear();
    // process_vm_readv: one call a page. Where it is refused (tier 1's pid 1 runs under the
    // deny list, which has it), /proc/PID/mem.
    static bool vmReadRefused = false;
    int mem = -1;
    bool ended = false;
    while (!ended && out.size() < PATH_MAX) {
        char chunk[4096];
        const size_t room = sizeof chunk - (address % sizeof chunk);
        ssize_t n = -1;
        bool throughProc = vmReadRefused;
        if (!throughProc) {
            iovec local = { chunk, room };
            iovec remote = { reinterpret_cast<void *>(static_cast<uintptr_t>(address)), room };
            n = process_vm_readv(static_cast<pid_t>(pid), &local, 1, &remote, 1, 0);
            throughProc = n < 0 && (errno == EPERM || errno == ENOSYS);
        }
        if (throughProc) {
            if (mem < 0)
                mem = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
            if (mem < 0)
                return false;
            n = pread(mem, chunk, room, static_cast<off_t>(address));
            // /proc worked where the call was refused: the call is refused to this process.
            vmReadRefused = vmReadRefused || n > 0;
        }
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n && !ended; ++i) {
            if (chunk[i] == '\0')
                ended = true;
            else
                out.push_back(chunk[i]);
        }
        address += static_cast<unsigned long long>(n);
    }
    if (mem >= 0)
        close(mem);
    return ended && out.size() < PATH_MAX;
}

bool readCallerBytes(unsigned pid, unsigned long long address, void *buffer, size_t size)
{
    const int mem = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
    if (mem < 0)
        return false;
    const ssize_t n = pread(mem, buffer, size, static_cast<off_t>(address));
    close(mem);
    return n == static_cast<ssize_t>(size);
}

long long callerFsuid(unsigned pid)
{
    const std::string text = statusText(pid);
    const size_t uid = text.find("\nUid:");
    if (uid == std::string::npos)
        return -1;
    const char *cursor = text.c_str() + uid + 5;
    char *end = nullptr;
    long long value = -1;
    for (int field = 0; field < 4; ++field) {
        value = std::strtoll(cursor, &end, 10);
        cursor = end;
    }
    return value;
}

int callerUmask(unsigned pid)
{
    const std::string text = statusText(pid);
    const size_t mask = text.find("\nUmask:");
    if (mask == std::string::npos)
        return -1;
    return static_cast<int>(std::strtol(text.c_str() + mask + 7, nullptr, 8) & 0777);
}

long long callerProcess(unsigned pid)
{
    const std::string text = statusText(pid);
    const size_t group = text.find("\nTgid:");
    if (group == std::string::npos)
        return -1;
    return std::strtoll(text.c_str() + group + 6, nullptr, 10);
}

} // namespace sandbox::init
