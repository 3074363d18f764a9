#pragma once

#include <string>
#include <vector>

namespace sandbox::guest {

// What the agent does first when it is the guest's init: the kernel's own filesystems,
// the kernel modules the initramfs carries (/.sandbox/modules lists them in load order),
// a private /tmp, and the host shares the engine listed in /.sandbox/layout:
//   mount <tag> ro|rw <guest path>     a 9p share
//   symlink <target> <guest path>
//   bind <initramfs file> <guest path>   bound read-only over the path
// Returns messages about anything that failed (each also a reason the engine shows).
std::vector<std::string> bootGuest();

// After the guest was restored from a baseline (booted with an empty layout): finds the 9p
// devices the host hot-added (waiting up to `waitMs` for every tag `layout` mounts), then
// applies `layout` (the /.sandbox/layout format) as a boot would have. Returns what failed.
std::vector<std::string> attachLayout(const std::string &layout, int waitMs);

// Binds the file at `path` read-only over itself and opens it (O_PATH, close-on-exec) through
// that mount, so neither its content nor what the descriptor names can change: writes, hard
// links and renames through the path are refused. Returns -1 and sets `problem` on failure.
int openReadOnlyBound(const char *path, std::string &problem);

// Whether the kernel command line holds `flag` (the driver says how the guest is wired:
// sandbox.channel=vsock, sandbox.fs=virtiofs).
bool kernelFlag(const char *flag);

// Listens on vsock `port` and returns the first connection (the engine), -1 on failure.
int openAgentVsock(unsigned port);

// Opens the agent channel: the virtio-serial port named `name` (waiting for it to
// appear, up to `waitMs`). Returns -1 when it never does.
int openAgentPort(const char *name, int waitMs);

} // namespace sandbox::guest
