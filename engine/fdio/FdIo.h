#pragma once

#include <cstddef>
#include <string_view>
#include <sys/socket.h>

// Writing to and passing file descriptors, in plain C++ (no Qt): shared by the Qt programs
// and the VM's guest helpers, and usable by the other plain C++ programs (sandbox-init, the
// run front).
namespace sandbox::fdio {

// How writeAll writes.
struct WriteMode
{
    // send(MSG_NOSIGNAL) instead of write(): a socket whose reader is gone fails the write
    // instead of raising SIGPIPE.
    bool socket = false;
    // A non-blocking descriptor that takes nothing now (EAGAIN) is waited for (poll) instead
    // of failing the write.
    bool waitWhenFull = false;
};

// Writes all `size` bytes of `data` to `fd`, again after EINTR. False when a write fails
// or writes nothing (what was written before stays written).
bool writeAll(int fd, const char *data, std::size_t size, WriteMode mode = {});

// The control buffer of a message that carries one descriptor (SCM_RIGHTS).
struct DescriptorControl
{
    alignas(cmsghdr) char bytes[CMSG_SPACE(sizeof(int))] = {};
};

// Makes `message` carry `fd`, its control data in `control`.
void attachDescriptor(msghdr &message, DescriptorControl &control, int fd);
// The one descriptor a received `message` carries, or -1 when it carries none.
int attachedDescriptor(const msghdr &message);

// Sends `fd` over the unix socket `socket` with `data` (not empty), again after EINTR;
// `flags` are sendmsg()'s. False unless all of `data` was sent.
bool sendDescriptor(int socket, int fd, std::string_view data, int flags = 0);
// The descriptor sent over `socket` with one byte, again after EINTR; `flags` are
// recvmsg()'s (MSG_CMSG_CLOEXEC). -1 when none came (the sender closed the socket).
int receiveDescriptor(int socket, int flags = 0);

} // namespace sandbox::fdio
