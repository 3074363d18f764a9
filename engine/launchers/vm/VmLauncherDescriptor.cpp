#include "UserNetworkProtocol.h"
#include "VmLauncher.h"

#include <QHostAddress>
#include <QMutexLocker>

namespace sandbox {

BackendDescriptor VmLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = tr("Virtual machine");
    descriptor.description = tr("Runs each command in a lightweight virtual machine with its own kernel.");
    descriptor.platforms = { QStringLiteral("linux"), QStringLiteral("macos"), QStringLiteral("windows") };

    descriptor.fields = {
        FieldSpec::make(QStringLiteral("driver"), FieldSpec::Type::Select, tr("Hypervisor"),
                        tr("Automatic picks QEMU on Linux, vfkit on macOS and Hyper-V on Windows."),
                        QStringLiteral("auto"))
            .withOptions({ { QStringLiteral("auto"), tr("Automatic") },
                           { QStringLiteral("qemu"), tr("QEMU") },
                           { QStringLiteral("vfkit"), tr("vfkit") },
                           { QStringLiteral("hyperv"), tr("Hyper-V") } }),
        FieldSpec::make(QStringLiteral("memoryMb"), FieldSpec::Type::Number, tr("Memory (MiB)"), {}, 512)
            .withRange(128, 65536),
        FieldSpec::make(QStringLiteral("cpus"), FieldSpec::Type::Number, tr("Virtual CPUs"), {}, 1).withRange(1, 64),
        FieldSpec::make(QStringLiteral("kernel"), FieldSpec::Type::String, tr("Guest kernel"),
                        tr("Empty: the newest kernel in /boot that has the 9p and virtio modules."), QString()),
        FieldSpec::make(
            QStringLiteral("initramfs"), FieldSpec::Type::String, tr("Guest initramfs"),
            tr("Empty: assembled by the engine from busybox, the kernel's modules and the verified helpers."),
            QString()),
        FieldSpec::make(
            QStringLiteral("helperSource"), FieldSpec::Type::String, tr("Helper download location"),
            tr("Where the guest helpers are fetched from on first use (http, https or file URL). Empty: the "
               "release's own location. Each one is checked against the digest pinned in this release."),
            QString()),
        FieldSpec::make(QStringLiteral("baselineEnabled"), FieldSpec::Type::Boolean, tr("Cache a boot baseline"),
                        tr("Keep a snapshot taken after a trusted guest boot to start workloads faster."), false),
        FieldSpec::make(QStringLiteral("baselineMaxInactiveArtifacts"), FieldSpec::Type::Number,
                        tr("Inactive baselines kept"), {}, 2)
            .withRange(0, 64),
        FieldSpec::make(QStringLiteral("baselineMaxBytes"), FieldSpec::Type::Number,
                        tr("Baseline cache size limit (bytes)"), {}, 4294967296.0)
            .withRange(0)
            .asByteSize(),
    };
    descriptor.enforcement = enforcement();
    descriptor.refusals = tr("Reported as they happen: every system call of sandbox-init's deny list refused in the "
                             "guest, tied to the command (and still written on the command's stderr); every write "
                             "sandbox-init's write gate refuses in the guest, tied to the command; under the allowlist "
                             "network mode every connection the filtering proxy refuses, for this backend (one "
                             "VM's forwarder serves every command in it, so such a refusal is not tied to one "
                             "command); every refusal of a command's SSH agent and every connection to a "
                             "command's agent socket from outside its session, tied to the command; and the engine's "
                             "own refusals. Not observed: what the guest's kernel "
                             "refuses on files (a write to a read-only share; a denied path is simply absent from "
                             "the guest).");
    return descriptor;
}

QMap<QString, QString> VmLauncher::enforcement() const
{
    QMutexLocker lock(&m_mutex);
    QString engine;
    if (!m_prepared) {
        engine = tr("a VM (QEMU on Linux; KVM when a KVM boot works, else TCG software emulation: decided at "
                    "activation)");
    } else if (m_acceleration == VmDriver::Acceleration::Hardware) {
        engine = tr("a VM (QEMU with KVM hardware virtualization)");
    } else {
        engine = tr("a VM (QEMU with TCG software emulation%1)").arg(m_accelerationNote);
    }
    QMap<QString, QString> claims;
    claims.insert(QStringLiteral("filesystem"),
                  tr("%1 with its own kernel; the workspace shared read-write over 9p; readable paths shared "
                     "read-only (read-only in QEMU itself); denied paths never shared: a directory holding a "
                     "denied path is not shared, its other subdirectories are (those present when the VM "
                     "booted; read-only ones whose names hold a tab or line break are left out), its files are "
                     "not; read-only directories inside the workspace shared read-only on top, and read-only "
                     "files, links and paths that do not exist yet kept by the write gate (below); /tmp, /proc, /sys, "
                     "/dev and /run are the guest's own, "
                     "private to the VM; a VM never serves another workspace or a stricter policy. Every command "
                     "runs under sandbox-init's write gate in the guest, as in the auto backend: its "
                     "calls that create, write, truncate, link, rename or remove a file are handed to "
                     "sandbox-init, which judges them by the rules every backend shares and makes them itself. So "
                     "in the writable shares no command creates or changes a file that makes the host's git run "
                     "code, in any repository, existing or new, at any depth: no entry named .git is created, "
                     "moved or removed, no control file of a git directory (config, hooks, info, commondir, "
                     "gitdir, config.worktree, the object alternates, in a .git, a bare repository or the git "
                     "directories under its modules and worktrees) is created or changed, no HEAD is made outside "
                     "a git directory, nothing is moved into or out of a git directory, no read-only path is "
                     "changed and no file with other hard links is written, while git add, commit, branch and "
                     "stash work. Each such write fails with \"permission denied\" when it is made and is "
                     "reported; a chmod that sets an execute bit on those files is refused too. Not judged: a unix "
                     "socket bound to such a name (bind). The gate is bound read-only in the guest and run from a "
                     "descriptor opened at boot, so no command changes what the next one runs under")
                      .arg(engine));
    if (m_settings.baselineEnabled && !(m_prepared && m_acceleration == VmDriver::Acceleration::Hardware)) {
        // Under TCG a baseline's VM carries its share slots (KVM's microvm has none).
        claims[QStringLiteral("filesystem")]
            += tr("; with baselines (QEMU under TCG) the VM a baseline is saved from and the VMs restored from it "
                  "carry %1 share devices from boot, each one no share of the VM fills backed by an empty "
                  "directory of the engine's, read-only in QEMU itself")
                   .arg(kBaselineShareSlots);
    }
    claims.insert(QStringLiteral("confinement"),
                  tr("host processes invisible and unreachable (a separate kernel); commands of one VM share it; "
                     "each command runs as the guest's root under sandbox-init, with only the capabilities file "
                     "work as root needs (owners, modes, any file's permissions, low ports): none that reaches "
                     "another process, the kernel, devices or the network's configuration, so no command can "
                     "trace, read, rewrite, signal or stop sandbox-init or the guest's agent, and the writes "
                     "sandbox-init makes for it carry no more authority; nothing on the guest's /sys is written; "
                     "and under sandbox-init's seccomp deny list (ptrace, process_vm_readv, mount, namespaces, bpf, "
                     "io_uring, keyrings, modules, kexec, reboot, perf, the clock and syslog refused with EPERM, "
                     "each reported and written on the command's stderr; foreign architectures killed); QEMU "
                     "itself runs under its seccomp sandbox (no spawning, no privilege changes)"));
    const Availability full = m_driver ? m_driver->userNetworkSupport() : Availability{ true, QString() };
    const QString fullNetwork = !full.available
        ? tr("Full is unavailable here (%1): a command under it is refused and nothing is run").arg(full.reason)
        : tr("Full (QEMU on Linux with slirp4netns and user namespaces; elsewhere a command under it is refused "
             "and nothing is run): the VM's one NIC is on QEMU's user-mode network (IPv4 only, nothing forwarded "
             "into the guest); QEMU runs in a user and network namespace of its own whose only way out is "
             "slirp4netns, its mapping to the host's loopback disabled; that namespace's routing table, set "
             "before QEMU starts (QEMU holds no capability there, so it cannot change it), prohibits every loopback, "
             "private, carrier-grade NAT, link-local, multicast, "
             "reserved and unspecified IPv4 range and the host's own IPv4 addresses (those it had when the VM "
             "booted), so the host and internal networks are unreachable and public addresses are reachable; "
             "the guest's gateway %1 is that namespace's own loopback, where nothing listens. An internal IPv4 "
             "address or one of the host's, listed without a port in the policy's allowed domains, is "
             "reachable on every port; an IPv4 address in its denied domains is not (deny wins); names in "
             "either list change nothing. A policy naming a loopback address, an internal address with a port "
             "or one in the VM's own networks (%2/%3, %4/%5) is refused and nothing is run. Name lookups go to "
             "slirp4netns's DNS forwarder %6, which asks the host's resolver: besides a host address the policy "
             "names, the one service of the host the guest reaches")
              .arg(QHostAddress(usernet::kGuestGateway).toString(), QHostAddress(usernet::kGuestNetwork).toString())
              .arg(usernet::kGuestPrefix)
              .arg(QHostAddress(usernet::kOuterNetwork).toString())
              .arg(usernet::kOuterPrefix)
              .arg(QHostAddress(usernet::kOuterDns).toString());
    claims.insert(QStringLiteral("network"),
                  tr("none: the VM has no network device. Allowlist: no network device either; the guest's only "
                     "way out is its network forwarder (sandbox-vm-gvforwarder, a verified helper) on the guest's "
                     "127.0.0.1:3128, whose connections travel over a virtio-serial port of their own to the "
                     "engine, which connects each one to its filtering proxy and to nothing else (QEMU only). %1")
                      .arg(fullNetwork));
    claims.insert(QStringLiteral("allowedDomains"),
                  tr("under network allowlist the engine's filtering proxy is the VM's only way out: commands get "
                     "HTTP_PROXY, HTTPS_PROXY and ALL_PROXY (and their lower-case forms) pointing at the "
                     "forwarder (HTTP, HTTPS through CONNECT, SOCKS5), set after the request's own environment; "
                     "the proxy connects only to the policy's allowed domains and addresses, a denied entry "
                     "winning. Nothing else leaves the VM, name lookups included (the proxy resolves names). Each "
                     "set of domain rules gets a VM of its own. Under network full only IPv4 addresses in the "
                     "lists count (see network), and each set of lists gets a VM of its own too"));
    claims.insert(
        QStringLiteral("sshAgent"),
        tr("Each command gets a filtering agent of the engine's own (the user's agent socket never enters the "
           "guest): it lists and signs with the policy's keys only, asks the user before a signature as the policy's "
           "confirm says, passes no extension but session-bind@openssh.com, refuses adding, removing, locking and "
           "unlocking keys, and reports every refusal. Inside the guest SSH_AUTH_SOCK, set after the request's own "
           "environment, names a unix socket that the guest's exec agent opens for that command before it runs, in "
           "a folder of the command's own under /run/sandbox-studio, and removes when the command ends; the exec "
           "agent relays its connections over its own channel, in bounded buffers, to the command's filter on the "
           "host. It serves a connection only when the connecting process (SO_PEERCRED) is in the command's session; "
           "a process of another command of the VM is turned away and reported, and a process of the command that "
           "starts a session of its own loses the agent. Limits: the check trusts the pid the kernel gives for the "
           "connecting process, read at once on each connection; the commands of one VM all run as root on one "
           "kernel, so another command can remove or replace the socket file (it still cannot use the agent through "
           "it) and can reach into the command's own processes (through /proc/PID/mem, say) and act as that "
           "command: the agent is as separate from another command of the same VM as the two commands are from each "
           "other. A VM serves later commands of the same workspace and policy, so a process an earlier command "
           "left behind counts as another command; each agent policy (keys, hosts, confirmation) gets a VM of its "
           "own. SSH connections (the policy's hosts, port 22 unless one is given; they need the network mode "
           "allowlist) go only through the filtering proxy, which allows those hosts beside the allowed domains; "
           "each set of hosts gets a VM of its own. git uses an SSH configuration of the engine's, written into the "
           "command's agent folder (GIT_SSH_COMMAND; others: ssh -F \"$SANDBOX_SSH_CONFIG\"), whose ProxyCommand is "
           "the guest agent's tunnel (sandbox-vm-agent --ssh-proxy) through the guest's network forwarder, whose "
           "host keys are the user's known-hosts entries for those hosts, copied there and checked strictly, and "
           "which reads none of the user's SSH options; an ssh that ignores that configuration reaches nothing, as "
           "the guest has no other way out. The SSH client is the host's, from the files the policy shares."));
    claims.insert(QStringLiteral("hostExecution"),
                  tr("nothing of the host is reachable from the guest whatever the policy says (deny, ask and "
                     "allow alike): host sockets are not reachable through 9p; the only channels are the exec "
                     "agent's (which, with an SSH agent in the policy, carries a command's agent connections to "
                     "that command's filtering agent and nowhere else) and, under network allowlist, the "
                     "forwarder's, which the engine connects only to its filtering proxy; under network full the NIC "
                     "reaches neither the host's loopback nor its own "
                     "addresses, except its name resolver and an address of the host the policy names"));
    claims.insert(
        QStringLiteral("credentials"),
        tr("Needs allowed domains. Commands see a placeholder (in the credential's variable, set after the "
           "request's own), never the value. The engine's filtering proxy, the VM's only way out, "
           "terminates TLS only toward a credential's hosts (a certificate of the engine's own authority "
           "per host; the real host verified against the system's authorities and the policy's extra "
           "ones), replaces the placeholder with the value only in the allowed headers (inside "
           "\"Authorization: Basic\" too) of requests whose Host header and TLS server name are the "
           "tunnel's host (anything else is refused as domain fronting), refuses TRACE and protocol "
           "upgrades, withholds an answer that carries a value back (an echo) and ends the connection, and "
           "reports every placeholder it sees going elsewhere, for this backend. The engine's certificate "
           "bundle (the system's authorities, the engine's, the policy's extra ones) is in the VM's "
           "initramfs at %1, which the guest's init binds read-only over itself and over %2 (commands, root "
           "in the guest, cannot mount or unmount), and named by SSL_CERT_FILE, "
           "NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT and "
           "AWS_CA_BUNDLE. The authority's private "
           "key never enters the VM. Each set of credentials gets a VM of its own.")
            .arg(QString::fromLatin1(GuestLayout::kCaBundle), QString::fromLatin1(GuestLayout::kSystemCaBundle)));
    claims.insert(QStringLiteral("upstreamProxy"),
                  tr("Needs allowed domains. The VM's only way out is its forwarder to the engine's filtering proxy, "
                     "which checks every target against the allowed and denied domains first, then reaches it only "
                     "through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, "
                     "verified against the system's authorities and the policy's extra ones; plain HTTP requests "
                     "too), never directly; the engine, not the VM, connects to the upstream proxy, and the upstream "
                     "proxy resolves the names. Its credential is read from the secret storage when a connection "
                     "needs it and sent to the upstream proxy alone (Proxy-Authorization: Basic), never into the VM. "
                     "Its refusals (407, 403) are reported as network refusals for this backend; its other failures, "
                     "and an unreachable proxy, answer the command's connection with the reason. Each upstream proxy "
                     "(its URL and credential name) gets a VM of its own."));
    return claims;
}

} // namespace sandbox
