#pragma once

namespace sandbox::init {

// /dev/tty as process `pid` would open it: its controlling terminal, opened with `flags`
// (plus O_NOCTTY and O_CLOEXEC) through the devpts this process sees and checked to be
// that very terminal. -1 with errno ENXIO when it has none (or not a pseudo-terminal), as
// the kernel answers such a process. Whoever opens a file for the command (the write gate)
// needs it: opening /dev/tty itself would give sandbox-init's own controlling terminal (the
// user's, when a sandboxctl that embeds the engine runs on one), never the command's.
int openControllingTerminal(unsigned pid, int flags);

} // namespace sandbox::init
