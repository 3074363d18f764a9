#include "FdIo.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

namespace sandbox::fdio {

bool writeAll(int fd, const char *data, std::size_t size, WriteMode mode)
{
    while (size > 0) {
        const ssize_t n = mode.socket ? ::send(fd, data, size, MSG_NOSIGNAL) : ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN && mode.waitWhenFull) {
            pollfd out = { fd, POLLOUT, 0 };
            ::poll(&out, 1, -1);
            continue;
        }
        if (n <= 0)
            return false;
        data += n;
        size -= std::size_t(n);
    }
    return true;
}

void attachDescriptor(msghdr &message, DescriptorControl &control, int fd)
{
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &fd, sizeof(int));
}

int attachedDescriptor(const msghdr &message)
{
    const cmsghdr *header = CMSG_FIRSTHDR(&message);
    if (!header || header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS
        || header->cmsg_len != CMSG_LEN(sizeof(int)))
        return -1;
    int fd = -1;
    std::memcpy(&fd, CMSG_DATA(header), sizeof(int));
    return fd;
}

bool sendDescriptor(int socket, int fd, std::string_view data, int flags)
{
    iovec chunk{ const_cast<char *>(data.data()), data.size() };
    msghdr message{};
    message.msg_iov = &chunk;
    message.msg_iovlen = 1;
    DescriptorControl control;
    attachDescriptor(message, control, fd);
    ssize_t sent;
    while ((sent = ::sendmsg(socket, &message, flags)) < 0 && errno == EINTR) { }
    return sent == ssize_t(data.size());
}

int receiveDescriptor(int socket, int flags)
{
    char byte = 0;
    iovec chunk{ &byte, 1 };
    msghdr message{};
    message.msg_iov = &chunk;
    message.msg_iovlen = 1;
    DescriptorControl control;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    ssize_t n;
    while ((n = ::recvmsg(socket, &message, flags)) < 0 && errno == EINTR) { }
    return n == 1 ? attachedDescriptor(message) : -1;
}

} // namespace sandbox::fdio
