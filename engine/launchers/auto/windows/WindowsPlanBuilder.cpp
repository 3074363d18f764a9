#include "WindowsPlanBuilder.h"

#include "core/workspace/RepositoryRules.h"
#include "launchers/auto/PolicyPaths.h"

#include <QCoreApplication>
#include <QDir>

#include <tuple>

namespace sandbox {

namespace {

using windows::Plan;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::WindowsPlanBuilder", text);
}

bool isDrivePath(const QString &path)
{
    return PolicyPaths::isAbsolute(path) && !path.startsWith(QLatin1Char('/'));
}

void add(Plan &plan, Plan::Access access, const QString &path)
{
    const Plan::PathRule rule{ access, path.toStdString() };
    for (const Plan::PathRule &known : plan.paths) {
        if (known == rule)
            return;
    }
    plan.paths.push_back(rule);
}

// `native` with a component "*" standing for any one name, matched against `path`.
bool matches(const QString &pattern, const QString &path)
{
    const QStringList want = pattern.split(QLatin1Char('\\'), Qt::SkipEmptyParts);
    const QStringList have = path.split(QLatin1Char('\\'), Qt::SkipEmptyParts);
    if (have.size() < want.size())
        return false;
    for (qsizetype i = 0; i < want.size(); ++i) {
        if (want[i] != QLatin1String("*") && want[i].compare(have[i], Qt::CaseInsensitive) != 0)
            return false;
    }
    return true;
}

} // namespace

QString WindowsPlanBuilder::nativePath(const QString &path, const Input &input)
{
    QString full;
    if (path == QLatin1String("/"))
        full = input.home;
    else if (Policy::isInside(path, QStringLiteral("/tmp")))
        full = input.temporaryDirectory + path.mid(4);
    else if (path.startsWith(QLatin1Char('/')))
        full = input.systemDrive + path;
    else
        full = path;
    full = QDir::cleanPath(full);
    full[0] = full[0].toUpper();
    if (full.size() == 2)
        full += QLatin1Char('/');
    return full.replace(QLatin1Char('/'), QLatin1Char('\\'));
}

Result<Plan> WindowsPlanBuilder::build(const Input &input)
{
    const Policy &policy = input.policy;
    if (Status valid = policy.validate(); !valid)
        return valid.error();
    for (const auto &[name, value] : { std::pair{ "home", input.home }, std::pair{ "workspace", input.workspace },
                                       std::pair{ "temporaryDirectory", input.temporaryDirectory } }) {
        if (!isDrivePath(value))
            return Error{ QStringLiteral("spawn.%1").arg(QLatin1String(name)),
                          tr("'%1' is not an absolute Windows path (C:/...)").arg(value),
                          {} };
    }
    if (input.systemDrive.size() != 2 || !input.systemDrive.at(0).isLetter()
        || input.systemDrive.at(1) != QLatin1Char(':'))
        return Error{ QStringLiteral("spawn.systemDrive"), tr("'%1' is not a drive (C:)").arg(input.systemDrive), {} };
    if (policy.network == Policy::NetworkMode::Allowlist && input.proxyPort == 0)
        return Error{ QStringLiteral("policy.network"), tr("allowed domains need the filtering proxy's port"), {} };
    if (input.activeProcessLimit < 1 || input.activeProcessLimit > Plan::kMaxActiveProcesses)
        return Error{
            QStringLiteral("spawn.activeProcessLimit"),
            tr("%1 is not a process limit from 1 to %2").arg(input.activeProcessLimit).arg(Plan::kMaxActiveProcesses),
            {}
        };

    Plan plan;
    plan.identity = input.identity;
    plan.identityName = (input.identityName.isEmpty()
                             ? (input.identity == Plan::Identity::AppContainer ? kDefaultAppContainer : kDefaultAccount)
                             : input.identityName)
                            .toStdString();
    // An AppContainer token is of low integrity by its nature; a dedicated account keeps
    // medium, so that what it may write needs no integrity label (which would be undone too).
    plan.restrictedToken = true;
    plan.integrity = input.identity == Plan::Identity::AppContainer ? "low" : "medium";
    plan.killOnJobClose = true;
    plan.allowBreakaway = false;
    plan.activeProcessLimit = input.activeProcessLimit;
    plan.dieOnUnhandledException = true;
    plan.uiRestrictions = !input.exposeHostExecution;

    const PolicyPaths paths(input.home, input.workspace);
    QList<QStringList> lists(4);
    const std::tuple<const QStringList *, const char *, QStringList *> categories[] = {
        { &policy.readable, "readable", &lists[0] },
        { &policy.writable, "writable", &lists[1] },
        { &policy.readOnly, "readOnly", &lists[2] },
        { &policy.denied, "denied", &lists[3] },
    };
    for (const auto &[list, name, out] : categories) {
        for (qsizetype i = 0; i < list->size(); ++i) {
            Result<QString> path
                = paths.expand(list->at(i), QStringLiteral("policy.filesystem.%1[%2]").arg(QLatin1String(name)).arg(i));
            if (!path)
                return path.error();
            const QString native = nativePath(path.value(), input);
            if (!out->contains(native))
                out->append(native);
        }
    }
    const QStringList &readable = lists[0];
    const QStringList &writable = lists[1];
    const QStringList &readOnly = lists[2];
    const QStringList &denied = lists[3];
    const QString workspace = nativePath(QDir::cleanPath(input.workspace), input);
    for (const QString &path : denied) {
        if (matches(path, workspace))
            return Error{ QStringLiteral("spawn.cwd"),
                          tr("the workspace '%1' lies inside the denied path '%2'; the sandbox does not uncover "
                             "denied paths, so nothing was run")
                              .arg(input.workspace, path),
                          {} };
    }

    // An ACE set on a path itself comes before those it inherits, whatever they allow or
    // deny: a grant inside a denied path would uncover it. Denied wins, so none is made.
    auto insideDenied = [&denied](const QString &path) {
        for (const QString &pattern : denied) {
            if (matches(pattern, path))
                return true;
        }
        return false;
    };
    for (const QString &path : readable) {
        if (!insideDenied(path))
            add(plan, Plan::Access::Read, path);
    }
    for (const QString &path : writable) {
        if (!insideDenied(path))
            add(plan, Plan::Access::Write, path);
    }
    for (const QString &path : readOnly)
        add(plan, Plan::Access::ReadOnly, path);
    // The repository protection of RepositoryRules for the repository at each writable
    // root: its .git stays where it is, its control files and in-progress state unchanged.
    for (const QString &root : writable) {
        if (insideDenied(root))
            continue;
        const QString git
            = root + (root.endsWith(QLatin1Char('\\')) ? QString() : QStringLiteral("\\")) + QStringLiteral(".git");
        add(plan, Plan::Access::KeepEntry, git);
        for (const auto *entries : { &repository::controlEntries(), &repository::transientStateEntries() }) {
            for (const std::string &entry : *entries)
                add(plan, Plan::Access::ReadOnly,
                    git + QLatin1Char('\\')
                        + QString::fromStdString(entry).replace(QLatin1Char('/'), QLatin1Char('\\')));
        }
    }
    for (const QString &path : denied)
        add(plan, Plan::Access::Deny, path);

    const bool appContainer = input.identity == Plan::Identity::AppContainer;
    switch (policy.network) {
    case Policy::NetworkMode::None:
        plan.network = Plan::Network::Off;
        plan.blocked = { { "any", "any", 0, 0 } };
        break;
    case Policy::NetworkMode::Allowlist: {
        plan.network = Plan::Network::Proxy;
        plan.proxyPort = input.proxyPort;
        plan.loopbackExemption = appContainer;
        const int port = input.proxyPort;
        if (port > 1)
            plan.blocked.push_back({ "tcp", "127.0.0.1", 1, port - 1 });
        if (port < 65535)
            plan.blocked.push_back({ "tcp", "127.0.0.1", port + 1, 65535 });
        plan.blocked.push_back({ "udp", "127.0.0.1", 0, 0 });
        plan.blocked.push_back({ "any", "::1", 0, 0 });
        plan.blocked.push_back({ "any", "non-loopback", 0, 0 });
        break;
    }
    case Policy::NetworkMode::Full:
        plan.network = Plan::Network::Full;
        plan.loopbackExemption = appContainer;
        if (appContainer)
            plan.capabilities = { "internetClient", "privateNetworkClientServer" };
        break;
    }
    return plan;
}

} // namespace sandbox
