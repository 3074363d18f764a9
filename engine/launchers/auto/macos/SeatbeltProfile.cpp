#include "SeatbeltProfile.h"

#include "core/workspace/RepositoryRules.h"
#include "launchers/auto/PolicyPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>

#include <tuple>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::SeatbeltProfile", text);
}

void appendUnique(QStringList &list, const QString &value)
{
    if (!list.contains(value))
        list.append(value);
}

// `text` as a regex matching it literally, in any letter case: APFS and HFS+ volumes
// are case-insensitive by default, so ~/.SSH opens ~/.ssh and .GIT/config is the
// repository's config.
QString escapeRegexText(const QString &text)
{
    static const QString special = QStringLiteral("\\.^$|?*+()[]{}");
    QString out;
    for (QChar c : text) {
        const QChar lower = c.toLower();
        const QChar upper = c.toUpper();
        if (lower != upper) {
            out += QLatin1Char('[') + lower + upper + QLatin1Char(']');
            continue;
        }
        if (special.contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QString alternation(const std::vector<std::string> &names)
{
    QStringList escaped;
    for (const std::string &name : names)
        escaped.append(escapeRegexText(QString::fromStdString(name)));
    return QLatin1Char('(') + escaped.join(QLatin1Char('|')) + QLatin1Char(')');
}

// One rule: (action operations filter...), a filter per line.
QString rule(const QString &action, const QString &operations, const QStringList &filters)
{
    if (filters.isEmpty())
        return QLatin1Char('(') + action + QLatin1Char(' ') + operations + QStringLiteral(")\n");
    QString out = QLatin1Char('(') + action + QLatin1Char(' ') + operations;
    for (const QString &filter : filters)
        out += QStringLiteral("\n    ") + filter;
    return out + QStringLiteral(")\n");
}

QString filter(const char *kind, const QString &value)
{
    return QLatin1Char('(') + QLatin1String(kind) + QLatin1Char(' ') + SeatbeltProfile::quoted(value)
        + QLatin1Char(')');
}

QStringList subpaths(const QStringList &paths)
{
    QStringList filters;
    for (const QString &path : paths) {
        for (const QString &alias : SeatbeltProfile::aliases(path))
            appendUnique(filters, filter("subpath", alias));
    }
    return filters;
}

// What a carve-out (denied, read-only) covers: each path by subpath and by a regex in any
// letter case; a `*` component (denied paths) stands for any one name, by the regex only.
QStringList carveouts(const QStringList &paths)
{
    QStringList filters;
    for (const QString &path : paths) {
        const bool wildcard = path.split(QLatin1Char('/')).contains(QStringLiteral("*"));
        for (const QString &alias : SeatbeltProfile::aliases(path)) {
            if (!wildcard)
                appendUnique(filters, filter("subpath", alias));
            appendUnique(filters, filter("regex", SeatbeltProfile::pathRegex(alias)));
        }
    }
    return filters;
}

// The directories above each path, for their metadata: resolving a path (getcwd,
// realpath, a shell's cd) stats every directory on the way.
QStringList ancestors(const QStringList &paths)
{
    QStringList out;
    for (const QString &path : paths) {
        for (const QString &alias : SeatbeltProfile::aliases(path)) {
            QString directory = alias;
            while (directory != QLatin1String("/")) {
                directory = directory.left(qMax<qsizetype>(1, directory.lastIndexOf(QLatin1Char('/'))));
                appendUnique(out, directory);
            }
            // A link such as /tmp is read itself on the way to /private/tmp.
            appendUnique(out, alias);
        }
    }
    QStringList filters;
    for (const QString &directory : out)
        filters.append(filter("literal", directory));
    return filters;
}

// The repository protection of RepositoryRules, for every repository below `root`: the
// entry .git itself (replacing, removing or creating one), the control entries of a git
// directory and of the git directories nested in it (submodules, worktrees), the
// in-progress rebase and sequencer state, and a HEAD outside a .git (a new bare repository).
QStringList repositoryDenials(const QString &root)
{
    const QString base = root == QLatin1String("/") ? QString() : escapeRegexText(root);
    const QString below = QLatin1Char('^') + base + QStringLiteral("/(.*/)?");
    const QString git = escapeRegexText(QStringLiteral(".git"));
    const QString gitDirectory = below + git + QStringLiteral("/(")
        + alternation(repository::nestedGitDirectoryFolders()) + QStringLiteral("/.+/)?");
    return { filter("regex", below + git + QLatin1Char('$')),
             filter("regex", gitDirectory + alternation(repository::controlEntries()) + QStringLiteral("(/|$)")),
             filter("regex",
                    gitDirectory + alternation(repository::transientStateEntries()) + QStringLiteral("(/|$)")) };
}

Status expandAll(const PolicyPaths &paths, const QStringList &raw, const QString &name, QStringList &out)
{
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const QString where = QStringLiteral("policy.filesystem.%1[%2]").arg(name).arg(i);
        Result<QString> path = paths.expand(raw[i], where);
        if (!path)
            return path.error();
        appendUnique(out, path.value());
    }
    return {};
}

} // namespace

const QStringList &SeatbeltProfile::baseMachServices()
{
    // Each is needed by ordinary command-line programs and none of them runs anything on
    // the host's behalf:
    // - opendirectoryd.libinfo and .membership: user and group lookups (getpwuid(3), used
    //   by shells, git and ssh to find the home and the user's name);
    // - notification_center: notify(3), which libSystem uses (time zone changes);
    // - system.logger and logd: syslog(3) and os_log, whose calls otherwise stall;
    // - trustd.agent: certificate trust for TLS (git and curl over https via the proxy);
    // - bsd.dirhelper: the per-user temporary directory (confstr(_CS_DARWIN_USER_TEMP_DIR)).
    // Not among them: securityd and SecurityServer (the keychain), cfprefsd.agent (writes
    // other programs' preferences), launchservicesd and the pasteboard (open programs, and
    // the clipboard).
    static const QStringList services = { QStringLiteral("com.apple.system.opendirectoryd.libinfo"),
                                          QStringLiteral("com.apple.system.opendirectoryd.membership"),
                                          QStringLiteral("com.apple.system.notification_center"),
                                          QStringLiteral("com.apple.system.logger"),
                                          QStringLiteral("com.apple.logd"),
                                          QStringLiteral("com.apple.trustd.agent"),
                                          QStringLiteral("com.apple.bsd.dirhelper") };
    return services;
}

const QStringList &SeatbeltProfile::runtimeReadable()
{
    static const QStringList paths = { QStringLiteral("/usr/lib"),
                                       QStringLiteral("/System/Library"),
                                       QStringLiteral("/System/Cryptexes"),
                                       QStringLiteral("/System/Volumes/Preboot/Cryptexes"),
                                       QStringLiteral("/private/var/db/dyld"),
                                       QStringLiteral("/private/var/db/timezone") };
    return paths;
}

QString SeatbeltProfile::quoted(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (QChar c : text) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out + QLatin1Char('"');
}

QString SeatbeltProfile::pathRegex(const QString &path)
{
    QString out = QStringLiteral("^");
    for (const QString &component : path.split(QLatin1Char('/'), Qt::SkipEmptyParts))
        out += QLatin1Char('/')
            + (component == QLatin1String("*") ? QStringLiteral("[^/]+") : escapeRegexText(component));
    return out + QStringLiteral("(/|$)");
}

QStringList SeatbeltProfile::aliases(const QString &path)
{
    for (const char *name : { "/tmp", "/var", "/etc" }) {
        const QString linked = QLatin1String(name);
        const QString target = QStringLiteral("/private") + linked;
        if (Policy::isInside(path, linked))
            return { path, target + path.mid(linked.size()) };
        if (Policy::isInside(path, target))
            return { path, path.mid(8) };
    }
    return { path };
}

Result<QString> SeatbeltProfile::build(const Input &input)
{
    const Policy &policy = input.policy;
    if (Status valid = policy.validate(); !valid)
        return valid.error();
    for (const auto &[name, value] : { std::pair{ "home", input.home }, std::pair{ "workspace", input.workspace } }) {
        if (!value.startsWith(QLatin1Char('/')) || value.contains(QChar(0)))
            return Error{ QStringLiteral("spawn.%1").arg(QLatin1String(name)),
                          tr("'%1' is not an absolute path").arg(value),
                          {} };
    }
    if (policy.network == Policy::NetworkMode::Allowlist && input.proxyPort == 0)
        return Error{ QStringLiteral("policy.network"), tr("allowed domains need the filtering proxy's port"), {} };

    const PolicyPaths paths(input.home, input.workspace);
    QStringList readable;
    QStringList writable;
    QStringList readOnly;
    QStringList denied;
    for (const auto &[list, name, out] :
         { std::tuple{ &policy.readable, "readable", &readable }, std::tuple{ &policy.writable, "writable", &writable },
           std::tuple{ &policy.readOnly, "readOnly", &readOnly }, std::tuple{ &policy.denied, "denied", &denied } }) {
        if (Status ok = expandAll(paths, *list, QLatin1String(name), *out); !ok)
            return ok.error();
    }
    // As on Linux: the sandbox does not uncover a denied path, so a command cannot work in one.
    const QString workspace = QDir::cleanPath(input.workspace);
    for (const QString &path : denied) {
        const QRegularExpression pattern(pathRegex(path));
        for (const QString &alias : aliases(workspace)) {
            if (pattern.match(alias).hasMatch())
                return Error{ QStringLiteral("spawn.cwd"),
                              tr("the workspace '%1' lies inside the denied path '%2'; the sandbox does not uncover "
                                 "denied paths, so nothing was run")
                                  .arg(input.workspace, path),
                              {} };
        }
    }

    const bool isolated = policy.processes == Policy::ProcessConfinement::Isolated;
    QString profile = QStringLiteral("(version 1)\n(deny default)\n");

    profile += QStringLiteral(";; processes\n");
    profile += rule(QStringLiteral("allow"), QStringLiteral("process-fork"), {});
    profile += rule(QStringLiteral("allow"), QStringLiteral("process-exec"), {});
    profile += rule(QStringLiteral("allow"), QStringLiteral("signal"),
                    isolated ? QStringList{ QStringLiteral("(target same-sandbox)") } : QStringList());
    profile += rule(QStringLiteral("allow"), QStringLiteral("process-info*"),
                    isolated ? QStringList{ QStringLiteral("(target same-sandbox)") } : QStringList());
    profile += rule(QStringLiteral("allow"), QStringLiteral("sysctl-read"), {});
    profile += rule(QStringLiteral("allow"), QStringLiteral("system-socket"), {});
    profile += rule(QStringLiteral("allow"), QStringLiteral("ipc-posix-sem"), {});
    profile += rule(QStringLiteral("allow"), QStringLiteral("ipc-posix-shm"), {});

    profile += QStringLiteral(";; devices\n");
    profile += rule(QStringLiteral("allow"), QStringLiteral("file-read* file-write* file-ioctl"),
                    { filter("literal", QStringLiteral("/dev/null")), filter("literal", QStringLiteral("/dev/zero")),
                      filter("literal", QStringLiteral("/dev/tty")), filter("subpath", QStringLiteral("/dev/fd")) });
    profile += rule(
        QStringLiteral("allow"), QStringLiteral("file-read*"),
        { filter("literal", QStringLiteral("/dev/random")), filter("literal", QStringLiteral("/dev/urandom")) });

    profile += QStringLiteral(";; host services\n");
    if (input.exposeHostExecution) {
        profile += rule(QStringLiteral("allow"), QStringLiteral("mach-lookup"), {});
        profile += rule(QStringLiteral("allow"), QStringLiteral("network-outbound"),
                        { QStringLiteral("(remote unix-socket)") });
        profile
            += rule(QStringLiteral("allow"), QStringLiteral("network-bind"), { QStringLiteral("(local unix-socket)") });
        profile += rule(QStringLiteral("allow"), QStringLiteral("appleevent-send"), {});
        profile += rule(QStringLiteral("allow"), QStringLiteral("lsopen"), {});
    } else {
        QStringList services;
        for (const QString &service : baseMachServices())
            services.append(filter("global-name", service));
        if (policy.network == Policy::NetworkMode::Full)
            services.append(filter("global-name", QStringLiteral("com.apple.dnssd.service")));
        profile += rule(QStringLiteral("allow"), QStringLiteral("mach-lookup"), services);
    }

    profile += QStringLiteral(";; reads\n");
    profile += rule(QStringLiteral("allow"), QStringLiteral("file-read-metadata"), ancestors(readable + writable));
    profile += rule(QStringLiteral("allow"), QStringLiteral("file-read*"), subpaths(runtimeReadable() + readable));

    if (!writable.isEmpty()) {
        profile += QStringLiteral(";; writes\n");
        profile += rule(QStringLiteral("allow"), QStringLiteral("file-read* file-write*"), subpaths(writable));
    }

    profile += QStringLiteral(";; network: %1\n").arg(Policy::networkModeName(policy.network));
    switch (policy.network) {
    case Policy::NetworkMode::None:
        break;
    case Policy::NetworkMode::Allowlist:
        profile += rule(
            QStringLiteral("allow"), QStringLiteral("network-outbound"),
            { QStringLiteral("(remote tcp %1)").arg(quoted(QStringLiteral("localhost:%1").arg(input.proxyPort))) });
        break;
    case Policy::NetworkMode::Full:
        profile += rule(QStringLiteral("allow"), QStringLiteral("network-outbound"), { QStringLiteral("(remote ip)") });
        profile += rule(QStringLiteral("allow"), QStringLiteral("network-inbound network-bind"),
                        { QStringLiteral("(local ip)") });
        if (!input.exposeHostExecution)
            profile += rule(QStringLiteral("allow"), QStringLiteral("network-outbound"),
                            { QStringLiteral("(remote unix-socket (path-literal %1))")
                                  .arg(quoted(QStringLiteral("/private/var/run/mDNSResponder"))) });
        break;
    }

    // Carve-outs last: they narrow the allows above. First the HEAD files: one may be
    // written where git keeps one inside a .git (ordinary work), nowhere else (a new bare
    // repository).
    QStringList heads;
    QStringList gitHeads;
    QStringList protectedWrites;
    for (const QString &root : writable) {
        for (const QString &alias : aliases(root)) {
            const QString base = alias == QLatin1String("/") ? QString() : escapeRegexText(alias);
            const QString head = escapeRegexText(QStringLiteral("HEAD")) + QLatin1Char('$');
            appendUnique(heads, filter("regex", QLatin1Char('^') + base + QStringLiteral("/(.*/)?") + head));
            // Where git keeps a HEAD: a git directory's own, its reflog's, a remote's default
            // branch. Not anywhere else inside .git, where one would make a directory a
            // repository (built in .git/objects, then moved out).
            const QString gitDirectory = QLatin1Char('^') + base + QStringLiteral("/(.*/)?")
                + escapeRegexText(QStringLiteral(".git")) + QStringLiteral("(/")
                + alternation(repository::nestedGitDirectoryFolders()) + QStringLiteral("/.+)?/");
            appendUnique(gitHeads,
                         filter("regex",
                                gitDirectory + QLatin1Char('(') + escapeRegexText(QStringLiteral("logs"))
                                    + QStringLiteral("/)?(") + escapeRegexText(QStringLiteral("refs/remotes"))
                                    + QStringLiteral("/[^/]+/)?") + head));
            for (const QString &denial : repositoryDenials(alias))
                appendUnique(protectedWrites, denial);
        }
    }
    for (const QString &entry : carveouts(readOnly))
        appendUnique(protectedWrites, entry);
    if (!heads.isEmpty()) {
        profile += QStringLiteral(";; repositories: no HEAD outside a .git\n");
        profile += rule(QStringLiteral("deny"), QStringLiteral("file-write*"), heads);
        profile += rule(QStringLiteral("allow"), QStringLiteral("file-write*"), gitHeads);
    }
    if (!protectedWrites.isEmpty()) {
        profile += QStringLiteral(";; read-only inside writable: the repositories' control files and the policy's\n");
        profile += rule(QStringLiteral("deny"), QStringLiteral("file-write*"), protectedWrites);
    }
    if (!denied.isEmpty()) {
        profile += QStringLiteral(";; denied: neither read nor written, whatever is granted above\n");
        profile += rule(QStringLiteral("deny"), QStringLiteral("file-read* file-write*"), carveouts(denied));
    }
    return profile;
}

} // namespace sandbox
