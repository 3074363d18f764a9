#include "ConnectSupervisor.h"

#include "SeccompFilter.h"
#include "StatusChannel.h"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <mutex>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <system_error>
#include <thread>
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

pid_t threadGroupOf(unsigned tid);

// A pidfd for the process whose thread `tid` made a call: a pidfd of the thread itself
// where the kernel has them (Linux 6.9; its process's descriptors are reached through it
// even when the first thread has gone), else one of its process, found in /proc.
int callerPidfd(unsigned tid)
{
#ifndef PIDFD_THREAD
    constexpr unsigned PIDFD_THREAD = O_EXCL;
#endif
    const int own = static_cast<int>(syscall(SYS_pidfd_open, tid, PIDFD_THREAD));
    if (own >= 0 || errno != EINVAL)
        return own;
    const pid_t process = threadGroupOf(tid);
    return process > 0 ? static_cast<int>(syscall(SYS_pidfd_open, process, 0)) : -1;
}

// The process (thread group) of thread `tid`, from /proc; -1 when it cannot be read.
pid_t threadGroupOf(unsigned tid)
{
    const std::string path = "/proc/" + std::to_string(tid) + "/status";
    const int status = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (status < 0)
        return -1;
    char buffer[4096] = {};
    const ssize_t n = read(status, buffer, sizeof buffer - 1);
    close(status);
    const char *line = n > 0 ? std::strstr(buffer, "\nTgid:") : nullptr;
    if (!line)
        return -1;
    const long value = std::strtol(line + 6, nullptr, 10);
    return value > 0 ? static_cast<pid_t>(value) : -1;
}

// The caller's own name for itself (/proc/PID/comm), or its pid when it has gone.
std::string commandName(unsigned pid)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/comm";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    char buffer[64] = {};
    const ssize_t n = fd >= 0 ? read(fd, buffer, sizeof buffer - 1) : -1;
    if (fd >= 0)
        close(fd);
    std::string name(buffer, n > 0 ? size_t(n) : 0);
    while (!name.empty() && (name.back() == '\n' || name.back() == '\t'))
        name.pop_back();
    return name.empty() ? "pid " + std::to_string(pid) : name;
}

} // namespace

ConnectSupervisor::ConnectSupervisor(int notifyFd, std::vector<UnixTarget> targets,
                                     const std::vector<std::string> &writablePaths, WriteGate *gate,
                                     bool reportDeniedCalls)
    : m_notifyFd(notifyFd)
    , m_targets(std::move(targets))
    , m_metadata(writablePaths, gate)
    , m_gate(gate)
    , m_reportDeniedCalls(reportDeniedCalls)
{
    // The workers answer on a listener of their own, which goes with the last of them.
    m_connects->notifyFd = fcntl(notifyFd, F_DUPFD_CLOEXEC, 0);
}

ConnectSupervisor::~ConnectSupervisor()
{
    if (m_notifyFd >= 0)
        close(m_notifyFd);
}

int ConnectSupervisor::connectTo(const UnixTarget &target, unsigned pid, int targetFd) const
{
    const long flags = descriptorFlags(pid, targetFd);
    sockaddr_un address = {};
    if (flags < 0 || target.connectPath.size() >= sizeof address.sun_path)
        return -1;
    const int own = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (own < 0)
        return -1;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, target.connectPath.data(), target.connectPath.size());
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
    // Counts the call and the time until it is answered, whichever way handleOne() returns.
    struct Counted
    {
        Tally *tally;
        timespec start = {};
        explicit Counted(Tally *t)
            : tally(t)
        {
            if (tally)
                clock_gettime(CLOCK_MONOTONIC, &start);
        }
        ~Counted()
        {
            if (!tally)
                return;
            timespec end = {};
            clock_gettime(CLOCK_MONOTONIC, &end);
            ++tally->calls;
            tally->nanoseconds += static_cast<unsigned long long>((end.tv_sec - start.tv_sec) * 1000000000LL
                                                                  + (end.tv_nsec - start.tv_nsec));
        }
        Counted(const Counted &) = delete;
        Counted &operator=(const Counted &) = delete;
    } counted(m_tally);
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
    if (m_reportDeniedCalls) {
        if (const std::string name = deniedCallName(request->data.nr); !name.empty()) {
            response->error = -EPERM;
            (void)seccomp_notify_respond(m_notifyFd, response);
            const unsigned pid = request->pid;
            seccomp_notify_free(request, response);
            // The call's name, a tab, the name the calling process gave itself (data only).
            reportRefusal("call", name + '\t' + commandName(pid));
            return;
        }
    }
    if (MetadataSupervisor::handles(request->data.nr)) {
        std::string refusedPath;
        bool protectedByGate = false;
        m_metadata.answer(m_notifyFd, *request, *response, &refusedPath, &protectedByGate);
        (void)seccomp_notify_respond(m_notifyFd, response);
        seccomp_notify_free(request, response);
        if (!refusedPath.empty())
            reportRefusal(protectedByGate ? "repository" : "path", refusedPath);
        return;
    }
    const int targetFd = static_cast<int>(request->data.args[0]);
    const unsigned long long length = request->data.args[2];
    if (request->data.nr == SCMP_SYS(connect) && connectOnItsSocket(*request, *response)) {
        seccomp_notify_free(request, response);
        return;
    }
    sockaddr_un address = {};
    const UnixTarget *allowed = nullptr;
    std::string target; // what the command asked to connect to, for the report
    if (request->data.nr == SCMP_SYS(connect) && length > offsetof(sockaddr_un, sun_path) && length <= sizeof address
        && !m_targets.empty()) {
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
                for (const UnixTarget &candidate : m_targets) {
                    if (address.sun_path[0] != '\0' && !candidate.name.empty() && path == candidate.name)
                        allowed = &candidate;
                }
                target = address.sun_path[0] != '\0' ? path : std::string("an abstract unix socket");
            }
        }
    }
    if (allowed) {
        const int own = connectTo(*allowed, request->pid, targetFd);
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
    const bool refused = !allowed && request->data.nr == SCMP_SYS(connect);
    // A caller killed meanwhile makes this fail; there is nobody left to answer.
    (void)seccomp_notify_respond(m_notifyFd, response);
    seccomp_notify_free(request, response);
    if (refused)
        reportRefusal("host-socket", target.empty() ? std::string("a socket address") : target);
}

bool ConnectSupervisor::connectOnItsSocket(const seccomp_notif &request, seccomp_notif_resp &response)
{
    const unsigned long long length = request.data.args[2];
    sockaddr_storage address = {};
    if (length < sizeof(sa_family_t) || length > sizeof address)
        return false;
    const std::string memory = "/proc/" + std::to_string(request.pid) + "/mem";
    const int mem = open(memory.c_str(), O_RDONLY | O_CLOEXEC);
    if (mem < 0)
        return false;
    const ssize_t n = pread(mem, &address, length, static_cast<off_t>(request.data.args[1]));
    close(mem);
    if (n != static_cast<ssize_t>(length)
        || (address.ss_family != AF_INET && address.ss_family != AF_INET6 && address.ss_family != AF_UNSPEC))
        return false;
    // The caller's own socket, held here: whatever the command does to its descriptors or
    // memory from now on, this connection is the one checked, to the address copied above.
    // The pidfd is taken before the id check: while the thread still waits, it lives, so the
    // pidfd is the caller's, not a reused id's.
    const int pidfd = callerPidfd(request.pid);
    int socketFd = -1;
    if (pidfd >= 0 && seccomp_notify_id_valid(m_notifyFd, request.id) == 0)
        socketFd = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, static_cast<int>(request.data.args[0]), 0));
    const int grabError = errno;
    if (pidfd >= 0)
        close(pidfd);
    if (socketFd < 0) {
        response.error = -(grabError == EBADF ? EBADF : EACCES);
        (void)seccomp_notify_respond(m_notifyFd, &response);
        return true;
    }
    // Every such connect() is made on a worker thread, blocking or not: the socket's
    // O_NONBLOCK is the command's to change at any moment, so this loop never connects, and
    // the other calls of the sandbox are answered meanwhile. Beyond kMaxConnectThreads the
    // calls wait their turn (each caller is blocked in the kernel meanwhile).
    ConnectQueue::Job job{ socketFd, address, static_cast<socklen_t>(length), response };
    std::unique_lock lock(m_connects->mutex);
    if (m_connects->running >= kMaxConnectThreads) {
        m_connects->waiting.push_back(job);
        return true;
    }
    ++m_connects->running;
    lock.unlock();
    try {
        std::thread(&ConnectQueue::run, m_connects, job).detach();
    } catch (const std::system_error &) {
        lock.lock();
        --m_connects->running;
        lock.unlock();
        close(socketFd);
        response.error = -EAGAIN;
        (void)seccomp_notify_respond(m_notifyFd, &response);
    }
    return true;
}

void ConnectQueue::run(std::shared_ptr<ConnectQueue> queue, Job job)
{
    for (;;) {
        job.response.error
            = connect(job.socketFd, reinterpret_cast<sockaddr *>(&job.address), job.length) == 0 ? 0 : -errno;
        // A caller that went away meanwhile makes this fail; there is nobody left to answer.
        (void)seccomp_notify_respond(queue->notifyFd, &job.response);
        close(job.socketFd);
        std::lock_guard lock(queue->mutex);
        if (queue->waiting.empty()) {
            --queue->running;
            return;
        }
        job = queue->waiting.front();
        queue->waiting.pop_front();
    }
}

ConnectQueue::~ConnectQueue()
{
    for (const Job &job : waiting)
        close(job.socketFd);
    if (notifyFd >= 0)
        close(notifyFd);
}

void ConnectSupervisor::reportRefusal(const char *kind, const std::string &what)
{
    if (m_reportedRefusals >= kMaxReportedRefusals)
        return;
    ++m_reportedRefusals;
    report(std::string("refused ") + kind + ' ' + what);
}

} // namespace sandbox::init
