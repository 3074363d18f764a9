// sandbox-vm-seccomp-observer REPORT_FD -- ARGV...
// Runs ARGV under the guest's seccomp deny list and reports every refused call, one line
// "<syscall>\t<command>" per refusal on REPORT_FD (the exec agent forwards them to the
// engine). The filter hands each denied call to this observer (SECCOMP_RET_USER_NOTIF),
// which answers EPERM, so the command sees a plain refusal and nothing is executed.
// Exits like the command did (same code, or the same signal).
#include "fdio/FdIo.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct Denied
{
    int number;
    const char *name;
};

// What no command needs inside the guest and what would let it rearrange or leave its
// confinement: the same families the host's own sandbox refuses.
const Denied kDenied[] = {
    { SYS_ptrace, "ptrace" },
    { SYS_mount, "mount" },
    { SYS_umount2, "umount2" },
    { SYS_pivot_root, "pivot_root" },
    { SYS_chroot, "chroot" },
    { SYS_unshare, "unshare" },
    { SYS_setns, "setns" },
    { SYS_bpf, "bpf" },
    { SYS_io_uring_setup, "io_uring_setup" },
    { SYS_add_key, "add_key" },
    { SYS_request_key, "request_key" },
    { SYS_keyctl, "keyctl" },
    { SYS_init_module, "init_module" },
    { SYS_finit_module, "finit_module" },
    { SYS_delete_module, "delete_module" },
    { SYS_kexec_load, "kexec_load" },
    { SYS_kexec_file_load, "kexec_file_load" },
    { SYS_reboot, "reboot" },
    { SYS_swapon, "swapon" },
    { SYS_swapoff, "swapoff" },
    { SYS_perf_event_open, "perf_event_open" },
    { SYS_userfaultfd, "userfaultfd" },
    { SYS_open_by_handle_at, "open_by_handle_at" },
    { SYS_fsopen, "fsopen" },
    { SYS_fsmount, "fsmount" },
    { SYS_move_mount, "move_mount" },
    { SYS_open_tree, "open_tree" },
};

const char *deniedName(int number)
{
    for (const Denied &denied : kDenied)
        if (denied.number == number)
            return denied.name;
    return "unknown";
}

std::vector<sock_filter> buildFilter()
{
    std::vector<sock_filter> program;
    program.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
    program.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    program.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)); // foreign architectures
    program.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
    // x32 system calls (bit 30) are another way around a list of numbers.
    program.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    program.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    for (const Denied &denied : kDenied) {
        program.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(denied.number), 0, 1));
        program.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF));
    }
    program.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    return program;
}

std::string commandName(pid_t pid)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/comm";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return "pid " + std::to_string(pid);
    char buffer[64] = {};
    const ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    std::string name(buffer, n > 0 ? size_t(n) : 0);
    while (!name.empty() && name.back() == '\n')
        name.pop_back();
    return name;
}

[[noreturn]] void exitLike(int status)
{
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        _exit(128 + WTERMSIG(status));
    }
    _exit(WEXITSTATUS(status));
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
        static const char usage[] = "usage: sandbox-vm-seccomp-observer REPORT_FD -- ARGV...\n";
        (void)!write(2, usage, sizeof usage - 1);
        return 125;
    }
    const int reportFd = std::atoi(argv[1]);
    fcntl(reportFd, F_SETFD, FD_CLOEXEC);
    int channel[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0) {
        perror("sandbox-vm-seccomp-observer: socketpair");
        return 125;
    }
    const pid_t child = fork();
    if (child < 0) {
        perror("sandbox-vm-seccomp-observer: fork");
        return 125;
    }
    if (child == 0) {
        close(channel[0]);
        std::vector<sock_filter> program = buildFilter();
        sock_fprog filter{ static_cast<unsigned short>(program.size()), program.data() };
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
            perror("sandbox-vm-seccomp-observer: no_new_privs");
            _exit(125);
        }
        const int listener
            = int(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &filter));
        if (listener < 0) {
            perror("sandbox-vm-seccomp-observer: seccomp");
            _exit(125);
        }
        sandbox::fdio::sendDescriptor(channel[1], listener, std::string_view("", 1));
        close(listener);
        close(channel[1]);
        execvp(argv[3], argv + 3);
        const std::string message = std::string("cannot run ") + argv[3] + ": " + std::strerror(errno) + "\n";
        (void)!write(2, message.data(), message.size());
        _exit(127);
    }
    close(channel[1]);
    // Signals for the command reach it through its process group; the observer outlives
    // them so it can report how the command ended.
    for (int s : { SIGINT, SIGTERM, SIGHUP, SIGQUIT })
        signal(s, SIG_IGN);
    const int listener = sandbox::fdio::receiveDescriptor(channel[0]);
    close(channel[0]);
    int status = 0;
    if (listener < 0) {
        waitpid(child, &status, 0);
        exitLike(status);
    }
    seccomp_notif_sizes sizes{};
    syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
    std::vector<char> requestBuffer(std::max<size_t>(sizes.seccomp_notif, sizeof(seccomp_notif)));
    std::vector<char> responseBuffer(std::max<size_t>(sizes.seccomp_notif_resp, sizeof(seccomp_notif_resp)));
    // The command's end is the observer's end, even when something it started lingers.
    const int childFd = int(syscall(SYS_pidfd_open, child, 0));
    for (;;) {
        pollfd fds[2] = { { listener, POLLIN, 0 }, { childFd, POLLIN, 0 } };
        const int ready = poll(fds, childFd >= 0 ? 2 : 1, -1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0 || (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) || (fds[1].revents & POLLIN))
            break; // the command has ended
        std::fill(requestBuffer.begin(), requestBuffer.end(), 0);
        auto *request = reinterpret_cast<seccomp_notif *>(requestBuffer.data());
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, request) != 0)
            continue;
        auto *response = reinterpret_cast<seccomp_notif_resp *>(responseBuffer.data());
        std::fill(responseBuffer.begin(), responseBuffer.end(), 0);
        response->id = request->id;
        response->error = -EPERM;
        const std::string line
            = std::string(deniedName(request->data.nr)) + "\t" + commandName(pid_t(request->pid)) + "\n";
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, response);
        (void)!write(reportFd, line.data(), line.size());
    }
    close(listener);
    if (childFd >= 0)
        close(childFd);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) { }
    exitLike(status);
}
