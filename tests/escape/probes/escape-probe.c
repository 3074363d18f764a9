/* escape-probe: one attempt to break out of the sandbox per subcommand.
 * Prints "BLOCKED <errno text>" and exits 0 when the kernel refused, prints "ESCAPED ..."
 * and exits 1 when the attempt worked. Architecture probes are expected to be killed. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int verdict(long rc, const char *what)
{
    if (rc < 0) {
        printf("BLOCKED %s: %s\n", what, strerror(errno));
        return 0;
    }
    printf("ESCAPED %s (returned %ld)\n", what, rc);
    return 1;
}

static pid_t sleeper(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    return pid;
}

static int probe_ptrace(void)
{
    pid_t child = sleeper();
    long rc = ptrace(PTRACE_ATTACH, child, 0, 0);
    int r = verdict(rc, "ptrace(PTRACE_ATTACH)");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return r;
}

static int probe_process_vm(void)
{
    pid_t child = sleeper();
    char buffer[16];
    static char source[16] = "x";
    struct iovec local = { buffer, sizeof buffer }, remote = { source, sizeof source };
    long rc = syscall(SYS_process_vm_readv, child, &local, 1, &remote, 1, 0);
    int r = verdict(rc, "process_vm_readv");
    if (r == 0) {
        rc = syscall(SYS_process_vm_writev, child, &local, 1, &remote, 1, 0);
        r = verdict(rc, "process_vm_writev");
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return r;
}

static int probe_io_uring(void)
{
    char params[120];
    memset(params, 0, sizeof params);
    return verdict(syscall(SYS_io_uring_setup, 4, params), "io_uring_setup");
}

static int probe_bpf(void)
{
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    return verdict(syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr), "bpf(BPF_MAP_CREATE)");
}

static int probe_keyctl(void)
{
    /* KEYCTL_GET_KEYRING_ID (0) of the session keyring (-3), create = 1 */
    int r = verdict(syscall(SYS_keyctl, 0, -3, 1), "keyctl");
    if (r == 0)
        r = verdict(syscall(SYS_add_key, "user", "probe", "x", 1, -3), "add_key");
    if (r == 0)
        r = verdict(syscall(SYS_request_key, "user", "probe", NULL, 0), "request_key");
    return r;
}

static int probe_userfaultfd(void)
{
    return verdict(syscall(SYS_userfaultfd, 0), "userfaultfd");
}

static int probe_perf(void)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    return verdict(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0), "perf_event_open");
}

static int probe_mount(void)
{
    int r = verdict(mount("tmpfs", "/tmp", "tmpfs", 0, NULL), "mount(tmpfs)");
    if (r == 0)
        r = verdict(mount("/", "/tmp", NULL, MS_BIND | MS_REC, NULL), "mount(MS_BIND)");
    if (r == 0)
        r = verdict(umount2("/proc", MNT_DETACH), "umount2");
    if (r == 0)
        r = verdict(syscall(SYS_pivot_root, "/tmp", "/tmp"), "pivot_root");
    if (r == 0)
        r = verdict(syscall(SYS_open_tree, AT_FDCWD, "/", 1 /* OPEN_TREE_CLONE */), "open_tree");
    if (r == 0)
        r = verdict(syscall(SYS_fsopen, "tmpfs", 0), "fsopen");
    if (r == 0)
        r = verdict(syscall(SYS_fspick, AT_FDCWD, "/", 0), "fspick");
    if (r == 0)
        r = verdict(syscall(SYS_move_mount, AT_FDCWD, "/proc", AT_FDCWD, "/tmp", 0), "move_mount");
    if (r == 0)
        r = verdict(syscall(SYS_fsmount, 3, 0, 0), "fsmount");
    if (r == 0)
        r = verdict(syscall(SYS_fsconfig, 3, 6 /* FSCONFIG_CMD_CREATE */, NULL, NULL, 0), "fsconfig");
    if (r == 0) {
        char attr[32];
        memset(attr, 0, sizeof attr);
        r = verdict(syscall(SYS_mount_setattr, AT_FDCWD, "/", 0, attr, sizeof attr), "mount_setattr");
    }
    return r;
}

static int probe_unshare(void)
{
    int r = verdict(unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)");
    if (r == 0)
        r = verdict(unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
    if (r == 0)
        r = verdict(unshare(CLONE_NEWNET), "unshare(CLONE_NEWNET)");
    return r;
}

static int probe_setns(void)
{
    int fd = open("/proc/self/ns/mnt", O_RDONLY);
    if (fd < 0) {
        printf("BLOCKED open(/proc/self/ns/mnt): %s\n", strerror(errno));
        return 0;
    }
    return verdict(setns(fd, 0), "setns");
}

static int probe_clone_newuser(void)
{
    long rc = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (rc == 0)
        _exit(0);
    if (rc > 0)
        waitpid((pid_t)rc, NULL, 0);
    int r = verdict(rc, "clone(CLONE_NEWUSER)");
    if (r == 0) {
        rc = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
        if (rc == 0)
            _exit(0);
        if (rc > 0)
            waitpid((pid_t)rc, NULL, 0);
        r = verdict(rc, "clone(CLONE_NEWPID)");
    }
    if (r == 0) {
        /* clone3 must not be a way around the flag check */
        struct
        {
            unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
        } args;
        memset(&args, 0, sizeof args);
        args.flags = CLONE_NEWUSER;
        args.exit_signal = SIGCHLD;
        rc = syscall(SYS_clone3, &args, sizeof args);
        if (rc == 0)
            _exit(0);
        if (rc > 0)
            waitpid((pid_t)rc, NULL, 0);
        r = verdict(rc, "clone3(CLONE_NEWUSER)");
    }
    return r;
}

static int probe_chroot(void)
{
    return verdict(chroot("/tmp"), "chroot");
}

static int probe_kexec(void)
{
    int r = verdict(syscall(SYS_kexec_load, 0, 0, NULL, 0), "kexec_load");
    if (r == 0)
        r = verdict(syscall(SYS_kexec_file_load, -1, -1, 0, "", 0), "kexec_file_load");
    return r;
}

static int probe_modules(void)
{
    static char image[64];
    int r = verdict(syscall(SYS_init_module, image, sizeof image, ""), "init_module");
    if (r == 0) {
        int fd = open("/dev/null", O_RDONLY);
        r = verdict(syscall(SYS_finit_module, fd, "", 0), "finit_module");
    }
    if (r == 0)
        r = verdict(syscall(SYS_delete_module, "ext4", O_NONBLOCK), "delete_module");
    return r;
}

static int probe_personality(void)
{
    long rc = syscall(SYS_personality, PER_LINUX32);
    if (rc >= 0 && (syscall(SYS_personality, 0xffffffffUL) & 0xff) == PER_LINUX32) {
        printf("ESCAPED personality(PER_LINUX32)\n");
        return 1;
    }
    if (rc < 0)
        return verdict(rc, "personality(PER_LINUX32)");
    return verdict(syscall(SYS_personality, READ_IMPLIES_EXEC), "personality(READ_IMPLIES_EXEC)");
}

static int probe_raw_socket(void)
{
    int r = verdict(socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), "socket(AF_INET, SOCK_RAW)");
    if (r == 0)
        r = verdict(socket(AF_PACKET, SOCK_RAW, htons(3)), "socket(AF_PACKET)");
    if (r == 0)
        r = verdict(socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6), "socket(AF_INET6, SOCK_RAW)");
    if (r == 0)
        r = verdict(socket(AF_PACKET, SOCK_DGRAM, htons(3)), "socket(AF_PACKET, SOCK_DGRAM)");
    return r;
}

static int probe_tiocsti(void)
{
    char c = 'x';
    return verdict(ioctl(0, TIOCSTI, &c), "ioctl(TIOCSTI)");
}

static int probe_open_by_handle(void)
{
    char handle[128];
    memset(handle, 0, sizeof handle);
    return verdict(syscall(SYS_open_by_handle_at, AT_FDCWD, handle, O_RDONLY), "open_by_handle_at");
}

static int probe_x32(void)
{
    /* getpid through the x32 entry point: must kill the process */
    long rc = syscall(0x40000000 | SYS_getpid);
    return verdict(rc, "x32 getpid");
}

static int probe_ia32(void)
{
    long rc;
    /* getpid is 20 in the i386 table */
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
    if (rc < 0) {
        errno = (int)-rc;
        rc = -1;
    }
    return verdict(rc, "int 0x80 getpid");
}

static struct sockaddr_in ipv4_address(const char *host, const char *port)
{
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)atoi(port));
    inet_pton(AF_INET, host, &address.sin_addr);
    return address;
}

static int probe_connect_tcp(const char *host, const char *port)
{
    struct sockaddr_in address = ipv4_address(host, port);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return verdict(fd, "socket(AF_INET)");
    struct timeval timeout = { 3, 0 };
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    return verdict(connect(fd, (struct sockaddr *)&address, sizeof address), "connect");
}

static int probe_send_udp(const char *host, const char *port)
{
    struct sockaddr_in address = ipv4_address(host, port);
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return verdict(fd, "socket(AF_INET, SOCK_DGRAM)");
    /* Sending may "work" inside an empty network namespace: the test checks the host side. */
    long rc = sendto(fd, "escape", 6, 0, (struct sockaddr *)&address, sizeof address);
    printf("SENT %ld\n", rc);
    return 0;
}

static int probe_connect_unix(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return verdict(fd, "socket(AF_UNIX)");
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (path[0] == '@')
        address.sun_path[0] = '\0';
    socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path) + (path[0] == '@' ? 0 : 1));
    return verdict(connect(fd, (struct sockaddr *)&address, length), "connect(unix)");
}

/* The family with bits above the low 32 set: the kernel reads only the low 32 bits, a
 * filter that compares all 64 would let it through. */
static long wide_socket(long family, int type)
{
    return syscall(SYS_socket, (1L << 32) | family, type, 0);
}

static int probe_connect_unix_wide(const char *path)
{
    long fd = wide_socket(AF_UNIX, SOCK_STREAM);
    if (fd < 0)
        return verdict(fd, "socket((1<<32)|AF_UNIX)");
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (path[0] == '@')
        address.sun_path[0] = '\0';
    socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path) + (path[0] == '@' ? 0 : 1));
    return verdict(connect((int)fd, (struct sockaddr *)&address, length), "connect(wide unix)");
}

static int probe_connect_tcp_wide(const char *host, const char *port)
{
    struct sockaddr_in address = ipv4_address(host, port);
    long fd = wide_socket(AF_INET, SOCK_STREAM);
    if (fd < 0)
        return verdict(fd, "socket((1<<32)|AF_INET)");
    struct timeval timeout = { 3, 0 };
    setsockopt((int)fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    return verdict(connect((int)fd, (struct sockaddr *)&address, sizeof address), "connect(wide inet)");
}

static int probe_wide_packet(void)
{
    return verdict(wide_socket(AF_PACKET, SOCK_DGRAM), "socket((1<<32)|AF_PACKET)");
}

static int probe_vsock(void)
{
    int r = verdict(socket(40 /* AF_VSOCK */, SOCK_STREAM, 0), "socket(AF_VSOCK)");
    if (r == 0)
        r = verdict(wide_socket(40, SOCK_STREAM), "socket((1<<32)|AF_VSOCK)");
    return r;
}

static int probe_wide_tiocsti(void)
{
    char c = 'x';
    return verdict(syscall(SYS_ioctl, 0, (1L << 32) | TIOCSTI, &c), "ioctl((1<<32)|TIOCSTI)");
}

/* Scheduling, limits and I/O priority of another process (a host process in tier 2,
 * sandbox-init's supervisor in both), plain and with bits above the low 32 set. */
static int probe_other_process(const char *target)
{
    long pid = strcmp(target, "parent") == 0 ? (long)getppid() : atol(target);
    printf("target pid %ld\n", pid);
    struct rlimit one = { 1, 1 };
    int r = verdict(syscall(SYS_prlimit64, pid, RLIMIT_CPU, &one, NULL), "prlimit(pid, RLIMIT_CPU)");
    struct rlimit three = { 3, 3 };
    if (r == 0)
        r = verdict(syscall(SYS_prlimit64, pid, RLIMIT_NOFILE, &three, NULL), "prlimit(pid, RLIMIT_NOFILE)");
    if (r == 0)
        r = verdict(syscall(SYS_prlimit64, (1L << 32) | pid, RLIMIT_CPU, &one, NULL), "prlimit((1<<32)|pid)");
    if (r == 0)
        r = verdict(syscall(SYS_setpriority, PRIO_PROCESS, pid, 19), "setpriority(PRIO_PROCESS, pid)");
    if (r == 0)
        r = verdict(syscall(SYS_setpriority, PRIO_USER, 0, 19), "setpriority(PRIO_USER, 0)");
    if (r == 0)
        r = verdict(syscall(SYS_setpriority, (1L << 32) | PRIO_USER, 0, 19), "setpriority((1<<32)|PRIO_USER)");
    if (r == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        r = verdict(syscall(SYS_sched_setaffinity, pid, sizeof set, &set), "sched_setaffinity(pid)");
    }
    if (r == 0) {
        struct sched_param param = { 0 };
        r = verdict(syscall(SYS_sched_setscheduler, pid, SCHED_IDLE, &param), "sched_setscheduler(pid)");
    }
    if (r == 0) {
        unsigned int attr[14];
        memset(attr, 0, sizeof attr);
        attr[0] = sizeof attr; /* size */
        attr[1] = SCHED_IDLE; /* policy */
        r = verdict(syscall(SYS_sched_setattr, pid, attr, 0), "sched_setattr(pid)");
    }
    if (r == 0)
        r = verdict(syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, pid, (3 << 13) /* idle */),
                    "ioprio_set(IOPRIO_WHO_PROCESS, pid)");
    if (r == 0)
        r = verdict(syscall(SYS_ioprio_set, 3 /* IOPRIO_WHO_USER */, 0, (3 << 13)), "ioprio_set(IOPRIO_WHO_USER)");
    return r;
}

/* An RLIMIT_NOFILE of 3 on the parent (sandbox-init), so it cannot open /proc to find
 * what the command left behind. */
static int probe_wedge_parent(const char *seconds)
{
    struct rlimit three = { 3, 3 };
    verdict(syscall(SYS_prlimit64, (long)getppid(), RLIMIT_NOFILE, &three, NULL), "prlimit(parent, NOFILE 3)");
    /* then a detached child in a session of its own, that would outlive a wedged parent */
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            int null = open("/dev/null", O_RDWR);
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            execlp("sleep", "sleep", seconds, (char *)NULL);
        }
        _exit(0);
    }
    wait(NULL);
    printf("LEFT a detached child\n");
    return 0;
}

/* The same calls on the caller itself keep working. */
static int probe_own_process(void)
{
    struct rlimit limit;
    if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &limit) != 0 || setrlimit(RLIMIT_NOFILE, &limit) != 0
        || syscall(SYS_setpriority, PRIO_PROCESS, 0, 5) != 0 || syscall(SYS_setpriority, PRIO_PGRP, 0, 6) != 0
        || syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 4) != 0) {
        printf("FAILED on itself: %s\n", strerror(errno));
        return 1;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0 || sched_setaffinity(0, sizeof set, &set) != 0) {
        printf("FAILED affinity on itself: %s\n", strerror(errno));
        return 1;
    }
    printf("OWN-OK\n");
    return 0;
}

/* The host's SysV IPC objects and POSIX message queues. */
static int probe_host_ipc(const char *shmid, const char *msgkey, const char *mqname)
{
    long rc = (long)shmat(atoi(shmid), NULL, SHM_RDONLY);
    int r = verdict(rc == -1 ? -1 : rc, "shmat(host segment)");
    if (r == 0)
        r = verdict(shmctl(atoi(shmid), IPC_RMID, NULL), "shmctl(IPC_RMID)");
    if (r == 0)
        r = verdict(msgget((key_t)atol(msgkey), 0), "msgget(host key)");
    if (r == 0)
        r = verdict(semget((key_t)atol(msgkey), 0, 0), "semget(host key)");
    if (r == 0)
        r = verdict(mq_open(mqname, O_RDWR), "mq_open(host queue)");
    if (r == 0)
        r = verdict(mq_unlink(mqname), "mq_unlink(host queue)");
    return r;
}

static int probe_kill(const char *pid)
{
    return verdict(kill((pid_t)atoi(pid), SIGKILL), "kill");
}

/* A seccomp listener of the command's own. The kernel allows one listener in a filter stack,
 * so while sandbox-init's lives the attempt fails with EBUSY; a command that first ended its
 * sandbox-init (its parent, when the probe is the command) could otherwise install one and
 * answer its own supervised calls (connect, the write gate) with "continue". The attempt is
 * made by a child without the parent's environment, in a session of its own, so it outlives
 * what ends with the command, and which then stays for two minutes; the verdict goes to
 * stdout and to `out` (may be null). */
static int own_listener_attempt(FILE *out)
{
    struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog program = { 1, &allow };
    long rc = -1;
    for (int tries = 0; tries < 200; ++tries) {
        rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &program);
        if (rc >= 0 || errno != EBUSY)
            break;
        usleep(10000); /* the parent may still be going away */
    }
    const int saved = errno;
    if (out) {
        if (rc >= 0)
            fprintf(out, "ESCAPED own seccomp listener (fd %ld)\n", rc);
        else
            fprintf(out, "BLOCKED own seccomp listener: %s\n", strerror(saved));
        fclose(out);
    }
    errno = saved;
    return verdict(rc, "own seccomp listener");
}

static int probe_own_listener(const char *report)
{
    const pid_t supervisor = getppid();
    int ready[2];
    if (pipe(ready) != 0)
        return verdict(-1, "pipe");
    const pid_t child = fork();
    if (child < 0)
        return verdict(-1, "fork");
    if (child == 0) {
        close(ready[0]);
        setsid();
        char supervisorText[32];
        char readyText[32];
        snprintf(supervisorText, sizeof supervisorText, "%ld", (long)supervisor);
        snprintf(readyText, sizeof readyText, "%d", ready[1]);
        char *args[]
            = { (char *)"escape-probe", (char *)"own_listener_child", supervisorText, (char *)report, readyText, NULL };
        char *none[] = { NULL };
        execve("/proc/self/exe", args, none);
        _exit(127);
    }
    close(ready[1]);
    /* The command lasts until the child has made its attempt (its end would end the child). */
    char byte = 0;
    while (read(ready[0], &byte, 1) < 0 && errno == EINTR) { }
    printf("own listener attempt made in child %ld\n", (long)child);
    return 0;
}

static int probe_own_listener_child(const char *supervisor, const char *report, const char *readyFd)
{
    /* Opened while the write gate still answers: with no supervisor left, a supervised
     * open gets ENOSYS. */
    FILE *out = fopen(report, "w");
    printf("kill(supervisor %s): %s\n", supervisor,
           kill((pid_t)atol(supervisor), SIGKILL) == 0 ? "ok" : strerror(errno));
    const int escaped = own_listener_attempt(out);
    const int ready = atoi(readyFd);
    (void)!write(ready, "x", 1);
    close(ready);
    /* Stays, as a command's leftover would, until what holds the sandbox ends it. */
    sleep(120);
    return escaped;
}

/* These attempts are real: outside a sandbox they would mount over /tmp, attach to
 * processes and so on. Refuse to run unless seccomp filtering and no_new_privs are on. */
static int confined(void)
{
    FILE *status = fopen("/proc/self/status", "r");
    if (!status)
        return 0;
    char line[256];
    int seccomp = 0, nnp = 0;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "Seccomp:", 8) == 0)
            seccomp = atoi(line + 8) == 2;
        else if (strncmp(line, "NoNewPrivs:", 11) == 0)
            nnp = atoi(line + 11) == 1;
    }
    fclose(status);
    return seccomp && nnp;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!confined()) {
        fprintf(stderr, "escape-probe: refusing to run outside a sandbox (no seccomp filter / no_new_privs)\n");
        return 3;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: escape-probe NAME [ARGS]\n");
        return 2;
    }
    const char *name = argv[1];
    struct
    {
        const char *name;
        int (*run)(void);
    } probes[] = {
        { "ptrace", probe_ptrace },
        { "process_vm", probe_process_vm },
        { "io_uring", probe_io_uring },
        { "bpf", probe_bpf },
        { "keyctl", probe_keyctl },
        { "userfaultfd", probe_userfaultfd },
        { "perf_event_open", probe_perf },
        { "mount", probe_mount },
        { "unshare", probe_unshare },
        { "setns", probe_setns },
        { "clone_newuser", probe_clone_newuser },
        { "chroot", probe_chroot },
        { "kexec", probe_kexec },
        { "modules", probe_modules },
        { "personality", probe_personality },
        { "raw_socket", probe_raw_socket },
        { "tiocsti", probe_tiocsti },
        { "open_by_handle_at", probe_open_by_handle },
        { "wide_packet", probe_wide_packet },
        { "vsock", probe_vsock },
        { "wide_tiocsti", probe_wide_tiocsti },
        { "x32", probe_x32 },
        { "ia32", probe_ia32 },
    };
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; ++i) {
        if (strcmp(name, probes[i].name) == 0)
            return probes[i].run();
    }
    if (strcmp(name, "connect_tcp") == 0 && argc == 4)
        return probe_connect_tcp(argv[2], argv[3]);
    if (strcmp(name, "send_udp") == 0 && argc == 4)
        return probe_send_udp(argv[2], argv[3]);
    if (strcmp(name, "connect_unix") == 0 && argc == 3)
        return probe_connect_unix(argv[2]);
    if (strcmp(name, "connect_unix_wide") == 0 && argc == 3)
        return probe_connect_unix_wide(argv[2]);
    if (strcmp(name, "connect_tcp_wide") == 0 && argc == 4)
        return probe_connect_tcp_wide(argv[2], argv[3]);
    if (strcmp(name, "other_process") == 0 && argc == 3)
        return probe_other_process(argv[2]);
    if (strcmp(name, "wedge_parent") == 0 && argc == 3)
        return probe_wedge_parent(argv[2]);
    if (strcmp(name, "own_process") == 0)
        return probe_own_process();
    if (strcmp(name, "host_ipc") == 0 && argc == 5)
        return probe_host_ipc(argv[2], argv[3], argv[4]);
    if (strcmp(name, "kill") == 0 && argc == 3)
        return probe_kill(argv[2]);
    if (strcmp(name, "own_listener") == 0 && argc == 3)
        return probe_own_listener(argv[2]);
    if (strcmp(name, "own_listener_child") == 0 && argc == 5)
        return probe_own_listener_child(argv[2], argv[3], argv[4]);
    fprintf(stderr, "escape-probe: unknown probe %s\n", name);
    return 2;
}
