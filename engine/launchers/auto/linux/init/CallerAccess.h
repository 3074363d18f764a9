#pragma once

#include <string>
#include <sys/types.h>

namespace sandbox::init {

// What a supervisor reads of the process whose call it answers, through /proc/PID. The
// caller may change its memory at any time: each value is read once and only the copy
// counts.

// A descriptor (O_PATH, close-on-exec) for /proc/PID/`rest` (cwd, fd/N, root), or -1.
int openCallerPath(unsigned pid, const std::string &rest);
// A NUL-terminated path of at most PATH_MAX bytes at `address`, read a page at a time
// (the string may end just before an unmapped page).
bool readCallerString(unsigned pid, unsigned long long address, std::string &out);
bool readCallerBytes(unsigned pid, unsigned long long address, void *buffer, size_t size);
// The caller's filesystem user id (the fourth Uid: field of /proc/PID/status), or -1.
long long callerFsuid(unsigned pid);
// The caller's file mode creation mask (Umask: of /proc/PID/status), or -1.
int callerUmask(unsigned pid);
// The process (thread group) the caller thread belongs to (Tgid: of /proc/PID/status), or -1.
long long callerProcess(unsigned pid);

} // namespace sandbox::init
