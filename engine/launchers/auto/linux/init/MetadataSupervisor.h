#pragma once

#include <linux/seccomp.h>
#include <string>
#include <vector>

namespace sandbox::init {

class WriteGate;

// Tier 2: Landlock has no right for a file's mode or times, so the command's chmod and
// utimes calls (chmod, fchmod, fchmodat, fchmodat2, utimensat, utimes, utime, futimesat)
// are handed to sandbox-init by seccomp user notification and answered here. Tier 1 and a
// container's gate hand over only the chmod calls that set an execute bit, with "/" as
// the one writable path (their mounts bound the rest), for the write gate to judge. The path and
// the times are read from the caller's memory once; the target is opened (O_PATH) relative
// to the caller's working directory or descriptor through /proc/PID; the change is made on
// that descriptor by sandbox-init itself, and only when the object it names lies under a
// writable path of the policy (found again beneath that path's root, same device and
// inode). Everything else gets EPERM. What the caller changes in its memory after the read
// cannot redirect the change.
class MetadataSupervisor final
{
public:
    // `gate` (may be null, outlives this): entries it protects keep their mode and times.
    MetadataSupervisor(const std::vector<std::string> &writablePaths, const WriteGate *gate);
    ~MetadataSupervisor();
    MetadataSupervisor(const MetadataSupervisor &) = delete;
    MetadataSupervisor &operator=(const MetadataSupervisor &) = delete;

    // True when `nr` is one of the calls answered here.
    static bool handles(int nr);
    // Answers `request` into `response` (error or 0); `notifyFd` validates the request.
    // `refusedPath` (may be null) receives the object's path when the call is refused
    // because the object is not under a writable path or the write gate protects it
    // (`protectedByGate`, may be null, then says which).
    void answer(int notifyFd, const seccomp_notif &request, seccomp_notif_resp &response,
                std::string *refusedPath = nullptr, bool *protectedByGate = nullptr) const;

private:
    struct Root
    {
        int fd = -1;
        std::string path; // canonical
    };
    bool underWritable(int objectFd) const;

    std::vector<Root> m_roots;
    const WriteGate *m_gate = nullptr;
};

} // namespace sandbox::init
