#include "SeatbeltLauncher.h"

#include "launchers/auto/LoopbackBridge.h"
#include "launchers/auto/ProgramProcess.h"
#include "launchers/auto/macos/SeatbeltProfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPromise>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::SeatbeltLauncher", text);
}

template <typename T> QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

} // namespace

QString SeatbeltLauncher::unavailableReason()
{
#ifndef Q_OS_MACOS
    return tr("the Seatbelt sandbox exists on macOS only");
#else
    if (!QFileInfo(kSandboxExec).isExecutable())
        return tr("%1 is missing, so commands cannot be confined").arg(kSandboxExec);
    return {};
#endif
}

BackendDescriptor SeatbeltLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = tr("Automatic (OS sandbox)");
    descriptor.description = tr("Confines each command with the macOS sandbox (Seatbelt): a profile compiled from its "
                                "policy, applied by sandbox-exec.");
    descriptor.platforms = { QStringLiteral("macos") };
    const QString reason = unavailableReason();
    const QString unverified = tr("not verified by this project's own test runs (they run on Linux; the profile's "
                                  "text is unit-tested there)");
    if (!reason.isEmpty()) {
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            if (dimension != QStringLiteral("credentials") && dimension != QStringLiteral("upstreamProxy"))
                descriptor.enforcement.insert(dimension, tr("not enforced: %1, nothing is run").arg(reason));
    } else {
        descriptor.enforcement.insert(
            QStringLiteral("filesystem"),
            tr("Seatbelt profile (sandbox-exec -p), default deny: reads only under the readable paths and the "
               "system's runtime locations, denied paths carved out in any letter case; writes only under the "
               "writable paths, read-only paths and the repositories' control files (.git/hooks, .git/config and "
               "the rest RepositoryRules names) denied there; %1")
                .arg(unverified));
        descriptor.enforcement.insert(QStringLiteral("network"),
                                      tr("none: every connection denied by the profile; allowlist: only the "
                                         "engine's filtering proxy, on one loopback port; full: allowed; %1")
                                          .arg(unverified));
        descriptor.enforcement.insert(
            QStringLiteral("allowedDomains"),
            tr("the engine's filtering proxy, bridged from a loopback port the profile allows alone; proxy "
               "variables set; %1")
                .arg(unverified));
        descriptor.enforcement.insert(
            QStringLiteral("hostExecution"),
            tr("deny and ask (ask is not asked on macOS: it is denied): Mach services limited to a base set "
               "(user lookups, logging, notifications, certificate trust, the temporary directory), unix socket "
               "connections, Apple events and opening applications refused by the profile; allow: all of them "
               "allowed; %1")
                .arg(unverified));
        descriptor.enforcement.insert(
            QStringLiteral("confinement"),
            tr("isolated: signals and process information only for processes in the same sandbox (profile); "
               "shared: for any process the user may reach; every child inherits the sandbox; %1")
                .arg(unverified));
    }
    descriptor.refusals = tr("The engine's own refusals, and every connection the filtering proxy refuses "
                             "(allowed domains). Not observed: what the Seatbelt profile refuses.");
    return descriptor;
}

QFuture<Status> SeatbeltLauncher::configure(const ResolvedSettings &)
{
    return ready(Status::success());
}

QFuture<Status> SeatbeltLauncher::prepare()
{
    const QString reason = unavailableReason();
    if (!reason.isEmpty())
        return ready(Status(Error{ QStringLiteral("builtin:auto"), reason, {} }));
    return ready(Status::success());
}

QFuture<Availability> SeatbeltLauncher::isAvailable()
{
    const QString reason = unavailableReason();
    return ready(Availability{ reason.isEmpty(), reason });
}

QFuture<Status> SeatbeltLauncher::disposeIdle()
{
    return ready(Status::success());
}

Result<std::shared_ptr<SandboxProcess>> SeatbeltLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    const QString where = QStringLiteral("builtin:auto");
    if (const QString reason = unavailableReason(); !reason.isEmpty())
        return Error{ where, reason, {} };
    if (request.argv.isEmpty())
        return Error{ QStringLiteral("spawn.argv"), tr("no command to run"), {} };
    if (request.terminal)
        return Error{ QStringLiteral("spawn.terminal"), terminalRefusal(), {} };

    SeatbeltProfile::Input input;
    input.policy = policy;
    input.home = QDir::homePath();
    input.workspace = QDir(request.effectiveWorkspace()).absolutePath();
    input.exposeHostExecution = policy.hostExecution == Policy::HostExecution::Allow;
    QProcessEnvironment environment;
    for (auto it = request.env.cbegin(); it != request.env.cend(); ++it)
        environment.insert(it.key(), it.value());

    std::shared_ptr<ProxyChannel> channel;
    std::shared_ptr<LoopbackBridge> bridge;
    if (policy.network == Policy::NetworkMode::Allowlist) {
        if (!host())
            return Error{ QStringLiteral("policy.network"),
                          tr("allowed domains need the engine's filtering proxy"),
                          {} };
        Result<std::shared_ptr<ProxyChannel>> opened
            = host()->openProxyChannel(policy.allowedDomains, policy.deniedDomains);
        if (!opened)
            return opened.error();
        channel = opened.value();
        bridge = std::make_shared<LoopbackBridge>(channel->directory() + QLatin1Char('/') + channel->socketName());
        Result<quint16> port = bridge->listen();
        if (!port)
            return port.error();
        input.proxyPort = port.value();
        const QString proxy = QStringLiteral("http://127.0.0.1:%1").arg(port.value());
        for (const char *name : { "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy" })
            environment.insert(QLatin1String(name), proxy);
        environment.insert(QStringLiteral("NO_PROXY"), QString());
        environment.insert(QStringLiteral("no_proxy"), QString());
    }
    Result<QString> profile = SeatbeltProfile::build(input);
    if (!profile)
        return profile.error();

    QStringList arguments = { QStringLiteral("-p"), profile.value(), QStringLiteral("--") };
    arguments += request.argv;
    auto process
        = std::make_shared<ProgramProcess>(kSandboxExec, arguments, environment, request.cwd, where,
                                           [channel, bridge](const ExitStatus &) mutable -> std::optional<Error> {
                                               // The bridge and the channel end with the command.
                                               bridge.reset();
                                               channel.reset();
                                               return std::nullopt;
                                           });
    process->start();
    return std::shared_ptr<SandboxProcess>(process);
}

} // namespace sandbox
