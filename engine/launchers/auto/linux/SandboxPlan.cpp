#include "SandboxPlan.h"

#include "FilesystemReads.h"
#include "HostFilesystem.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::SandboxPlan", text);
}

int depth(const QString &path)
{
    return path == QLatin1String("/") ? 0 : static_cast<int>(path.count(QLatin1Char('/')));
}

void appendUnique(QStringList &list, const QString &value)
{
    if (!value.isEmpty() && !list.contains(value))
        list.append(value);
}

enum Rights { kRead = 1, kWrite = 2 };

struct Carveout
{
    QString path;
    int cap; // the rights that survive under this path
};

} // namespace

Status SandboxPlan::checkArgv(const Input &input)
{
    if (input.request.argv.isEmpty() || input.request.argv.first().isEmpty())
        return Error{ QStringLiteral("spawn.argv"), tr("no command to run"), {} };
    for (const QString &arg : input.request.argv) {
        if (arg.contains(QChar(0)))
            return Error{ QStringLiteral("spawn.argv"), tr("an argument contains a NUL character"), {} };
    }
    return {};
}

Result<SandboxPlan> SandboxPlan::forCommand(const Input &input) const
{
    if (Status valid = checkArgv(input); !valid)
        return valid.error();
    SandboxPlan plan = *this;
    plan.m_argv = input.request.argv;
    plan.m_environment.clear();
    plan.planEnvironment(input);
    return plan;
}

Result<SandboxPlan> SandboxPlan::build(const Input &input, FilesystemReads *reads)
{
    SandboxPlan plan;
    plan.m_tier = input.tier;
    if (Status valid = checkArgv(input); !valid)
        return valid.error();
    plan.m_argv = input.request.argv;
    if (Status resolved = plan.resolvePaths(input, reads); !resolved)
        return resolved.error();
    switch (input.policy.network) {
    case Policy::NetworkMode::None:
        plan.m_network = QStringLiteral("none");
        break;
    case Policy::NetworkMode::Allowlist:
        plan.m_network = QStringLiteral("allowlist");
        if (input.proxySocket.isEmpty())
            return Error{ QStringLiteral("policy.network"), tr("allowed domains need the filtering proxy"), {} };
        plan.m_proxySocket = input.proxySocket;
        break;
    case Policy::NetworkMode::Full:
        plan.m_network = QStringLiteral("full");
        break;
    }
    // Tier 1 hides every channel (masks); tier 2 refuses unix sockets instead and keeps
    // the user's runtime directories (login files, keyring control, cookies) unreadable.
    if (!input.exposeHostExecution && input.tier == 1)
        plan.m_hostChannels = HostFilesystem::hostExecutionChannels(input.hostEnvironment, !plan.m_privateTmp, reads);
    // A runtime directory inside a writable path (a test's $XDG_RUNTIME_DIR under /tmp)
    // stays writable: carving it out would cost the right to create entries in that whole
    // writable directory, since Landlock grants cannot be narrowed below a directory.
    if (!input.exposeHostExecution && input.tier == 2) {
        for (const QString &directory : HostFilesystem::runtimeDirectories(input.hostEnvironment, reads)) {
            bool insideWritable = false;
            for (const QString &root : plan.m_writable)
                insideWritable = insideWritable || Policy::isInside(directory, root);
            if (!insideWritable)
                plan.m_hostChannels.append(directory);
        }
    }
    // A workspace inside a hidden path would either uncover what is hidden (tier 2 grants
    // are additive) or leave the command in a directory it cannot enter (tier 1 masks).
    for (const QString &hidden : plan.m_denied + plan.m_hostChannels) {
        for (const QString &directory : { plan.m_workspace, plan.m_cwd }) {
            if (Policy::isInside(directory, hidden))
                return Error{ QStringLiteral("spawn.cwd"),
                              plan.m_denied.contains(hidden)
                                  ? tr("the workspace '%1' lies inside the denied path '%2'; the sandbox does not "
                                       "uncover denied paths, so nothing was run")
                                        .arg(directory, hidden)
                                  : tr("the workspace '%1' lies inside '%2', which the sandbox hides because it "
                                       "lets commands run things on the host; nothing was run")
                                        .arg(directory, hidden),
                              {} };
        }
    }
    // A unix socket anywhere (the home, /var, an agent's own directory) may reach
    // something that runs commands on the host, and the masks of tier 1 cover only what a
    // scan finds: without host execution no unix socket is created at all (socketpair
    // still works). Tier 2 with allowed domains needs one to reach the proxy: there
    // sandbox-init supervises every connect() and makes only that one itself.
    // A filtering SSH agent is the one other socket, in either tier: sandbox-init answers
    // every connect() and makes only those.
    plan.m_exposeHostExecution = input.exposeHostExecution;
    plan.m_agentSocket = input.agentSocket;
    plan.m_superviseConnect = !input.exposeHostExecution
        && ((input.tier == 2 && input.policy.network == Policy::NetworkMode::Allowlist)
            || !input.agentSocket.isEmpty());
    plan.m_denyUnixSockets = !input.exposeHostExecution && !plan.m_superviseConnect;
    if (input.tier == 1)
        plan.planMounts(input, reads);
    if (Status landlock = plan.planLandlock(input, reads); !landlock)
        return landlock.error();
    plan.planEnvironment(input);
    plan.planGuard(input, reads);
    return plan;
}

Status SandboxPlan::resolvePaths(const Input &input, FilesystemReads *reads)
{
    const QString home = input.homePath.isEmpty() ? QDir::homePath() : input.homePath;
    noteResolved(reads, input.request.cwd);
    const QFileInfo cwd(input.request.cwd);
    if (!cwd.isAbsolute() || !cwd.isDir())
        return Error{ QStringLiteral("spawn.cwd"),
                      tr("the workspace '%1' is not an existing directory").arg(input.request.cwd),
                      {} };
    m_cwd = cwd.canonicalFilePath();
    m_workspace = m_cwd;
    if (!input.request.workspace.isEmpty()) {
        noteResolved(reads, input.request.workspace);
        const QFileInfo workspace(input.request.workspace);
        if (!workspace.isAbsolute() || !workspace.isDir())
            return Error{ QStringLiteral("spawn.workspace"),
                          tr("the workspace '%1' is not an existing directory").arg(input.request.workspace),
                          {} };
        m_workspace = workspace.canonicalFilePath();
        // Compared resolved: a symbolic link inside the workspace does not carry it elsewhere.
        if (!Policy::isInside(m_cwd, m_workspace))
            return Error{ QStringLiteral("spawn.cwd"),
                          tr("the working directory '%1' is not inside the workspace '%2'")
                              .arg(input.request.cwd, input.request.workspace),
                          {} };
    }

    auto expand = [&](const QString &raw, const QString &where, QString &out) -> Status {
        QString path = raw;
        if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
            path = home + path.mid(1);
        else if (path.startsWith(QLatin1String("${workspace}")))
            path = m_workspace + path.mid(12);
        if (!QDir::isAbsolutePath(path))
            return Error{ where, tr("'%1' is not an absolute path (nor ~/ or ${workspace} relative)").arg(raw), {} };
        out = QDir::cleanPath(path);
        return {};
    };
    auto resolveList = [&](const QStringList &paths, const QString &name, QStringList &out) -> Status {
        for (qsizetype i = 0; i < paths.size(); ++i) {
            QString path;
            if (Status ok = expand(paths[i], QStringLiteral("policy.filesystem.%1[%2]").arg(name).arg(i), path); !ok)
                return ok;
            // Symlinks resolved now: a link can neither widen nor dodge the policy later.
            noteResolved(reads, path);
            appendUnique(out, QFileInfo(path).canonicalFilePath());
        }
        return {};
    };
    if (Status ok = resolveList(input.policy.readable, QStringLiteral("readable"), m_readable); !ok)
        return ok;
    if (Status ok = resolveList(input.policy.writable, QStringLiteral("writable"), m_writable); !ok)
        return ok;
    // A read-only path that does not exist yet is kept (resolved through its deepest existing
    // ancestor): the write gate keeps it from being made (git's user configuration, say).
    for (qsizetype i = 0; i < input.policy.readOnly.size(); ++i) {
        QString path;
        if (Status ok = expand(input.policy.readOnly[i], QStringLiteral("policy.filesystem.readOnly[%1]").arg(i), path);
            !ok)
            return ok;
        const QString resolved = HostFilesystem::resolveEvenIfMissing(path, reads);
        appendUnique(m_readOnly, resolved);
        // Named through a symbolic link (a dotfile linked into a dotfiles folder): the write
        // gate is given the name too, and keeps every link on the way from being replaced.
        if (path != resolved)
            appendUnique(m_readOnlyAsNamed, path);
    }
    // Denied paths: a `*` component matches any one existing name, and a path that does
    // not exist yet is kept (resolved through its deepest existing ancestor), so that a
    // store created while the command runs lies under a carve-out too.
    QStringList denied;
    for (qsizetype i = 0; i < input.policy.denied.size(); ++i) {
        QString path;
        if (Status ok = expand(input.policy.denied[i], QStringLiteral("policy.filesystem.denied[%1]").arg(i), path);
            !ok)
            return ok;
        for (const QString &match : HostFilesystem::expandComponents(path, reads))
            appendUnique(denied, HostFilesystem::resolveEvenIfMissing(match, reads));
    }
    const QList<HostFilesystem::MountInfo> mounts = HostFilesystem::mounts();
    for (const QString &path : denied) {
        for (const QString &alias : HostFilesystem::aliasesOf(path, mounts))
            appendUnique(m_denied, alias);
    }
    // The certificate bundle of a policy with credentials is readable whatever the policy
    // grants (it holds certificates only); so are the SSH configuration's files (host keys,
    // options and the static sandbox-init that is its ProxyCommand).
    for (const QString &file : QStringList{ input.certificateBundle } + input.sshFiles) {
        if (file.isEmpty())
            continue;
        bool covered = false;
        for (const QString &root : m_readable + m_writable)
            covered = covered || Policy::isInside(file, root);
        if (!covered)
            appendUnique(m_readable, file);
    }
    if (input.tier == 1 && m_writable.contains(QStringLiteral("/tmp"))) {
        m_writable.removeAll(QStringLiteral("/tmp"));
        m_privateTmp = true;
    }
    return {};
}

void SandboxPlan::planMounts(const Input &input, FilesystemReads *reads)
{
    struct Planned
    {
        int order;
        Mount mount;
    };
    QList<Planned> binds;
    for (const QString &path : m_readable)
        binds.append({ 0, { QStringLiteral("ro"), path, path } });
    if (m_privateTmp)
        binds.append({ 1, { QStringLiteral("tmpfs"), QString(), QStringLiteral("/tmp") } });
    for (const QString &path : m_writable)
        binds.append({ 2, { QStringLiteral("rw"), path, path } });
    for (const QString &path : m_readOnly) {
        // What does not exist cannot be mounted: the write gate keeps it from being made.
        if (!QFileInfo::exists(path))
            continue;
        binds.append({ 3, { QStringLiteral("ro"), path, path } });
        // Every directory between the writable root and a read-only path becomes a mount
        // point of its own: a mount point cannot be renamed or removed, so the sandbox
        // cannot move .git aside and put a fresh one (with hooks) in its place.
        QString writableRoot;
        for (const QString &root : m_writable) {
            if (Policy::isInside(path, root) && path != root && root.size() > writableRoot.size())
                writableRoot = root;
        }
        if (writableRoot.isEmpty())
            continue;
        for (QString ancestor = QFileInfo(path).path();
             ancestor.size() > writableRoot.size() && Policy::isInside(ancestor, writableRoot);
             ancestor = QFileInfo(ancestor).path()) {
            const Mount pin{ QStringLiteral("rw"), ancestor, ancestor };
            bool known = false;
            for (const Planned &planned : binds)
                known = known || planned.mount == pin;
            if (!known)
                binds.append({ 2, pin });
        }
    }
    // Parents before children; at the same path, later categories win.
    std::stable_sort(binds.begin(), binds.end(), [](const Planned &a, const Planned &b) {
        const int da = depth(a.mount.target);
        const int db = depth(b.mount.target);
        return da != db ? da < db : a.order < b.order;
    });
    for (const Planned &planned : binds)
        m_mounts.append(planned.mount);
    // Clients that read only the system's bundle trust the engine's authority too. The
    // bundle is bound over the file the system's path resolves to (a mount cannot cover a
    // symbolic link), once everything it lies in is in place.
    if (!input.certificateBundle.isEmpty() && !input.systemBundle.isEmpty()) {
        noteResolved(reads, input.systemBundle);
        const QString resolved = QFileInfo(input.systemBundle).canonicalFilePath();
        if (!resolved.isEmpty() && QFileInfo(resolved).isFile())
            m_mounts.append({ QStringLiteral("ro"), input.certificateBundle, resolved });
    }
    // Merged-/usr links (/bin, /lib, /lib64, /sbin ...) whose targets are readable but
    // which no readable root brings along themselves.
    // With "/" readable every link comes along already: no need to list it.
    const bool rootReadable = m_readable.contains(QStringLiteral("/")) || m_writable.contains(QStringLiteral("/"));
    if (!rootReadable)
        noteListed(reads, QStringLiteral("/"));
    const QFileInfoList top = rootReadable
        ? QFileInfoList()
        : QDir(QStringLiteral("/")).entryInfoList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : top) {
        if (!entry.isSymLink())
            continue;
        const QString link = entry.absoluteFilePath();
        noteResolved(reads, link);
        const QString target = entry.canonicalFilePath();
        bool linkCovered = false;
        bool targetReadable = false;
        for (const QString &root : m_readable + m_writable) {
            linkCovered = linkCovered || Policy::isInside(link, root);
            targetReadable = targetReadable || (!target.isEmpty() && Policy::isInside(target, root));
        }
        if (!linkCovered && targetReadable)
            m_symlinks.append({ target, link });
    }
    // Masks last, so no bind can uncover one: denied always wins.
    QStringList masks = m_denied;
    for (const QString &channel : m_hostChannels)
        appendUnique(masks, channel);
    std::stable_sort(masks.begin(), masks.end(),
                     [](const QString &a, const QString &b) { return depth(a) < depth(b); });
    for (const QString &path : masks) {
        if (path.startsWith(QLatin1String("/proc/")) || path == QLatin1String("/proc"))
            continue; // /proc is the sandbox's own
        noteResolved(reads, path);
        struct stat st = {};
        if (lstat(QFile::encodeName(path).constData(), &st) != 0)
            continue; // not there yet: Landlock's carve-out covers it if it appears
        m_mounts.append({ QStringLiteral("mask"), QString(), path });
    }
}

Status SandboxPlan::planLandlock(const Input &input, FilesystemReads *reads)
{
    // Landlock can only grant, never subtract, so grants are split around the denied
    // paths and host channels they contain: the directories on the way down are listable
    // only, everything beside them is granted whole. A denied store that does not exist
    // yet is a carve-out too, so one created while the command runs is not readable.
    // Tier 1 builds the same rules as a second wall behind its mount plan. Read-only paths
    // inside writable ones are not carved out: Landlock would have to take the right to
    // create entries from every directory above them (the root of every repository). The
    // mount plan keeps them read-only in tier 1; in both tiers sandbox-init's write gate
    // refuses changing them while the command runs (planGuard).
    QList<Carveout> carveouts;
    for (const QString &path : m_denied + m_hostChannels)
        carveouts.append({ path, 0 });
    carveouts.append({ QStringLiteral("/dev"), 0 }); // devices are granted one by one below
    if (input.tier == 1)
        carveouts.append({ QStringLiteral("/proc"), 0 }); // the sandbox's own, granted below
    QStringList directoryOnly;
    int rules = 0;
    bool tooMany = false;
    std::function<void(const QString &, int)> grant = [&](const QString &path, int rights) {
        if (++rules > kMaxLandlockRules) {
            tooMany = true;
            return;
        }
        // Tier 1's private /tmp is granted whole below (a fresh tmpfs, with binds and masks
        // on top): rules for the host's entries there would name nothing in the sandbox.
        if (input.tier == 1 && m_privateTmp && path == QLatin1String("/tmp"))
            return;
        int cap = rights;
        bool inside = false;
        for (const Carveout &carveout : carveouts) {
            if ((carveout.cap & rights) == rights)
                continue;
            if (carveout.path == path)
                cap &= carveout.cap;
            else if (Policy::isInside(carveout.path, path))
                inside = true;
        }
        if (cap != rights) {
            if (cap & kWrite)
                appendUnique(m_landlockWritable, path);
            else if (cap & kRead)
                appendUnique(m_landlockReadable, path);
            return;
        }
        struct stat st = {};
        if (inside)
            noteResolved(reads, path);
        if (!inside || lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (rights & kWrite)
                appendUnique(m_landlockWritable, path);
            else
                appendUnique(m_landlockReadable, path);
            return;
        }
        bool deniedInside = false;
        for (const Carveout &carveout : carveouts)
            deniedInside
                = deniedInside || (carveout.cap == 0 && Policy::isInside(carveout.path, path) && carveout.path != path);
        if (deniedInside)
            appendUnique(directoryOnly, path); // listing only: names below stay visible
        else
            appendUnique(m_landlockReadable, path);
        noteListed(reads, path);
        const QStringList children
            = QDir(path).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        for (const QString &child : children) {
            const QString childPath = (path == QLatin1String("/") ? QString() : path) + QLatin1Char('/') + child;
            struct stat childStat = {};
            if (lstat(QFile::encodeName(childPath).constData(), &childStat) != 0 || S_ISLNK(childStat.st_mode))
                continue; // a link is governed by the rules of the path it leads to
            grant(childPath, rights);
        }
    };
    for (const QString &path : m_readable)
        grant(path, kRead);
    for (const QString &path : m_writable)
        grant(path, kRead | kWrite);
    if (tooMany)
        return Error{
            QStringLiteral("policy.filesystem"),
            tr("the policy needs more than %1 Landlock rules in this tier; deny fewer paths inside readable ones")
                .arg(kMaxLandlockRules),
            {}
        };
    if (input.tier == 1) {
        // The assembled root holds only what the plan put there: listing it is harmless.
        appendUnique(directoryOnly, QStringLiteral("/"));
        if (m_privateTmp)
            appendUnique(m_landlockWritable, QStringLiteral("/tmp"));
        m_landlockDevices = { QStringLiteral("/dev"), QStringLiteral("/proc") };
    } else {
        m_landlockDevices
            = { QStringLiteral("/dev/null"),   QStringLiteral("/dev/zero"),    QStringLiteral("/dev/full"),
                QStringLiteral("/dev/random"), QStringLiteral("/dev/urandom"), QStringLiteral("/dev/tty") };
    }
    appendUnique(m_landlockWritable, QStringLiteral("/dev/shm"));
    m_directoryOnly = directoryOnly;
    return {};
}

void SandboxPlan::planGuard(const Input &input, FilesystemReads *reads)
{
    // Every writable directory may hold a repository whose control files must not change
    // (/tmp is private in tier 1, the host's shared scratch space in tier 2: not guarded).
    for (const QString &root : m_writable) {
        if (root == QLatin1String("/tmp") || root == QLatin1String("/dev/shm"))
            continue;
        noteResolved(reads, root);
        if (QFileInfo(root).isDir())
            m_guardRepositories.append(root);
    }
    for (const QString &path : m_readOnly) {
        bool insideWritable = false;
        for (const QString &root : m_writable)
            insideWritable = insideWritable || (Policy::isInside(path, root) && path != root);
        // Tier 1 pins what exists with read-only mounts; what does not exist yet, and
        // everything in tier 2, the write gate keeps from being made or changed.
        if (insideWritable && input.tier == 1)
            noteResolved(reads, path);
        if (insideWritable && (input.tier == 2 || !QFileInfo::exists(path)))
            m_guardReadOnly.append(path);
    }
    for (const QString &path : m_readOnlyAsNamed)
        appendUnique(m_guardReadOnly, path);
}

void SandboxPlan::planEnvironment(const Input &input)
{
    const QProcessEnvironment &host = input.hostEnvironment;
    QMap<QString, QString> env;
    env.insert(QStringLiteral("PATH"),
               host.value(QStringLiteral("PATH"),
                          QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")));
    env.insert(QStringLiteral("HOME"), input.homePath.isEmpty() ? QDir::homePath() : input.homePath);
    env.insert(QStringLiteral("LANG"), host.value(QStringLiteral("LANG"), QStringLiteral("C.UTF-8")));
    env.insert(QStringLiteral("TERM"), host.value(QStringLiteral("TERM"), QStringLiteral("dumb")));
    const QString user = host.value(QStringLiteral("USER"));
    if (!user.isEmpty())
        env.insert(QStringLiteral("USER"), user);
    if (input.exposeHostExecution) {
        for (const char *name : { "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK" }) {
            const QString value = host.value(QString::fromLatin1(name));
            if (!value.isEmpty())
                env.insert(QString::fromLatin1(name), value);
        }
    }
    for (auto it = input.request.env.begin(); it != input.request.env.end(); ++it)
        env.insert(it.key(), it.value());
    for (auto it = input.credentialEnvironment.begin(); it != input.credentialEnvironment.end(); ++it)
        env.insert(it.key(), it.value());
    // The command's own filtering agent, never the user's (nor one the request names).
    if (!m_agentSocket.isEmpty()) {
        env.remove(QStringLiteral("SSH_AGENT_PID"));
        env.insert(QStringLiteral("SSH_AUTH_SOCK"), m_agentSocket);
    }
    for (auto it = input.sshEnvironment.begin(); it != input.sshEnvironment.end(); ++it)
        env.insert(it.key(), it.value());
    if (input.policy.network == Policy::NetworkMode::Allowlist) {
        // The proxy variables come last: the request cannot point tools elsewhere (and
        // there is nowhere else to go).
        QStringList proxyNames;
        if (m_tier == 1) {
            const QString http = QStringLiteral("http://127.0.0.1:%1").arg(kProxyPort);
            const QString socks = QStringLiteral("socks5h://127.0.0.1:%1").arg(kProxyPort);
            for (const char *name : { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "npm_config_proxy",
                                      "npm_config_https_proxy", "PIP_PROXY", "SANDBOX_PROXY" })
                env.insert(QString::fromLatin1(name), http);
            env.insert(QStringLiteral("ALL_PROXY"), socks);
            env.insert(QStringLiteral("all_proxy"), socks);
        } else {
            // No network namespace: the proxy is reachable only as a unix socket, which
            // curl (>= 7.84) accepts as a SOCKS5 proxy.
            const QString socks = QStringLiteral("socks5h://localhost") + m_proxySocket;
            env.insert(QStringLiteral("ALL_PROXY"), socks);
            env.insert(QStringLiteral("all_proxy"), socks);
            for (const char *name : { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY" })
                env.remove(QString::fromLatin1(name));
        }
        if (m_tier == 2)
            env.insert(QStringLiteral("SANDBOX_PROXY_SOCKET"), m_proxySocket);
        env.insert(QStringLiteral("NO_PROXY"), QString());
        env.insert(QStringLiteral("no_proxy"), QString());
    }
    for (auto it = env.begin(); it != env.end(); ++it) {
        if (!it.key().isEmpty() && !it.key().contains(QLatin1Char('=')) && !it.key().contains(QChar(0))
            && !it.value().contains(QChar(0)))
            m_environment.append(it.key() + QLatin1Char('=') + it.value());
    }
}

} // namespace sandbox
