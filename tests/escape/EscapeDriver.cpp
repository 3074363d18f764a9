#include "EscapeDriver.h"

#include "LauncherRun.h"
#include "protocol/RuntimeDirectory.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

namespace sandbox::test {

EscapeDriver::EscapeDriver() = default;
EscapeDriver::~EscapeDriver()
{
    for (std::unique_ptr<QProcess> &daemon : m_daemons) {
        if (daemon) {
            daemon->terminate();
            if (!daemon->waitForFinished(10000)) {
                daemon->kill();
                daemon->waitForFinished();
            }
        }
    }
    if (!m_configRoot.isEmpty())
        QDir(m_configRoot).removeRecursively();
}

bool EscapeDriver::prepare(QString *error)
{
    const QByteArray forced = qgetenv("SANDBOX_ESCAPE_DRIVER");
    const QString sandboxctl = QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl");
    if (forced == "sandboxctl" || forced == "sandboxd" || forced == "recorded"
        || (forced != "direct" && QFileInfo(sandboxctl).isExecutable())) {
        m_sandboxctl = sandboxctl;
        m_daemon = forced == "sandboxd";
        m_recorded = forced == "recorded";
        return prepareCli(error);
    }
    m_tier1 = preparedLauncher(QStringLiteral("strongest"), error);
    m_tier2 = preparedLauncher(QStringLiteral("landlock-seccomp"), error);
    if (!m_tier1 || !m_tier2)
        return false;
    if (m_tier1->tier() != AutoLauncher::Tier::Namespaces) {
        if (error)
            *error = QStringLiteral("the strongest tier is not the namespace tier on this host");
        return false;
    }
    return true;
}

QString EscapeDriver::describe() const
{
    if (!m_sandboxctl.isEmpty())
        return QStringLiteral("sandboxctl run (%1, %2, config under %3)")
            .arg(m_sandboxctl,
                 m_daemon         ? QStringLiteral("through sandboxd")
                     : m_recorded ? QStringLiteral("embedded engine, each case from the plan a run just recorded")
                                  : QStringLiteral("embedded engine"),
                 m_configRoot);
    return QStringLiteral("the auto launcher driven directly (configure, prepare, spawn)");
}

EscapeDriver::Outcome EscapeDriver::run(int tier, const Policy &policy, const QStringList &argv, const QString &cwd,
                                        bool repeatable)
{
    if (!m_sandboxctl.isEmpty())
        return runCli(tier, policy, argv, cwd, repeatable);
    const RunResult result = runIn(tier == 1 ? *m_tier1 : *m_tier2, argv, policy, cwd, QByteArray(""), 60000, 90000);
    Outcome outcome;
    outcome.ran = result.started;
    outcome.out = result.out;
    outcome.err = result.err;
    outcome.exitCode = result.status.exitCode;
    outcome.signaled = result.status.signaled;
    outcome.signal = result.status.signal;
    outcome.note = result.error;
    return outcome;
}

QString EscapeDriver::engineSocket(int tier) const
{
    if (m_configRoot.isEmpty())
        return {};
    return m_configRoot + QStringLiteral("/tier%1/run/engine.sock").arg(tier);
}

QString EscapeDriver::defaultEngineSocket(int tier) const
{
    if (m_configRoot.isEmpty())
        return RuntimeDirectory::defaultSocketPath();
    return RuntimeDirectory::directoryFor(m_configRoot + QStringLiteral("/tier%1/state").arg(tier))
        + QStringLiteral("/engine.sock");
}

QStringList EscapeDriver::connectionArguments(int tier) const
{
    QStringList arguments{ QStringLiteral("--socket"), engineSocket(tier) };
    if (!m_daemon)
        arguments.append(QStringLiteral("--embedded"));
    return arguments;
}

Policy EscapeDriver::defaultPolicy() const
{
    return Policy::defaults();
}

Policy EscapeDriver::allowlistPolicy(quint16 allowedPort) const
{
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("127.0.0.1:%1").arg(allowedPort) };
    return policy;
}

namespace {

QProcessEnvironment cliEnvironment(const QString &configRoot, int tier)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const QString base = configRoot + QStringLiteral("/tier%1").arg(tier);
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), base + QStringLiteral("/config"));
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), base + QStringLiteral("/state"));
    return environment;
}

struct CliResult
{
    int status = -1;
    QByteArray out;
    QByteArray err;
    bool finished = false;
};

CliResult sandboxctl(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment,
                     const QString &cwd, int waitMs)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(cwd);
    process.start(program, arguments);
    process.closeWriteChannel();
    CliResult result;
    result.finished = process.waitForFinished(waitMs);
    if (!result.finished) {
        process.kill();
        process.waitForFinished();
    }
    result.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

bool EscapeDriver::prepareCli(QString *error)
{
    // Under /var/tmp, which both tiers show, wherever the checkout is (tier 1's /tmp is
    // private, and tier 2 refuses every command while the engine's directories are in the
    // /tmp its default policy makes writable): the engine's socket is then in view of the
    // sandbox, and only the sandbox's socket rules and the engine's refusal keep it away.
    // Owner-only, made here and removed with the driver. Recorded plans list every directory
    // above the records (they are denied, so Landlock leaves those listable only), /var/tmp
    // included: another suite's directory appearing there makes a record stale, and the case
    // is primed again (runCli).
    QTemporaryDir root(QStringLiteral("/var/tmp/escape-cli-XXXXXX"));
    if (!root.isValid()) {
        if (error)
            *error = QStringLiteral("cannot create a folder in /var/tmp: %1").arg(root.errorString());
        return false;
    }
    root.setAutoRemove(false);
    m_configRoot = root.path();
    for (int tier : { 1, 2 }) {
        const QProcessEnvironment environment = cliEnvironment(m_configRoot, tier);
        QDir().mkpath(environment.value(QStringLiteral("SANDBOX_CONFIG_DIR")));
        QDir().mkpath(environment.value(QStringLiteral("SANDBOX_STATE_DIR")));
        QFile report(m_configRoot + QStringLiteral("/tier%1/run-path").arg(tier));
        if (!report.open(QIODevice::WriteOnly | QIODevice::Append)) {
            if (error)
                *error = QStringLiteral("cannot create %1").arg(report.fileName());
            return false;
        }
        const QString tierName = tier == 1 ? QStringLiteral("strongest") : QStringLiteral("landlock-seccomp");
        if (m_daemon && !startDaemon(tier, error))
            return false;
        const QStringList connection = connectionArguments(tier);
        const CliResult set
            = sandboxctl(m_sandboxctl,
                         connection
                             + QStringList{ QStringLiteral("settings"), QStringLiteral("set"),
                                            QStringLiteral("builtin:auto"), QStringLiteral("tier=") + tierName },
                         environment, QDir::tempPath(), 60000);
        const CliResult activated = sandboxctl(
            m_sandboxctl, connection + QStringList{ QStringLiteral("activate"), QStringLiteral("builtin:auto") },
            environment, QDir::tempPath(), 60000);
        // Which tier runs is checked by behaviour: in tier 1 the sandbox's pid 1 is
        // sandbox-init, in tier 2 it is the host's init.
        const CliResult pidOne
            = sandboxctl(m_sandboxctl,
                         connection
                             + QStringList{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"),
                                            QStringLiteral("/proc/1/cmdline") },
                         environment, QDir::tempPath(), 60000);
        const bool namespaced = pidOne.out.contains("sandbox-init");
        // Through sandboxd the command must have been served by the daemon, not by an
        // engine sandboxctl started itself.
        const CliResult status
            = sandboxctl(m_sandboxctl, connection + QStringList{ QStringLiteral("status"), QStringLiteral("--json") },
                         environment, QDir::tempPath(), 60000);
        const bool servedRight = !m_daemon || status.out.contains("\"embedded\": false");
        if (set.status != 0 || activated.status != 0 || pidOne.status != 0 || namespaced != (tier == 1)
            || !servedRight) {
            if (error)
                *error = QStringLiteral("cannot select tier %1 through sandboxctl: %2 %3 %4")
                             .arg(tier)
                             .arg(QString::fromLocal8Bit(set.err + activated.err + pidOne.err))
                             .arg(QString::fromLocal8Bit(activated.out))
                             .arg(QString::fromLocal8Bit(pidOne.out + status.out));
            return false;
        }
    }
    return true;
}

bool EscapeDriver::startDaemon(int tier, QString *error)
{
    const QString sandboxd = QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxd");
    auto daemon = std::make_unique<QProcess>();
    daemon->setProcessEnvironment(cliEnvironment(m_configRoot, tier));
    daemon->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    daemon->start(sandboxd, { QStringLiteral("--socket"), engineSocket(tier) });
    if (!daemon->waitForStarted(10000)) {
        if (error)
            *error = QStringLiteral("cannot start %1: %2").arg(sandboxd, daemon->errorString());
        return false;
    }
    // Ready when its socket answers: sandboxctl status through it succeeds.
    QDeadlineTimer deadline(30000);
    while (!QFileInfo::exists(engineSocket(tier)) && !deadline.hasExpired()) {
        if (daemon->waitForFinished(50)) {
            if (error)
                *error = QStringLiteral("sandboxd for tier %1 exited at start").arg(tier);
            return false;
        }
    }
    m_daemons[tier - 1] = std::move(daemon);
    return QFileInfo::exists(engineSocket(tier));
}

EscapeDriver::Outcome EscapeDriver::runCli(int tier, const Policy &policy, const QStringList &argv, const QString &cwd,
                                           bool repeatable)
{
    const QString policyPath = m_configRoot + QStringLiteral("/policy-%1.json").arg(tier);
    QFile file(policyPath);
    Outcome outcome;
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(QJsonDocument(policy.toJson()).toJson()) <= 0) {
        outcome.note = QStringLiteral("cannot write %1").arg(policyPath);
        return outcome;
    }
    file.close();
    const QStringList run = connectionArguments(tier)
        + QStringList{ QStringLiteral("run"),       QStringLiteral("--policy"), policyPath,
                       QStringLiteral("--timeout"), QStringLiteral("60"),       QStringLiteral("--") };
    // One report file per tier, made before the first run and only appended to: an entry
    // appearing or going in a directory the plan lists would be a change to it.
    QProcessEnvironment environment = cliEnvironment(m_configRoot, tier);
    const QString pathReport = m_configRoot + QStringLiteral("/tier%1/run-path").arg(tier);
    environment.insert(QStringLiteral("SANDBOXCTL_RUN_PATH_REPORT"), pathReport);
    // The plan is the same for any command (the arguments are not part of it): recorded by
    // this run, used by the next. Something on the machine changing meanwhile (a socket
    // under /run, another suite's directory in /var/tmp) makes the case the full program's:
    // it is then primed and run again, up to three times in all.
    const bool recordable = m_recorded && repeatable && policy.network != Policy::NetworkMode::Allowlist
        && policy.hostExecution == Policy::HostExecution::Deny;
    CliResult result;
    for (int attempt = 0; attempt < (recordable ? 3 : 1); ++attempt) {
        if (m_recorded)
            sandboxctl(m_sandboxctl, run + QStringList{ QStringLiteral("/bin/true") }, environment, cwd, 90000);
        const qint64 reportedBefore = QFileInfo(pathReport).size();
        result = sandboxctl(m_sandboxctl, run + argv, environment, cwd, 90000);
        QFile served(pathReport);
        if (served.open(QIODevice::ReadOnly) && served.seek(reportedBefore))
            outcome.path = QString::fromUtf8(served.readAll()).trimmed();
        if (outcome.path == QLatin1String("recorded"))
            break;
    }
    outcome.out = result.out;
    outcome.err = result.err;
    // sandboxctl's own failures are 125 with its name on stderr; anything else is the
    // command's status (128 + n for a signal).
    outcome.ran = result.finished && result.status >= 0 && !(result.status == 125 && result.err.contains("sandboxctl"));
    if (result.status > 128 && result.status < 128 + 65) {
        outcome.signaled = true;
        outcome.signal = result.status - 128;
        outcome.exitCode = 0;
    } else {
        outcome.exitCode = result.status;
    }
    outcome.note = QStringLiteral("sandboxctl exit status %1").arg(result.status);
    return outcome;
}

} // namespace sandbox::test
