#include "WindowsLauncher.h"

#include "launchers/auto/ProgramProcess.h"
#include "launchers/auto/windows/WindowsPlanBuilder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QPromise>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUuid>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::WindowsLauncher", text);
}

template <typename T> QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

// sandbox-init.exe's exit status when the plan was refused or confinement failed.
constexpr int kSetupFailedStatus = 125;

} // namespace

QString WindowsLauncher::locateInit()
{
    const QString configured = qEnvironmentVariable("SANDBOX_INIT_PATH");
    if (!configured.isEmpty())
        return QFileInfo(configured).isFile() ? configured : QString();
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/sandbox-init.exe");
    return QFileInfo(beside).isFile() ? beside : QString();
}

QString WindowsLauncher::unavailableReason()
{
#ifndef Q_OS_WIN
    return tr("sandbox-init.exe confines commands on Windows only");
#else
    if (locateInit().isEmpty())
        return tr("the helper sandbox-init.exe was not found next to %1 (set SANDBOX_INIT_PATH or reinstall)")
            .arg(QCoreApplication::applicationDirPath());
    return {};
#endif
}

BackendDescriptor WindowsLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = tr("Automatic (OS sandbox)");
    descriptor.description = tr("Confines each command on Windows with an AppContainer of its own, access rules "
                                "on its paths, firewall rules, a restricted token and a job object "
                                "(sandbox-init.exe).");
    descriptor.platforms = { QStringLiteral("windows") };
    const QString reason = unavailableReason();
    const QString unverified = tr("not verified by this project's own test runs (they run on Linux: the plan is "
                                  "unit-tested there, and sandbox-init.exe's job object, stdio, exit status and "
                                  "timeout are tested under Wine, which has no AppContainers)");
    if (!reason.isEmpty()) {
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            if (dimension != QStringLiteral("credentials") && dimension != QStringLiteral("upstreamProxy"))
                descriptor.enforcement.insert(dimension, tr("not enforced: %1, nothing is run").arg(reason));
    } else {
        descriptor.enforcement.insert(
            QStringLiteral("filesystem"),
            tr("an AppContainer of the command's own reaches only what its access rules grant: read on the "
               "readable paths, write on the writable ones, deny rules on denied and read-only paths and on the "
               "repositories' control files (the .git entry itself cannot be removed or renamed), added when the "
               "command starts and removed when it ends; rules are set on paths that exist when it starts, so a "
               "denied or read-only path created later inside a writable one is not covered; %1")
                .arg(unverified));
        descriptor.enforcement.insert(
            QStringLiteral("network"),
            tr("none: an AppContainer without network capabilities, and a firewall rule blocking everything for "
               "it; allowlist: not offered on Windows yet (the filtering proxy serves unix sockets only), nothing "
               "is run; full: the internetClient and privateNetworkClientServer capabilities; %1")
                .arg(unverified));
        descriptor.enforcement.insert(
            QStringLiteral("hostExecution"),
            tr("deny and ask (ask is not asked on Windows: it is denied): the job object's UI restrictions (no "
               "other windows, clipboard, global atoms or system settings), an AppContainer reaching no named "
               "pipe or service that does not admit AppContainers; allow: no UI restrictions; %1")
                .arg(unverified));
        descriptor.enforcement.insert(
            QStringLiteral("confinement"),
            tr("a restricted token (every privilege but traversal removed, Administrators deny-only, low "
               "integrity), a job object that allows no breakaway, ends every process of the command when "
               "sandbox-init.exe ends or is killed, and limits their number; %1")
                .arg(unverified));
    }
    descriptor.refusals = tr("The engine's own refusals. Not observed: what the AppContainer, the access rules and "
                             "the firewall refuse.");
    return descriptor;
}

QFuture<Status> WindowsLauncher::configure(const ResolvedSettings &)
{
    return ready(Status::success());
}

QFuture<Status> WindowsLauncher::prepare()
{
    const QString reason = unavailableReason();
    if (!reason.isEmpty())
        return ready(Status(Error{ QStringLiteral("builtin:auto"), reason, {} }));
    return ready(Status::success());
}

QFuture<Availability> WindowsLauncher::isAvailable()
{
    const QString reason = unavailableReason();
    return ready(Availability{ reason.isEmpty(), reason });
}

QFuture<Status> WindowsLauncher::disposeIdle()
{
    return ready(Status::success());
}

Result<std::shared_ptr<SandboxProcess>> WindowsLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    const QString where = QStringLiteral("builtin:auto");
    if (const QString reason = unavailableReason(); !reason.isEmpty())
        return Error{ where, reason, {} };
    if (request.argv.isEmpty())
        return Error{ QStringLiteral("spawn.argv"), tr("no command to run"), {} };
    if (request.terminal)
        return Error{ QStringLiteral("spawn.terminal"), terminalRefusal(), {} };
    if (policy.network == Policy::NetworkMode::Allowlist)
        return Error{ QStringLiteral("policy.network"),
                      tr("allowed domains are not offered on Windows yet (the filtering proxy serves unix sockets "
                         "only); nothing was run"),
                      {} };

    WindowsPlanBuilder::Input input;
    input.policy = policy;
    input.home = QDir::homePath();
    input.workspace = QDir(request.effectiveWorkspace()).absolutePath();
    input.temporaryDirectory = QDir(QDir::tempPath()).absolutePath();
    const QString systemDrive = qEnvironmentVariable("SystemDrive", QStringLiteral("C:"));
    input.systemDrive = systemDrive;
    input.exposeHostExecution = policy.hostExecution == Policy::HostExecution::Allow;
    // An AppContainer per command: its access rules and firewall rules are removed when it
    // ends, whatever other commands still run.
    input.identityName = QStringLiteral("SandboxStudio.Run.") + QUuid::createUuid().toString(QUuid::Id128).left(24);
    Result<windows::Plan> plan = WindowsPlanBuilder::build(input);
    if (!plan)
        return plan.error();

    // The plan and the status file, in a folder of the engine's own (its state directory).
    const QString base = host() ? host()->stateDirectory() : QDir::tempPath();
    auto folder = std::make_shared<QTemporaryDir>(base + QStringLiteral("/run-XXXXXX"));
    if (!folder->isValid())
        return Error{ where, tr("cannot make a folder for the command's plan in %1").arg(base), {} };
    const QString planFile = folder->filePath(QStringLiteral("plan"));
    const QString statusFile = folder->filePath(QStringLiteral("status"));
    QFile file(planFile);
    const QByteArray text = QByteArray::fromStdString(plan.value().serialize());
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.flush())
        return Error{ where, tr("cannot write the command's plan to %1").arg(planFile), {} };
    file.close();

    const QString init = locateInit();
    QStringList arguments = { QStringLiteral("--plan"),   QDir::toNativeSeparators(planFile),
                              QStringLiteral("--status"), QDir::toNativeSeparators(statusFile),
                              QStringLiteral("--parent"), QString::number(QCoreApplication::applicationPid()),
                              QStringLiteral("--") };
    arguments += request.argv;
    QProcessEnvironment environment;
    for (auto it = request.env.cbegin(); it != request.env.cend(); ++it)
        environment.insert(it.key(), it.value());
    auto process = std::make_shared<ProgramProcess>(
        init, arguments, environment, request.cwd, where,
        [folder, init, planFile, statusFile, where](const ExitStatus &status) -> std::optional<Error> {
            QFile read(statusFile);
            const QByteArray lines = read.open(QIODevice::ReadOnly) ? read.readAll() : QByteArray();
            // Killed after changing something and before undoing it: undone now, from the plan.
            if (lines.startsWith("changing\n") && !lines.contains("\nundone\n")) {
                QProcess undo;
                undo.start(init, { QStringLiteral("--undo"), QDir::toNativeSeparators(planFile) });
                undo.waitForFinished(60000);
            }
            if (!lines.contains("started ") && !status.signaled && status.exitCode == kSetupFailedStatus) {
                for (const QByteArray &line : lines.split('\n')) {
                    if (line.startsWith("error "))
                        return Error{ where, QString::fromUtf8(line.mid(6)), {} };
                }
            }
            return std::nullopt;
        });
    process->start();
    return std::shared_ptr<SandboxProcess>(process);
}

} // namespace sandbox
