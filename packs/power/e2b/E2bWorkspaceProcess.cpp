#include "E2bWorkspaceProcess.h"

#include <QCryptographicHash>
#include <QDir>
#include <QtConcurrent/QtConcurrentRun>

#include <csignal>
#include <utility>

namespace sandbox::power {

E2bWorkspaceProcess::E2bWorkspaceProcess(std::shared_ptr<E2bSandboxPool> pool, bool internet, SpawnRequest request,
                                         const Policy &policy)
    : m_pool(std::move(pool))
    , m_internet(internet)
    , m_request(std::move(request))
    , m_workspace(m_request.effectiveWorkspace(), policy)
{
    connect(&m_tar, &QProcess::readyReadStandardOutput, this, [this] {
        m_collected += m_tar.readAllStandardOutput();
        if (m_collected.size() > E2bWorkspace::maximumBytes)
            m_tar.kill();
    });
    connect(&m_tar, &QProcess::finished, this, &E2bWorkspaceProcess::archived);
    connect(&m_tar, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(tr("tar could not be started on this computer: %1").arg(m_tar.errorString()));
    });
}

E2bWorkspaceProcess::~E2bWorkspaceProcess()
{
    if (m_tar.state() != QProcess::NotRunning) {
        m_tar.kill();
        m_tar.waitForFinished(5000);
    }
}

QString E2bWorkspaceProcess::remoteFolder(const QString &hostRoot)
{
    const QByteArray digest = QCryptographicHash::hash(hostRoot.toUtf8(), QCryptographicHash::Sha256).toHex().left(16);
    return QStringLiteral("workspaces/") + QString::fromLatin1(digest);
}

bool E2bWorkspaceProcess::isRunning() const
{
    QMutexLocker locker(&m_mutex);
    return m_running;
}

ExitStatus E2bWorkspaceProcess::exitStatus() const
{
    QMutexLocker locker(&m_mutex);
    return m_exit;
}

void E2bWorkspaceProcess::start()
{
    {
        QMutexLocker locker(&m_mutex);
        m_running = true;
    }
    m_workspace.snapshot();
    m_tar.start(QStringLiteral("tar"), m_workspace.tarArguments());
}

void E2bWorkspaceProcess::archived()
{
    if (m_ended)
        return;
    if (m_killed)
        return finish(ExitStatus{ 0, true, SIGKILL, false });
    if (m_collected.size() > E2bWorkspace::maximumBytes)
        return fail(tr("the workspace %1 is larger than %2 MB, too large to upload for every command")
                        .arg(m_workspace.root())
                        .arg(E2bWorkspace::maximumBytes / (1024 * 1024)));
    if (m_tar.exitStatus() != QProcess::NormalExit || m_tar.exitCode() != 0)
        return fail(tr("tar could not archive the workspace %1: %2")
                        .arg(m_workspace.root(), QString::fromLocal8Bit(m_tar.readAllStandardError()).trimmed()));
    upload(std::exchange(m_collected, {}));
}

std::shared_ptr<E2bProcess> E2bWorkspaceProcess::step(const QStringList &argv, const QString &cwd)
{
    SpawnRequest request;
    request.argv = argv;
    auto process = std::make_shared<E2bProcess>(m_pool, m_internet, request);
    process->setRemoteCwd(cwd);
    process->setKeepAliveAtEnd(false);
    connect(process.get(), &E2bProcess::notice, this, &SandboxProcess::stderrReady);
    m_collected.clear();
    m_errors.clear();
    connect(process.get(), &SandboxProcess::stdoutReady, this, [this](const QByteArray &data) {
        m_collected += data;
        if (m_collected.size() > E2bWorkspace::maximumBytes && m_step)
            m_step->kill();
    });
    connect(process.get(), &SandboxProcess::stderrReady, this, [this](const QByteArray &data) { m_errors += data; });
    connect(process.get(), &SandboxProcess::failedToStart, this, [this](const Error &error) {
        if (!m_command)
            return fail(error.message);
        emit stderrReady(
            tr("sandbox: the workspace was not brought back from the E2B sandbox: %1\n").arg(error.message).toUtf8());
        finish(m_commandStatus);
    });
    return process;
}

void E2bWorkspaceProcess::upload(const QByteArray &archive)
{
    const QString folder = remoteFolder(m_workspace.root());
    m_step = step({ QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                    QStringLiteral("mkdir -p \"$1\" && cd \"$1\" && pwd && tar -x -f - -m --no-same-owner"),
                    QStringLiteral("sh"), folder },
                  {});
    connect(m_step.get(), &SandboxProcess::finished, this, [this](const ExitStatus &status) {
        if (m_ended)
            return;
        if (m_killed)
            return finish(ExitStatus{ 0, true, SIGKILL, false });
        const QString remoteDir = QString::fromUtf8(m_collected.left(m_collected.indexOf('\n'))).trimmed();
        if (status.signaled || remoteDir.isEmpty())
            return fail(tr("the workspace could not be unpacked in the sandbox: %1")
                            .arg(QString::fromUtf8(m_errors).trimmed()));
        m_sandboxId = m_step->sandboxId();
        // tar goes on past members it cannot place (a folder of the sandbox's copy where the
        // host has a file, say): the command runs, and the user is told which.
        if (status.exitCode != 0)
            emit stderrReady(tr("sandbox: some workspace files could not be placed in the E2B sandbox:\n%1\n")
                                 .arg(QString::fromUtf8(m_errors).trimmed())
                                 .toUtf8());
        runCommand(remoteDir);
    });
    m_step->start();
    m_step->writeStdin(archive);
    m_step->closeStdin();
}

void E2bWorkspaceProcess::runCommand(const QString &remoteDir)
{
    if (!remoteDir.startsWith(QLatin1Char('/')))
        return fail(tr("the sandbox did not name its copy of the workspace"));
    m_remoteDir = remoteDir;
    // Called from inside the upload step's finished signal: the step goes once it returned.
    SandboxProcess::releaseLater(std::exchange(m_step, {}));
    m_command = std::make_shared<E2bProcess>(m_pool, m_internet, m_request);
    m_command->setKeepAliveAtEnd(false);
    connect(m_command.get(), &E2bProcess::notice, this, &SandboxProcess::stderrReady);
    // The command starts where it asked to, in the copy: its cwd lies inside the workspace.
    const QString relative
        = QDir(QDir::cleanPath(m_request.effectiveWorkspace())).relativeFilePath(QDir::cleanPath(m_request.cwd));
    m_command->setRemoteCwd(relative == QLatin1String(".") || relative.startsWith(QLatin1String(".."))
                                ? remoteDir
                                : remoteDir + QLatin1Char('/') + relative);
    connect(m_command.get(), &SandboxProcess::started, this, &SandboxProcess::started);
    connect(m_command.get(), &SandboxProcess::stdoutReady, this, &SandboxProcess::stdoutReady);
    connect(m_command.get(), &SandboxProcess::stderrReady, this, &SandboxProcess::stderrReady);
    connect(m_command.get(), &SandboxProcess::failedToStart, this, [this](const Error &error) {
        m_ended = true;
        {
            QMutexLocker locker(&m_mutex);
            m_running = false;
        }
        emit failedToStart(error);
    });
    connect(m_command.get(), &SandboxProcess::finished, this, [this](const ExitStatus &status) {
        m_commandStatus = status;
        if (m_killed)
            return finish(status);
        download();
    });
    m_command->start();
    if (!m_stdin.isEmpty())
        m_command->writeStdin(std::exchange(m_stdin, {}));
    if (m_closeStdin)
        m_command->closeStdin();
}

void E2bWorkspaceProcess::download()
{
    SandboxProcess::releaseLater(std::exchange(m_step, {}));
    m_step = step(
        { QStringLiteral("tar"), QStringLiteral("-c"), QStringLiteral("-f"), QStringLiteral("-"), QStringLiteral(".") },
        m_remoteDir);
    connect(m_step.get(), &SandboxProcess::finished, this, &E2bWorkspaceProcess::bringBack);
    m_step->start();
    m_step->closeStdin();
}

void E2bWorkspaceProcess::notBroughtBack(const QString &why)
{
    // The command's own status would say all went well: the result says it did not.
    const QString status = m_commandStatus.signaled ? tr("was ended by signal %1").arg(m_commandStatus.signal)
                                                    : tr("exited with status %1").arg(m_commandStatus.exitCode);
    emit stderrReady(tr("sandbox: the command %1, but nothing of the workspace was brought back from the E2B "
                        "sandbox: %2; this computer's workspace is as it was before the command\n")
                         .arg(status, why)
                         .toUtf8());
    finish(ExitStatus{ 255, false, 0, false });
}

void E2bWorkspaceProcess::bringBack(const ExitStatus &download)
{
    if (m_ended)
        return;
    if (m_killed) {
        emit stderrReady(tr("sandbox: the workspace was not brought back from the E2B sandbox\n").toUtf8());
        return finish(m_commandStatus);
    }
    if (m_collected.size() > E2bWorkspace::maximumBytes)
        return notBroughtBack(tr("its copy is larger than %1 MB").arg(E2bWorkspace::maximumBytes / (1024 * 1024)));
    if (download.signaled || download.exitCode != 0)
        return notBroughtBack(
            tr("the download did not end properly (%1)")
                .arg(QString::fromUtf8(m_errors).trimmed().replace(QLatin1String("sandbox: "), QString())));
    const Result<TarArchive> archive = TarArchive::read(m_collected);
    if (!archive.ok())
        return notBroughtBack(tr("its copy could not be read (%1)").arg(archive.error().message));
    if (!archive.value().complete)
        return notBroughtBack(tr("the archive of its copy was cut off before its end"));
    const E2bWorkspace::Outcome outcome = m_workspace.apply(archive.value());
    for (const QString &conflict : outcome.conflicts)
        emit stderrReady(tr("sandbox: %1 changed on this computer while the command ran; the sandbox's version is "
                            "%1.sandbox-conflict\n")
                             .arg(conflict)
                             .toUtf8());
    for (const QString &refused : outcome.refused)
        emit stderrReady(tr("sandbox: not brought back: %1\n").arg(refused).toUtf8());
    finish(m_commandStatus);
}

void E2bWorkspaceProcess::writeStdin(const QByteArray &data)
{
    if (m_command)
        m_command->writeStdin(data);
    else
        m_stdin.append(data);
}

void E2bWorkspaceProcess::closeStdin()
{
    if (m_command)
        m_command->closeStdin();
    else
        m_closeStdin = true;
}

void E2bWorkspaceProcess::terminate()
{
    if (m_command && m_command->isRunning())
        m_command->terminate();
    else
        kill();
}

void E2bWorkspaceProcess::kill()
{
    if (m_ended)
        return;
    m_killed = true;
    if (m_command && m_command->isRunning())
        m_command->kill();
    else if (m_step)
        m_step->kill();
    else if (m_tar.state() != QProcess::NotRunning)
        m_tar.kill();
}

void E2bWorkspaceProcess::fail(const QString &why)
{
    if (m_ended)
        return;
    m_ended = true;
    {
        QMutexLocker locker(&m_mutex);
        m_running = false;
    }
    emit failedToStart(Error{ m_request.argv.value(0), why, {} });
}

void E2bWorkspaceProcess::keepAlive()
{
    if (m_sandboxId.isEmpty())
        return;
    std::shared_ptr<E2bSandboxPool> pool = m_pool;
    [[maybe_unused]] QFuture<void> refreshed = QtConcurrent::run([pool, id = m_sandboxId] { pool->keepAlive(id); });
}

void E2bWorkspaceProcess::finish(const ExitStatus &status)
{
    if (m_ended)
        return;
    m_ended = true;
    keepAlive();
    {
        QMutexLocker locker(&m_mutex);
        m_exit = status;
        m_running = false;
    }
    emit finished(status);
}

} // namespace sandbox::power
