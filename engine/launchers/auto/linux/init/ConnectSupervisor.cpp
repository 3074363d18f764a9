#include "ConnectSupervisor.h"

#include "StatusChannel.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::init {

namespace {

// The status flags (O_NONBLOCK, O_CLOEXEC) of descriptor `fd` of process `pid`, from
// /proc/PID/fdinfo; -1 when it cannot be read.
long descriptorFlags(unsigned pid, int fd)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/fdinfo/" + std::to_string(fd);
    const int info = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (info < 0)
        return -1;
    char buffer[512] = {};
    const ssize_t n = read(info, buffer, sizeof buffer - 1);
    close(info);
    if (n <= 0)
        return -1;
    const char *flags = std::strstr(buffer, "flags:");
    return flags ? std::strtol(flags + 6, nullptr, 8) : -1;
}

} // namespace

ConnectSupervisor::ConnectSupervisor(int notifyFd, std::string proxySocket,
                                     const std::vector<std::string> &writablePaths, WriteGate *gate)
    : m_notifyFd(notifyFd)
    , m_proxySocket(std::move(proxySocket))
    , m_metadata(writablePaths, gate)
    , m_gate(gate)
{ }

ConnectSupervisor::~ConnectSupervisor()
{
    if (m_notifyFd >= 0)
        close(m_notifyFd);
}

int ConnectSupervisor::connectToProxy(unsigned pid, int targetFd) const
{
    const long flags = descriptorFlags(pid, targetFd);
    if (flags < 0)
        return -1;
    const int own = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (own < 0)
        return -1;
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, m_proxySocket.data(), m_proxySocket.size());
    if (connect(own, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || ((flags & O_NONBLOCK) && fcntl(own, F_SETFL, O_NONBLOCK) != 0)) {
        close(own);
        return -1;
    }
    return own;
}

void ConnectSupervisor::handleOne()
{
    seccomp_notif *request = nullptr;
    seccomp_notif_resp *response = nullptr;
    if (seccomp_notify_alloc(&request, &response) != 0)
        return;
    if (seccomp_notify_receive(m_notifyFd, request) != 0) {
        // The caller went away before we read it, or the filter is gone (POLLHUP tells).
        seccomp_notify_free(request, response);
        return;
    }
    response->id = request->id;
    response->flags = 0;
    response->val = 0;
    response->error = -EACCES;
    if (m_gate && WriteGate::handles(request->data.nr)) {
        std::string refused;
        std::string deniedBy;
        if (!m_gate->answer(m_notifyFd, *request, *response, refused, deniedBy))
            (void)seccomp_notify_respond(m_notifyFd, response);
        seccomp_notify_free(request, response);
        // A denied path's refusal names it first (the policy's, one field), then what the
        // command wrote.
        if (!deniedBy.empty())
            reportRefusal("denied", deniedBy + '\t' + refused);
        else if (!refused.empty())
            reportRefusal("repository", refused);
        return;
    }
    if (MetadataSupervisor::handles(request->data.nr)) {
        std::string refusedPath;
        m_metadata.answer(m_notifyFd, *request, *response, &refusedPath);
        (void)seccomp_notify_respond(m_notifyFd, response);
        seccomp_notify_free(request, response);
        if (!refusedPath.empty())
            reportRefusal("path", refusedPath);
        return;
    }
    const int targetFd = static_cast<int>(request->data.args[0]);
    const unsigned long long length = request->data.args[2];
    sockaddr_un address = {};
    bool toProxy = false;
    std::string target; // what the command asked to connect to, for the report
    if (request->data.nr == SCMP_SYS(connect) && length > offsetof(sockaddr_un, sun_path) && length <= sizeof address
        && !m_proxySocket.empty() && m_proxySocket.size() < sizeof address.sun_path) {
        const std::string memory = "/proc/" + std::to_string(request->pid) + "/mem";
        const int mem = open(memory.c_str(), O_RDONLY | O_CLOEXEC);
        if (mem >= 0) {
            const ssize_t n = pread(mem, &address, length, static_cast<off_t>(request->data.args[1]));
            close(mem);
            // Our copy is what counts; the id check makes sure it was read from the caller
            // that is still waiting (not from a process that reused its pid).
            if (n == static_cast<ssize_t>(length) && seccomp_notify_id_valid(m_notifyFd, request->id) == 0
                && address.sun_family == AF_UNIX) {
                const size_t pathLength = length - offsetof(sockaddr_un, sun_path);
                const std::string path(address.sun_path, strnlen(address.sun_path, pathLength));
                toProxy = address.sun_path[0] != '\0' && path == m_proxySocket;
                target = address.sun_path[0] != '\0' ? path : std::string("an abstract unix socket");
            }
        }
    }
    if (toProxy) {
        const int own = connectToProxy(request->pid, targetFd);
        if (own >= 0) {
            seccomp_notif_addfd addfd = {};
            addfd.id = request->id;
            addfd.flags = SECCOMP_ADDFD_FLAG_SETFD;
            addfd.srcfd = static_cast<unsigned>(own);
            addfd.newfd = static_cast<unsigned>(targetFd);
            addfd.newfd_flags = (descriptorFlags(request->pid, targetFd) & O_CLOEXEC) ? O_CLOEXEC : 0;
            if (ioctl(m_notifyFd, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) >= 0)
                response->error = 0;
            close(own);
        } else {
            response->error = -ECONNREFUSED;
        }
    }
    const bool refused = !toProxy && request->data.nr == SCMP_SYS(connect);
    // A caller killed meanwhile makes this fail; there is nobody left to answer.
    (void)seccomp_notify_respond(m_notifyFd, response);
    seccomp_notify_free(request, response);
    if (refused)
        reportRefusal("host-socket", target.empty() ? std::string("a socket address") : target);
}

void ConnectSupervisor::reportRefusal(const char *kind, const std::string &what)
{
    if (m_reportedRefusals >= kMaxReportedRefusals)
        return;
    ++m_reportedRefusals;
    report(std::string("refused ") + kind + ' ' + what);
}

} // namespace sandbox::init
