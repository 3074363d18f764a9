#pragma once

#include "launchers/auto/linux/handoff/InitHandoff.h"

#include <string>

namespace sandbox::init {

// Lines sandbox-init reports to the launcher on fd 4 (kStatusFd, InitHandoff.h; each one write, < PIPE_BUF, so
// lines from several processes never interleave):
//   started <pid>     the command is running
//   error <message>   confinement could not be established; the command never ran
//   supervised <calls> <us>  how many of the command's calls sandbox-init answered (seccomp
//                     user notification) and the time answering them took, in microseconds;
//                     before exit or signal, when there were any
//   exit <code>       the command exited
//   signal <n>        the command was killed by signal n
//   refused <kind> <what>  a supervisor refused the command something (kind: host-socket,
//                     path, repository, denied, call); <what> comes from the command and is
//                     only ever data; for denied it is the policy's denied path, a tab, and
//                     the path the command wrote; for call (a VM guest's deny list) the
//                     call's name, a tab, and the name the calling process gave itself
constexpr int kSetupFailedStatus = 125;

void report(const std::string &line);
// Reports a confinement failure (status line + stderr) and exits with kSetupFailedStatus.
[[noreturn]] void failSetup(const std::string &message);

} // namespace sandbox::init
