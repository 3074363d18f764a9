#pragma once

#include <string>

struct stat;

namespace sandbox {

// How a recorded plan names what its build read, byte for byte the same for the engine that
// writes records (PlanRecorder) and the run front that checks them (PlanRecord): plain C++,
// so the front links it without Qt.
class RecordedEntry
{
public:
    // The entry at `path` as lstat() shows it: "-" when there is none, "l TARGET" for a
    // symbolic link, "d DEV INO MODE UID GID" for a directory, "f ... SIZE MTIME CTIME" (s and
    // ns) for a regular file, "o ... RDEV" otherwise; empty when it cannot be examined.
    // `status`, when given, receives what lstat() returned.
    static std::string identity(const std::string &path, struct stat *status = nullptr);
    // The digest of a directory's entries: the names in byte order, each followed by NUL,
    // its type letter (d l s f o) and NUL, as SHA-256 hex; "-" when it cannot be opened,
    // empty when an entry cannot be examined.
    static std::string listing(const std::string &directory);
    // The digest of this process's environment: its entries in byte order, each followed
    // by NUL, as SHA-256 hex.
    static std::string environment();
    // The name of the record of a run in `cwd` with `policyArgument`, for this user.
    static std::string recordName(const std::string &cwd, const std::string &policyArgument);
};

} // namespace sandbox
