#include "AutoLauncher.h"

#include "core/EngineFiles.h"
#include "core/backends/LauncherBounds.h"
#include "core/launcher/RefusalRoute.h"
#include "core/launcher/SandboxInitLocation.h"
#include "linux/KernelProbe.h"
#include "linux/LinuxSandboxProcess.h"
#include "linux/SandboxPlan.h"
#include "linux/SandboxPlanCache.h"
#include "linux/handoff/InitConfigFormat.h"
#include "linux/handoff/PlanRecorder.h"
#include "net/CredentialInjector.h"
#include "net/DomainRules.h"
#include "net/FilteringProxy.h"
#include "net/SshAgentService.h"
#include "net/SshClientSetup.h"
#include "net/UpstreamProxy.h"
#include "protocol/RuntimeDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutexLocker>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <cerrno>
#include <ctime>
#include <sys/stat.h>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::AutoLauncher", text);
}

const QString kTierField = QStringLiteral("tier");
const QString kTierStrongest = QStringLiteral("strongest");
const QString kTierLandlockSeccomp = QStringLiteral("landlock-seccomp");

template <typename T> QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

} // namespace

QString AutoLauncher::writeGateClaim()
{
    return tr("the repository files that make git run code are protected at the moment of the write, under every "
              "writable path but /tmp and /dev/shm: every open for writing, truncate, mkdir, mknod, symlink, link, "
              "rename, unlink and rmdir is made by sandbox-init on the command's behalf (seccomp user "
              "notification; the paths read from the command once and resolved as the kernel would) and refused "
              "when it would create, write, move or remove an entry named .git (no new repository, no .git file or "
              "link pointing elsewhere, in existing and new folders at any depth), change anything in a git "
              "directory (a .git, a bare repository, modules/*, worktrees/*) but what git writes during ordinary "
              "work (objects, refs, logs, index, HEAD, packed-refs, *.lock, the command's own rebase state), make "
              "a HEAD outside one, move anything into or out of one, change a read-only path of the policy or "
              "move a folder holding one, or change a file that has other hard links (they may lie outside the "
              "writable paths); so git add, commit, branch, stash, rebase and fetch work, git init and git clone "
              "inside the workspace do not; rebase and sequencer state the command leaves behind is removed when "
              "it ends; each refusal is reported; openat2 is refused (programs fall back to openat); a chmod that "
              "sets an execute bit is made by sandbox-init too and refused on those files, so a hook left "
              "non-executable stays so; not judged: a unix socket bound to such a name (bind), which holds no code "
              "but, taking a hook's name, makes the host's git fail to run that hook");
}

AutoLauncher::AutoLauncher(std::shared_ptr<PlanRecording> planRecording)
    : m_plans(std::make_unique<SandboxPlanCache>())
    , m_planRecording(std::move(planRecording))
{ }

AutoLauncher::~AutoLauncher() = default;

QString AutoLauncher::locateInit()
{
    return locateSandboxInit();
}

BackendDescriptor AutoLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = tr("Automatic (OS sandbox)");
    descriptor.description = tr("Confines each command with the strongest lightweight sandbox this system offers: "
                                "namespaces, Landlock and seccomp on Linux.");
    descriptor.fields = {
        FieldSpec::make(kTierField, FieldSpec::Type::Select, tr("Sandbox tier"),
                        tr("Strongest picks namespaces + Landlock + seccomp when the kernel allows user "
                           "namespaces. Landlock + seccomp skips namespaces (for hosts where they misbehave) "
                           "and is weaker: host processes stay visible and /tmp is shared."),
                        kTierStrongest)
            .withOptions({ { kTierStrongest, tr("Strongest available") },
                           { kTierLandlockSeccomp, tr("Landlock + seccomp only") } }),
    };
    descriptor.platforms = { QStringLiteral("linux") };
    QMutexLocker lock(&m_mutex);
    if (m_prepared) {
        descriptor.enforcement = enforcementFor(m_tier, m_landlockAbi, m_unavailableReason);
        descriptor.refusals = refusalsFor(m_tier);
        return descriptor;
    }
    // Not prepared yet: say what preparing would choose, so a backend list is truthful
    // before activation.
    lock.unlock();
    const Choice choice = preview();
    descriptor.enforcement = enforcementFor(choice.tier, choice.landlockAbi, choice.reason);
    descriptor.refusals = refusalsFor(choice.tier);
    return descriptor;
}

AutoLauncher::Choice AutoLauncher::preview() const
{
    QMutexLocker lock(&m_mutex);
    if (!m_preview || m_preview->forced != m_forceLandlockSeccomp) {
        const bool force = m_forceLandlockSeccomp;
        lock.unlock();
        Choice choice = choose(force, probeCacheFile());
        choice.forced = force;
        lock.relock();
        m_preview = choice;
    }
    return *m_preview;
}

QString AutoLauncher::refusalsFor(Tier tier)
{
    switch (tier) {
    case Tier::None:
        return tr("The engine's own refusals (a command refused before it runs).");
    case Tier::Namespaces:
        return tr("Reported as they happen: every connection the filtering proxy refuses (allowed domains), tied to "
                  "the command, and the engine's own refusals. Not observed: what Landlock, seccomp and the "
                  "namespaces refuse inside the sandbox (the kernel answers with an error code and, without "
                  "audit, reports nothing), so denied paths and system calls do not appear.");
    case Tier::LandlockSeccomp:
        return tr("Reported as they happen, tied to the command: every connection the filtering proxy refuses "
                  "(allowed domains); under the allowlist network mode every unix socket connection sandbox-init's "
                  "connect supervisor refuses; where the kernel offers seccomp user notification, every change of a "
                  "file's mode or times outside the writable paths that its metadata supervisor refuses (at most 64 "
                  "supervisor refusals a command). Also the engine's own refusals. Not observed: what Landlock and "
                  "seccomp themselves refuse (the kernel answers with an error code and, without audit, reports "
                  "nothing), so other denied paths and system calls do not appear.");
    }
    return {};
}

QMap<QString, QString> AutoLauncher::enforcementFor(Tier tier, int abi, const QString &unavailableReason)
{
    QMap<QString, QString> claims;
    const QString landlock = abi > 0 ? tr("Landlock ABI %1").arg(abi) : tr("no Landlock (kernel lacks it)");
    switch (tier) {
    case Tier::None:
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            claims.insert(dimension,
                          tr("not enforced: no sandbox tier is available (%1), nothing is run").arg(unavailableReason));
        return claims;
    case Tier::Namespaces:
        claims.insert(QStringLiteral("filesystem"),
                      tr("mount namespace with a root built from the policy (read-only binds, denied paths masked "
                         "wherever they appear, read-only paths inside writable ones, private /tmp, minimal /dev) "
                         "+ %1 as a second wall granting nothing that contains a denied path, so a credential "
                         "store created while the command runs is unreadable too; %2")
                          .arg(landlock, writeGateClaim()));
        claims.insert(QStringLiteral("confinement"),
                      tr("user, pid, ipc, uts and cgroup namespaces (host processes invisible and unreachable); "
                         "seccomp-bpf deny list (ptrace, mount, namespaces, bpf, io_uring, keyrings, modules, "
                         "foreign architectures killed; int arguments compared on their low 32 bits); resource "
                         "limits, scheduling and I/O priority only on the calling process or its process group "
                         "(seccomp); no_new_privs; every capability dropped; %1 signal and abstract-socket "
                         "scoping; a pid-1 reaper; ends with its parent")
                          .arg(abi >= 6 ? landlock : tr("(no Landlock scoping on this kernel)")));
        claims.insert(QStringLiteral("network"),
                      tr("none: empty network namespace%1; allowlist: only the filtering proxy, bridged on "
                         "127.0.0.1:%2; full: the host's network")
                          .arg(abi >= 4 ? tr(" + Landlock TCP rules") : QString())
                          .arg(SandboxPlan::kProxyPort));
        claims.insert(QStringLiteral("allowedDomains"),
                      tr("filtering proxy (HTTP CONNECT, HTTP, SOCKS5) resolving names itself, refusing private "
                         "and loopback targets unless named exactly; proxy variables set; no other route out of "
                         "the network namespace"));
        claims.insert(QStringLiteral("hostExecution"),
                      tr("deny: the command cannot create unix sockets at all (seccomp; stream socket pairs "
                         "still work, datagram ones are refused too), so no host socket is connectable whatever its "
                         "path, abstract ones included (with "
                         "an SSH agent in the policy: stream unix sockets only, every connect() answered by "
                         "sandbox-init, which reaches the agent's socket and nothing else); besides, the session and "
                         "system bus, $XDG_RUNTIME_DIR, every unix socket under /run and "
                         "agent sockets are masked; vsock refused (seccomp)%1; ask: asked before each spawn, no "
                         "answer means deny; allow: exposed; in every mode the engine refuses protocol "
                         "connections from processes it sandboxed (they descend from sandbox-init) and logs them")
                          .arg(abi >= 6 ? tr("; abstract sockets also scoped by Landlock") : QString()));
        claims.insert(QStringLiteral("credentials"),
                      credentialsClaim() + QLatin1Char(' ')
                          + tr("The bundle is also bound over the system's bundle file, so clients that read only "
                               "that trust the engine's authority too."));
        claims.insert(QStringLiteral("sshAgent"), sshAgentClaim());
        claims.insert(QStringLiteral("upstreamProxy"), upstreamProxyClaim());
        return claims;
    case Tier::LandlockSeccomp:
        claims.insert(
            QStringLiteral("filesystem"),
            tr("%1 only: readable and writable paths granted whole, so files are created, renamed and "
               "removed anywhere in a writable path, the root of a repository included; denied paths "
               "unreadable (their names stay listable) even when they are created while the command "
               "runs, and a writable directory that contains a denied path gets no new entries directly; "
               "$XDG_RUNTIME_DIR and /run/user unreadable (unless inside a writable path); %3; %2; /tmp "
               "and /dev/shm are the host's shared ones, not private as in tier 1: what the command writes there "
               "is the host's, and what the host or other commands keep there (a script in /tmp a host program "
               "later runs, say) the command can read, rewrite, rename or remove; a command whose writable paths "
               "reach the engine's configuration, state or runtime directory (run from the home directory that "
               "holds them, say) is refused before it runs, since Landlock cannot keep them read-only inside a "
               "writable path; the engine's default socket and its filtering proxy's channel sockets are in its "
               "owner-only runtime directory ($XDG_RUNTIME_DIR/sandbox-studio, else run/ in its state "
               "directory), never in the shared /tmp; only null, zero, full, random, urandom and tty devices")
                .arg(landlock, writeGateClaim(),
                     (abi >= 3 ? tr("truncating needs write access (Landlock); changing extended attributes is "
                                    "refused everywhere (seccomp), the workspace included; ")
                               : tr("changing extended attributes is refused everywhere (seccomp); "
                                    "truncate() is made by sandbox-init, only under a writable path (this "
                                    "Landlock ABI has no truncate right of its own); "))
                         + tr("chmod and utimes (every call that changes a file's mode or times) are made by "
                              "sandbox-init on the command's behalf (seccomp user notification, the path and times "
                              "read from the command once) only when the file, resolved as the command asked "
                              "(symbolic links followed unless it asked otherwise), lies under a writable path and "
                              "belongs to the command's user; they are refused elsewhere, read-only and denied paths "
                              "included; a symbolic link's own times are set on the link sandbox-init holds; on a "
                              "kernel without seccomp "
                              "user notification (before Linux 5.0) chmod and utimes are refused everywhere; ownership "
                              "never changes: "
                              "chown and its kin succeed, changing nothing, only when they ask for the owner and "
                              "group a file under a writable path already has (as tar and cp -a do as root), and are "
                              "refused otherwise")));
        claims.insert(QStringLiteral("confinement"),
                      tr("weaker, no namespaces: host processes are visible in /proc; seccomp-bpf deny list "
                         "(int arguments compared on their low 32 bits), no_new_privs, capabilities dropped; "
                         "resource limits, scheduling and I/O priority only on the calling process or its process "
                         "group, never on host processes or sandbox-init (seccomp); the host's SysV IPC and POSIX "
                         "message queues refused (seccomp); %1; the command and everything it starts are killed "
                         "when it ends (child subreaper)")
                          .arg(abi >= 6 ? tr("signals to processes outside the sandbox blocked by Landlock scope")
                                        : tr("not enforced: signals to the user's other processes are possible "
                                             "(Landlock ABI < 6)")));
        // Why tier 2 was chosen where tier 1 was wanted (AppArmor), and how to get tier 1.
        if (!unavailableReason.isEmpty())
            claims[QStringLiteral("confinement")].prepend(unavailableReason);
        claims.insert(QStringLiteral("network"),
                      tr("none: seccomp refuses every socket family but unix and netlink%1; allowlist: the same, "
                         "the proxy is reached over its unix socket, the only address sandbox-init connects to; "
                         "full: the host's network")
                          .arg(abi >= 4 ? tr(", plus Landlock TCP rules") : QString()));
        claims.insert(QStringLiteral("allowedDomains"),
                      tr("filtering proxy on a unix socket only (ALL_PROXY=socks5h://localhost/ followed by the socket "
                         "path, understood by curl); tools that need a TCP proxy cannot reach the network"));
        claims.insert(
            QStringLiteral("hostExecution"),
            tr("deny: with network none or full and no SSH agent the command cannot create unix "
               "sockets at all (seccomp; stream socket pairs still work, datagram ones are refused too); with "
               "allowed domains or an SSH agent only stream unix sockets and stream socket pairs, and sandbox-init "
               "answers every connect() (seccomp user notification, "
               "Linux >= 5.14): it connects to the filtering proxy or the agent itself and refuses any other "
               "address, so no host socket "
               "is connectable whatever its path, abstract ones included%1; vsock refused (seccomp); "
               "$XDG_RUNTIME_DIR unreadable; ask: asked before each spawn; allow: exposed; in every mode "
               "the engine refuses protocol connections from processes it sandboxed (they descend from "
               "sandbox-init) and logs them")
                .arg(abi >= 6 ? tr("; abstract sockets also scoped by Landlock") : QString()));
        claims.insert(
            QStringLiteral("credentials"),
            credentialsClaim() + QLatin1Char(' ')
                + tr("Without a mount namespace the system's bundle file stays the host's: only clients "
                     "that read the variables trust the engine's authority, and only clients that speak "
                     "SOCKS5 over the proxy's unix socket (curl; git from 2.46 on) reach the network at all."));
        claims.insert(QStringLiteral("sshAgent"), sshAgentClaim());
        claims.insert(QStringLiteral("upstreamProxy"), upstreamProxyClaim());
        return claims;
    }
    return claims;
}

QString AutoLauncher::sshAgentClaim()
{
    return tr("Each command gets a filtering agent of the engine's own, named by SSH_AUTH_SOCK (the user's agent "
              "socket stays hidden): it lists and signs with the policy's keys only, asks the user before a "
              "signature as the policy's confirm says, passes no extension but session-bind@openssh.com, refuses "
              "adding, removing, locking and unlocking keys, and reports every refusal. That socket is the one unix "
              "socket the command may connect to besides the proxy's: seccomp hands every connect() to sandbox-init, "
              "which makes that connection itself, through a descriptor opened before the command ran, and refuses "
              "every other address; datagram unix sockets are refused. The agent ends with the command. SSH "
              "connections (the policy's hosts, port 22 unless one is given; they need the network mode allowlist) "
              "go only through the filtering proxy, which allows those hosts beside the allowed domains: git uses "
              "an SSH configuration of the engine's (GIT_SSH_COMMAND; others: ssh -F \"$SANDBOX_SSH_CONFIG\") whose "
              "ProxyCommand is sandbox-init's tunnel through the proxy, whose host keys are the user's known-hosts "
              "entries for those hosts, copied read-only and checked strictly, and which reads none of the user's "
              "SSH options. Under the allowlist and none modes an ssh that ignores that configuration reaches "
              "nothing, as the sandbox has no other way out; under full the host's network is open, and SSH goes "
              "wherever it is pointed.");
}

QString AutoLauncher::upstreamProxyClaim()
{
    return tr("Needs allowed domains. The filtering proxy checks every target against the allowed and denied domains "
              "first, then reaches it only through the upstream proxy (CONNECT host:port, over TLS to the proxy when "
              "its URL is https, verified against the system's authorities and the policy's extra ones; plain HTTP "
              "requests too), never directly; the upstream proxy resolves the names (IP literals are still checked "
              "against internal addresses here). Its credential is read from the secret storage when a connection "
              "needs it and sent to the upstream proxy alone (Proxy-Authorization: Basic), never into the sandbox. "
              "Its refusals (407, 403) are reported as network refusals; its other failures, and an unreachable "
              "proxy, answer the command's connection with the reason. Toward a credential's hosts the real host's "
              "certificate is still verified through the tunnel.");
}

QString AutoLauncher::credentialsClaim()
{
    return tr("Needs allowed domains. A credential host without a port means its port 443. The command sees a "
              "placeholder (in the credential's variable), never the "
              "value. The filtering proxy terminates TLS only toward a credential's hosts (a certificate of the "
              "engine's own authority per host, made in memory; the real host verified against the system's "
              "authorities and the policy's extra ones), replaces the placeholder with the value, read from the "
              "secret storage when a request needs it, only in the allowed headers (inside \"Authorization: Basic\" "
              "too) of requests whose Host header and TLS server name are the host the tunnel was opened for "
              "(compared byte for byte; anything else is refused as domain fronting), refuses TRACE and protocol "
              "upgrades, withholds an answer that carries a value back (as sent: an echo of the request) and ends "
              "the connection, and reports as a refusal every placeholder it sees "
              "going elsewhere (another host, a request line, a body, a plain tunnel; split across two reads, one in "
              "an encrypted tunnel to another host goes unseen, and is never replaced). Every other connection stays "
              "a plain tunnel. The command trusts the authority through a certificate bundle (the system's "
              "authorities, the engine's, the policy's extra ones) named by SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, "
              "REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT and AWS_CA_BUNDLE; the authority's "
              "private key is a denied path; the engine's process is not dumpable once it holds a value (no core "
              "dump, no /proc access to its memory).");
}

QFuture<Status> AutoLauncher::configure(const ResolvedSettings &settings)
{
    const QJsonValue value = settings.values.values.value(kTierField, kTierStrongest);
    const QString tierName = value.toString(kTierStrongest);
    if (tierName != kTierStrongest && tierName != kTierLandlockSeccomp) {
        return ready(Status(
            Error{ QStringLiteral("builtin:auto.tier"),
                   tr("unknown tier '%1' (expected %2 or %3)").arg(tierName, kTierStrongest, kTierLandlockSeccomp),
                   {} }));
    }
    QMutexLocker lock(&m_mutex);
    const bool force = tierName == kTierLandlockSeccomp;
    if (force != m_forceLandlockSeccomp)
        m_prepared = false; // the tier must be chosen again
    m_forceLandlockSeccomp = force;
    return ready(Status::success());
}

QFuture<Status> AutoLauncher::prepare()
{
    // Answered from the probe's cache (every start but the first after a change), preparing
    // is a few small reads: done at once, without a thread. Only a real probe runs in the
    // background, within the engine's bound.
    bool force = false;
    {
        QMutexLocker lock(&m_mutex);
        force = m_forceLandlockSeccomp;
    }
    if (const QString initPath = locateInit(); !initPath.isEmpty()) {
        if (const std::optional<KernelProbe> probe = KernelProbe::cached(initPath, probeCacheFile()))
            return ready(adopt(choose(force, initPath, *probe)));
    }
    return QtConcurrent::run([this] { return prepareNow(); });
}

QString AutoLauncher::probeCacheFile() const
{
    return host() ? host()->stateDirectory() + QStringLiteral("/kernel-probe") : QString();
}

AutoLauncher::Choice AutoLauncher::choose(bool forceLandlockSeccomp, const QString &probeCacheFile)
{
    Choice choice;
    choice.initPath = locateInit();
    if (choice.initPath.isEmpty()) {
        choice.reason = tr("the helper sandbox-init was not found next to %1 nor in ../libexec/sandbox-studio "
                           "(set SANDBOX_INIT_PATH or reinstall)")
                            .arg(QCoreApplication::applicationDirPath());
        return choice;
    }
    return choose(forceLandlockSeccomp, choice.initPath, KernelProbe::cachedOrRun(choice.initPath, probeCacheFile));
}

AutoLauncher::Choice AutoLauncher::choose(bool forceLandlockSeccomp, const QString &initPath, const KernelProbe &probe)
{
    Choice choice;
    choice.initPath = initPath;
    choice.landlockAbi = probe.landlockAbi;
    if (!probe.ran) {
        choice.reason = probe.failure;
    } else if (!probe.seccomp) {
        choice.reason = tr("seccomp is unavailable: %1").arg(probe.seccompError);
    } else if (!forceLandlockSeccomp && probe.namespaces) {
        choice.tier = Tier::Namespaces;
    } else if (probe.landlockAbi >= 1) {
        choice.tier = Tier::LandlockSeccomp;
        if (!forceLandlockSeccomp && probe.appArmorRestrictsUserns)
            choice.reason = tr("tier 2 because AppArmor restricts unprivileged user namespaces "
                               "(kernel.apparmor_restrict_unprivileged_userns = 1) and no AppArmor profile lets %1 "
                               "create them (%2). For tier 1, install the .deb or .rpm package: its profile "
                               "/etc/apparmor.d/sandbox-studio-init grants user namespaces to the installed helper "
                               "only; if it is not loaded, run sudo apparmor_parser -r "
                               "/etc/apparmor.d/sandbox-studio-init and restart the engine. ")
                                .arg(choice.initPath, probe.namespacesError);
    } else if (forceLandlockSeccomp) {
        choice.reason = tr("the Landlock + seccomp tier was selected but this kernel has no Landlock");
    } else {
        choice.reason
            = tr("user namespaces are refused (%1) and the kernel has no Landlock").arg(probe.namespacesError);
    }
    return choice;
}

Status AutoLauncher::prepareNow()
{
    bool force = false;
    {
        QMutexLocker lock(&m_mutex);
        force = m_forceLandlockSeccomp;
    }
    return adopt(choose(force, probeCacheFile()));
}

Status AutoLauncher::adopt(const Choice &choice)
{
    QMutexLocker lock(&m_mutex);
    m_initPath = choice.initPath;
    m_tier = choice.tier;
    m_landlockAbi = choice.landlockAbi;
    m_unavailableReason = choice.reason;
    m_prepared = true;
    m_preview.reset();
    if (choice.tier == Tier::None)
        return Error{ QStringLiteral("builtin:auto"), tr("No sandbox tier is available: %1").arg(choice.reason), {} };
    return Status::success();
}

QFuture<Availability> AutoLauncher::isAvailable()
{
    QMutexLocker lock(&m_mutex);
    if (!m_prepared) {
        // Probed as preparing would probe (a kernel probe may run: not on the caller's thread).
        lock.unlock();
        return QtConcurrent::run([this] {
            const Choice choice = preview();
            if (choice.tier == Tier::None)
                return Availability{ false, choice.reason };
            if (!QFileInfo(choice.initPath).isExecutable())
                return Availability{ false, tr("the helper %1 is gone").arg(choice.initPath) };
            return Availability{ true, {} };
        });
    }
    if (m_tier == Tier::None)
        return ready(Availability{ false, m_unavailableReason });
    if (!QFileInfo(m_initPath).isExecutable())
        return ready(Availability{ false, tr("the helper %1 is gone").arg(m_initPath) });
    return ready(Availability{ true, {} });
}

AutoLauncher::Tier AutoLauncher::tier() const
{
    QMutexLocker lock(&m_mutex);
    return m_tier;
}

Result<std::shared_ptr<SandboxProcess>> AutoLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    const QString where = QStringLiteral("builtin:auto");
    Tier tier;
    int abi;
    QString initPath;
    {
        QMutexLocker lock(&m_mutex);
        tier = m_tier;
        abi = m_landlockAbi;
        initPath = m_initPath;
    }
    if (tier == Tier::None)
        return Error{ where, tr("The backend is not prepared or has no sandbox tier; nothing was run."), {} };
    if (Status valid = policy.validate(); !valid)
        return valid.error();
    // Landlock grants a writable path whole: in tier 2 the engine's read-only files inside
    // one would be rewritable, and the next command would run under what this one wrote.
    if (tier == Tier::LandlockSeccomp && host()) {
        if (Status reach = EngineFiles::refuseReach(policy, request.cwd, host()->engineDirectories()); !reach)
            return reach.error();
    }

    SandboxPlan::Input input;
    input.policy = policy;
    input.request = request;
    input.tier = tier == Tier::Namespaces ? 1 : 2;
    input.landlockAbi = abi;
    std::function<void()> onEnded;
    // The channel is this command's alone: what it refuses is this command's refusal.
    auto route = std::make_shared<RefusalRoute>();
    // SSH goes only through the proxy, to the agent's hosts: without allowed domains it would
    // go straight anywhere (full) or nowhere (none).
    if (policy.sshAgent && !policy.sshAgent->hosts.isEmpty() && policy.network != Policy::NetworkMode::Allowlist)
        return Error{ QStringLiteral("policy.sshAgent.hosts"),
                      tr("SSH connections to the agent's hosts go through the filtering proxy, which serves the "
                         "network mode \"allowlist\" only; set that mode (with or without allowed domains). Nothing "
                         "was run."),
                      {} };
    if (policy.network == Policy::NetworkMode::Allowlist) {
        Result<DomainRules> rules = DomainRules::parse(
            policy.allowedDomains + (policy.sshAgent ? policy.sshAgent->proxyRules() : QStringList()),
            policy.deniedDomains);
        if (!rules)
            return rules.error();
        std::shared_ptr<FilteringProxy> proxy;
        {
            QMutexLocker lock(&m_mutex);
            if (!m_proxy)
                m_proxy = std::make_shared<FilteringProxy>(host() && !host()->runtimeDirectory().isEmpty()
                                                               ? host()->runtimeDirectory()
                                                               : RuntimeDirectory::defaultDirectory());
            proxy = m_proxy;
        }
        const std::shared_ptr<CredentialInjector> injector = host() ? host()->credentialInjector() : nullptr;
        std::shared_ptr<const ChannelCredentials> credentials;
        if (!policy.credentials.isEmpty()) {
            if (!injector)
                return Error{ QStringLiteral("policy.credentials"),
                              tr("This engine offers no credential injection; nothing was run."),
                              {} };
            Result<std::shared_ptr<const ChannelCredentials>> injected = injector->channelFor(
                policy.credentials, policy.extraCaCertificates,
                [route](const QString &target, const QString &credential, const QString &message) {
                    Refusal refusal;
                    refusal.kind = Refusal::Kind::Credential;
                    refusal.what = credential.isEmpty() ? target : credential + QStringLiteral(" → ") + target;
                    refusal.rule = tr("credential: %1").arg(message);
                    route->deliver(refusal);
                });
            if (!injected)
                return injected.error();
            credentials = injected.value();
            Result<CredentialInjector::SandboxView> view
                = injector->sandboxFor(policy.credentials, policy.extraCaCertificates);
            if (!view)
                return view.error();
            input.credentialEnvironment = view.value().environment;
            input.certificateBundle = view.value().bundlePath;
            input.systemBundle = CredentialInjector::systemBundlePath();
        }
        Result<std::shared_ptr<const UpstreamProxy>> upstream
            = UpstreamProxy::forPolicy(policy.upstreamProxy, policy.extraCaCertificates, injector.get());
        if (!upstream)
            return upstream.error();
        Result<QString> channel = proxy->openChannel(
            rules.value(),
            [route](const QString &target, const QString &reason) {
                Refusal refusal;
                refusal.kind = Refusal::Kind::Network;
                refusal.what = target;
                refusal.rule = tr("network: %1").arg(reason);
                route->deliver(refusal);
            },
            credentials, upstream.value());
        if (!channel)
            return channel.error();
        input.proxySocket = channel.value();
        const QString socketPath = channel.value();
        onEnded = [proxy, socketPath] { proxy->closeChannel(socketPath); };
    }
    if (policy.sshAgent) {
        Result<QString> agent = openSshAgent(*policy.sshAgent, request, route);
        if (!agent) {
            if (onEnded)
                onEnded();
            return agent.error();
        }
        input.agentSocket = agent.value();
        if (!policy.sshAgent->hosts.isEmpty()) {
            Result<SshClientSetup> ssh = SshClientSetup::write(
                host()->stateDirectory() + QStringLiteral("/ssh"), {}, initPath,
                QDir::homePath() + QStringLiteral("/.ssh/known_hosts"), policy.sshAgent->proxyRules());
            if (!ssh) {
                m_agents->close(agent.value());
                if (onEnded)
                    onEnded();
                return ssh.error();
            }
            input.sshEnvironment = ssh.value().environment;
            input.sshFiles = ssh.value().files;
        }
        const std::shared_ptr<SshAgentService> agents = m_agents;
        const QString agentSocket = agent.value();
        onEnded = [agents, agentSocket, previous = std::move(onEnded)] {
            agents->close(agentSocket);
            if (previous)
                previous();
        };
    }
    // The plan is built now, so a bad request or policy fails before any process exists;
    // only an "ask" answer can change it later (host execution channels exposed or not).
    input.exposeHostExecution = policy.hostExecution == Policy::HostExecution::Allow;
    // Where plans are recorded for sandboxctl's run front (PlanRecorder) is denied in every
    // plan, whoever records: no sandbox can write (or read) a record, nor rename a directory
    // on the way to it (Landlock leaves the directories above a denied path listable only;
    // tier 1 also masks it). It exists first, so that tier 1 can mask it.
    const QString recordDirectory = host() ? planRecordDirectory() : QString();
    if (!recordDirectory.isEmpty())
        input.policy.denied.append(recordDirectory);
    const std::shared_ptr<PlanRecorder> recorder
        = recordDirectory.isEmpty() || !m_planRecording ? nullptr : m_planRecording->recorder();
    // A command on a terminal is the full program's (the run front relays no terminal).
    Result<SandboxPlan> plan = recorder && recordable(policy) && !request.terminal
        ? planAndRecord(*recorder, input, policy, initPath, recordDirectory)
        : m_plans->plan(input);
    if (!plan) {
        if (onEnded)
            onEnded();
        return plan.error();
    }
    // The terminal is the spawn's, not the plan's (plans are cached and recorded without it).
    QByteArray terminalRecord;
    if (request.terminal) {
        std::string record;
        init::appendRecord(record, init::key::kTerminal,
                           { std::to_string(request.terminal->rows), std::to_string(request.terminal->columns) });
        terminalRecord = QByteArray::fromStdString(record);
    }
    const QByteArray planned = plan.value().serialize() + terminalRecord;
    auto builder = [input, planned, terminalRecord](bool expose) -> Result<QByteArray> {
        if (expose == input.exposeHostExecution)
            return planned;
        SandboxPlan::Input withAnswer = input;
        withAnswer.exposeHostExecution = expose;
        Result<SandboxPlan> answered = SandboxPlan::build(withAnswer);
        if (!answered)
            return answered.error();
        return QByteArray(answered.value().serialize() + terminalRecord);
    };
    auto process
        = std::make_shared<LinuxSandboxProcess>(initPath, where, builder, onEnded, request.terminal.has_value());
    route->setProcess(process);
    switch (policy.hostExecution) {
    case Policy::HostExecution::Allow:
        process->startWith(true);
        break;
    case Policy::HostExecution::Deny:
        process->startWith(false);
        break;
    case Policy::HostExecution::Ask:
        if (!host()) {
            process->startWith(false);
            break;
        }
        HostInteractionRequest question;
        question.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        question.subject = QStringLiteral("host-execution");
        question.ref = BackendRef::builtin(kind());
        question.hasRef = true;
        question.kind = HostInteractionRequest::Kind::Confirm;
        question.title = tr("Allow host execution?");
        question.message = tr("The command '%1' asks to reach the host's session bus, service manager, container "
                              "engine and agent sockets, which can run programs outside the sandbox. Allow it for "
                              "this command?")
                               .arg(request.argv.join(QLatin1Char(' ')).left(200));
        process->startAfter(host()->ask(question));
        break;
    }
    return std::shared_ptr<SandboxProcess>(process);
}

Result<QString> AutoLauncher::openSshAgent(const PolicySshAgent &policy, const SpawnRequest &request,
                                           const std::shared_ptr<RefusalRoute> &route)
{
    if (!host())
        return Error{ QStringLiteral("policy.sshAgent"), tr("This engine offers no SSH agent; nothing was run."), {} };
    std::shared_ptr<SshAgentService> agents;
    {
        QMutexLocker lock(&m_mutex);
        if (!m_agents)
            m_agents = std::make_shared<SshAgentService>(!host()->runtimeDirectory().isEmpty()
                                                             ? host()->runtimeDirectory()
                                                             : RuntimeDirectory::defaultDirectory());
        agents = m_agents;
    }
    LauncherHost *launcherHost = host();
    return agents->openForCommand(
        policy, request.argv.join(QLatin1Char(' ')), BackendRef::builtin(kind()),
        [launcherHost](const HostInteractionRequest &question) { return launcherHost->ask(question); },
        [route](const Refusal &refusal) { route->deliver(refusal); });
}

QString AutoLauncher::planRecordDirectory() const
{
    const QString directory = host()->stateDirectory() + QStringLiteral("/run-plans");
    const QByteArray path = QFile::encodeName(directory);
    struct stat st = {};
    if (::lstat(path.constData(), &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700)
        return directory; // as it should be: not touched (a change would keep this run from recording)
    if (::mkdir(path.constData(), 0700) != 0 && errno == EEXIST && S_ISDIR(st.st_mode))
        ::chmod(path.constData(), 0700);
    return directory; // denied in the plan all the same; PlanRecorder writes only into a 0700 directory
}

bool AutoLauncher::recordable(const Policy &policy)
{
    // The run front has no filtering proxy to open and asks no question: allowed domains
    // and "ask" stay the full program's. So does host execution allowed: the command could
    // then reach the engine's socket, which the embedding engine serves while it runs (and
    // refuses, saying why) and the run front does not; denied, it cannot create a unix
    // socket at all, so whether anything serves there is beyond its notice.
    // A filtering SSH agent is the full program's too: it serves the agent while the command runs.
    return policy.network != Policy::NetworkMode::Allowlist && policy.hostExecution == Policy::HostExecution::Deny
        && !policy.sshAgent;
}

Result<SandboxPlan> AutoLauncher::planAndRecord(const PlanRecorder &recorder, const SandboxPlan::Input &input,
                                                const Policy &requested, const QString &initPath,
                                                const QString &recordDirectory)
{
    const QString probeCache = probeCacheFile(); // before the clock: this touches the state directory
    PlanRecorder::Evidence evidence;
    ::clock_gettime(CLOCK_REALTIME_COARSE, &evidence.buildStart);
    QFile mounts(QStringLiteral("/proc/self/mountinfo"));
    const QByteArray mountsBefore = mounts.open(QIODevice::ReadOnly) ? mounts.readAll() : QByteArray();
    Result<SandboxPlan> plan = SandboxPlan::build(input, &evidence.reads);
    if (!plan || mountsBefore.isEmpty())
        return plan;
    bool forced = false;
    {
        QMutexLocker lock(&m_mutex);
        forced = m_forceLandlockSeccomp;
    }
    // The tier is what the probe cache gives now: the full program would choose the same.
    const std::optional<KernelProbe> probe = KernelProbe::cached(initPath, probeCache);
    if (!probe)
        return plan;
    const Choice choice = choose(forced, initPath, *probe);
    if ((choice.tier == Tier::Namespaces            ? 1
             : choice.tier == Tier::LandlockSeccomp ? 2
                                                    : 0)
            != input.tier
        || choice.landlockAbi != input.landlockAbi)
        return plan;
    evidence.input = input;
    evidence.requestedPolicy = requested;
    evidence.serialized = plan.value().serialize();
    evidence.mountsBefore = mountsBefore;
    evidence.initPath = initPath;
    evidence.probeCacheFile = probeCache;
    evidence.recordDirectory = recordDirectory;
    evidence.landlockSeccompSelected = forced;
    evidence.spawnBoundMs = LauncherBounds::resolve(descriptor(), {}).spawnMs;
    recorder.record(std::move(evidence));
    return plan;
}

QFuture<Status> AutoLauncher::disposeIdle()
{
    std::shared_ptr<FilteringProxy> proxy;
    {
        QMutexLocker lock(&m_mutex);
        // A proxy still serving a sandbox stays; an idle one is stopped.
        if (m_proxy && m_proxy->channelCount() == 0)
            proxy = std::move(m_proxy);
    }
    proxy.reset();
    return ready(Status::success());
}

} // namespace sandbox
