#include "DaemonRig.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace sandbox::test {

DaemonRig::DaemonRig() = default;

DaemonRig::~DaemonRig()
{
    destroy();
}

bool DaemonRig::create(const QString &pathTemplate)
{
    destroy();
    m_log.clear();
    m_root = pathTemplate.isEmpty() ? std::make_unique<QTemporaryDir>() : std::make_unique<QTemporaryDir>(pathTemplate);
    return m_root->isValid() && QDir().mkpath(workspace());
}

void DaemonRig::destroy()
{
    stop();
    m_root.reset();
}

QString DaemonRig::path() const
{
    return m_root ? m_root->path() : QString();
}

QString DaemonRig::filePath(const QString &name) const
{
    return m_root ? m_root->filePath(name) : QString();
}

QString DaemonRig::workspace() const
{
    return filePath(QStringLiteral("work"));
}

QString DaemonRig::socket() const
{
    return filePath(QStringLiteral("run/engine.sock"));
}

QProcessEnvironment DaemonRig::environment(const QString &profile, const QString &packPath) const
{
    const QString base = profile.isEmpty() ? QString() : profile + QLatin1Char('/');
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), filePath(base + QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), filePath(base + QStringLiteral("state")));
    if (packPath.isEmpty())
        env.remove(QStringLiteral("SANDBOX_PACK_PATH"));
    else
        env.insert(QStringLiteral("SANDBOX_PACK_PATH"), packPath);
    return env;
}

void DaemonRig::start(const QProcessEnvironment &environment, bool logOutput)
{
    m_daemon = std::make_unique<QProcess>();
    startSandboxd(*m_daemon, environment, socket(), m_log, logOutput);
}

void DaemonRig::start()
{
    start(environment());
}

void DaemonRig::stop()
{
    if (m_daemon)
        stopGracefully(*m_daemon);
    m_daemon.reset();
}

QProcess *DaemonRig::daemon() const
{
    return m_daemon.get();
}

QByteArray &DaemonRig::log()
{
    return m_log;
}

const QByteArray &DaemonRig::log() const
{
    return m_log;
}

void DaemonRig::clearLog()
{
    m_log.clear();
}

void DaemonRig::setCtlEnvironment(const QProcessEnvironment &environment)
{
    m_ctlEnvironment = environment;
}

Outcome DaemonRig::ctl(const QStringList &args, const QByteArray &input, int timeoutMs,
                       const std::optional<QProcessEnvironment> &environment) const
{
    return runProgram(binary(QStringLiteral("sandboxctl")), QStringList{ QStringLiteral("--socket"), socket() } + args,
                      workspace(), input, timeoutMs, environment ? environment : m_ctlEnvironment);
}

std::unique_ptr<QProcess> DaemonRig::startCtl(const QStringList &args, const QString &program) const
{
    auto process = std::make_unique<QProcess>();
    if (m_ctlEnvironment)
        process->setProcessEnvironment(*m_ctlEnvironment);
    process->setWorkingDirectory(workspace());
    process->start(binary(program), QStringList{ QStringLiteral("--socket"), socket() } + args);
    process->waitForStarted();
    return process;
}

std::optional<DockerRuntime> dockerRuntime()
{
    DockerRuntime runtime{ qEnvironmentVariable("SANDBOX_TEST_DOCKER_SOCKET"),
                           qEnvironmentVariable("SANDBOX_TEST_DOCKER_IMAGE") };
    if (runtime.socket.isEmpty() || runtime.image.isEmpty())
        return std::nullopt;
    return runtime;
}

void activateDocker(const DaemonRig &rig, const QString &packDir, const DockerRuntime &runtime, const QString &image)
{
    const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");
    constexpr int kStepMs = 120000;
    const Outcome installed = rig.ctl({ QStringLiteral("packs"), QStringLiteral("install"), packDir }, {}, kStepMs);
    QVERIFY2(installed.exitCode == 0, installed.err.constData());
    QVERIFY(installed.out.contains(dockerRef.toUtf8()));
    const Outcome set = rig.ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                                  QStringLiteral("endpoint=unix://") + runtime.socket,
                                  QStringLiteral("image=") + (image.isEmpty() ? runtime.image : image) },
                                {}, kStepMs);
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome activated = rig.ctl({ QStringLiteral("activate"), dockerRef }, {}, kStepMs);
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
}

} // namespace sandbox::test
