#include "E2bWorkspaceProcess.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QHttpMultiPart>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QUrlQuery>
#include <QUuid>
#include <QVersionNumber>
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
    m_network = new QNetworkAccessManager(this);
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
    if (!m_upload.open()) {
        fail(tr("no temporary file for the workspace's archive: %1").arg(m_upload.errorString()));
        return;
    }
    // tar writes the archive into the temporary file ("-f -" names the archive).
    QStringList arguments = m_workspace.tarArguments();
    arguments[arguments.indexOf(QStringLiteral("-"))] = m_upload.fileName();
    m_tar.start(QStringLiteral("tar"), arguments);
}

void E2bWorkspaceProcess::archived()
{
    if (m_ended)
        return;
    if (m_killed)
        return finish(ExitStatus{ 0, true, SIGKILL, false });
    if (m_tar.exitStatus() != QProcess::NormalExit || m_tar.exitCode() != 0)
        return fail(tr("tar could not archive the workspace %1: %2")
                        .arg(m_workspace.root(), QString::fromLocal8Bit(m_tar.readAllStandardError()).trimmed()));
    if (QFileInfo(m_upload.fileName()).size() > E2bWorkspace::maximumBytes)
        return fail(tr("the workspace %1 is larger than %2 MB, too large to upload for every command")
                        .arg(m_workspace.root())
                        .arg(E2bWorkspace::maximumBytes / (1024 * 1024)));
    const QString unique = QUuid::createUuid().toString(QUuid::Id128);
    const QString folder = remoteFolder(m_workspace.root());
    m_uploadName = folder + QStringLiteral("-") + unique + QStringLiteral(".up.tar");
    m_downloadName = folder + QStringLiteral("-") + unique + QStringLiteral(".down.tar");
    std::shared_ptr<E2bSandboxPool> pool = m_pool;
    QtConcurrent::run([pool, internet = m_internet] {
        return pool->sandboxFor(internet);
    }).then(this, [this](const Result<E2bSandboxPool::Lease> &lease) { leased(lease); });
}

void E2bWorkspaceProcess::leased(const Result<E2bSandboxPool::Lease> &lease)
{
    if (m_ended)
        return;
    if (m_killed)
        return finish(ExitStatus{ 0, true, SIGKILL, false });
    if (!lease.ok())
        return fail(lease.error().message);
    if (!lease.value().notice.isEmpty())
        emit stderrReady(lease.value().notice.toUtf8());
    m_sandbox = lease.value().sandbox;
    send();
}

void E2bWorkspaceProcess::send()
{
    // envd's file API: a raw body from envd 0.5.7 on, a multipart form before.
    const bool raw = QVersionNumber::fromString(m_sandbox.envdVersion) >= QVersionNumber(0, 5, 7);
    QUrlQuery query{ { QStringLiteral("path"), m_uploadName } };
    if (E2bProcess::needsBasicAuth(m_sandbox.envdVersion))
        query.addQueryItem(QStringLiteral("username"), QStringLiteral("user"));
    auto *file = new QFile(m_upload.fileName());
    if (!file->open(QIODevice::ReadOnly)) {
        delete file;
        return fail(tr("the workspace's archive cannot be read: %1").arg(m_upload.fileName()));
    }
    const QString path = QStringLiteral("/files?") + query.toString(QUrl::FullyEncoded);
    if (raw) {
        QNetworkRequest request
            = E2bProcess::envdHttpRequest(m_pool->api().settings(), m_sandbox, path, "application/octet-stream");
        request.setHeader(QNetworkRequest::ContentLengthHeader, file->size());
        m_transfer = m_network->post(request, file);
        file->setParent(m_transfer);
    } else {
        auto *form = new QHttpMultiPart(QHttpMultiPart::FormDataType);
        QHttpPart part;
        part.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QStringLiteral("form-data; name=\"file\"; filename=\"%1\"").arg(m_uploadName));
        part.setBodyDevice(file);
        file->setParent(form);
        form->append(part);
        m_transfer = m_network->post(
            E2bProcess::envdHttpRequest(m_pool->api().settings(), m_sandbox, path, QByteArray()), form);
        form->setParent(m_transfer);
    }
    connect(m_transfer, &QNetworkReply::finished, this, &E2bWorkspaceProcess::sent);
}

void E2bWorkspaceProcess::sent()
{
    QNetworkReply *reply = m_transfer;
    if (!reply || m_ended)
        return;
    reply->deleteLater();
    m_transfer = nullptr;
    if (m_killed)
        return finish(ExitStatus{ 0, true, SIGKILL, false });
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 200)
        return upload();
    if ((status == 502 || status == 404) && !m_replaced) {
        // The sandbox may have ended (its timeout): replaced once, as a command's would be.
        m_replaced = true;
        std::shared_ptr<E2bSandboxPool> pool = m_pool;
        QtConcurrent::run([pool, internet = m_internet, gone = m_sandbox.id] {
            return pool->replaceGone(internet, gone);
        }).then(this, [this](const Result<E2bSandboxPool::Lease> &lease) { leased(lease); });
        return;
    }
    const QString message
        = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("message")).toString();
    fail(tr("the workspace could not be sent to the E2B sandbox: %1")
             .arg(status == 0 ? reply->errorString() : tr("HTTP status %1 %2").arg(status).arg(message)));
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

void E2bWorkspaceProcess::upload()
{
    const QString folder = remoteFolder(m_workspace.root());
    m_step = step({ QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                    QStringLiteral("a=\"$PWD/$2\"; mkdir -p \"$1\" && cd \"$1\" && pwd && tar -x -f \"$a\" -m "
                                   "--no-same-owner; s=$?; rm -f \"$a\"; exit $s"),
                    QStringLiteral("sh"), folder, m_uploadName },
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
    // The archive lands beside the copy (never inside it), then comes back with the file API.
    m_step = step({ QStringLiteral("tar"), QStringLiteral("-c"), QStringLiteral("-f"),
                    QStringLiteral("../") + QFileInfo(m_downloadName).fileName(), QStringLiteral(".") },
                  m_remoteDir);
    connect(m_step.get(), &SandboxProcess::finished, this, [this](const ExitStatus &status) {
        if (m_ended)
            return;
        if (m_killed || status.signaled || status.exitCode != 0)
            return bringBack(status);
        fetch();
    });
    m_step->start();
    m_step->closeStdin();
}

void E2bWorkspaceProcess::fetch()
{
    if (!m_download.open()) {
        m_errors = tr("no temporary file for the archive: %1").arg(m_download.errorString()).toUtf8();
        return bringBack(ExitStatus{ 255, false, 0, false });
    }
    QUrlQuery query{ { QStringLiteral("path"), m_downloadName } };
    if (E2bProcess::needsBasicAuth(m_sandbox.envdVersion))
        query.addQueryItem(QStringLiteral("username"), QStringLiteral("user"));
    QNetworkRequest request = E2bProcess::envdHttpRequest(
        m_pool->api().settings(), m_sandbox, QStringLiteral("/files?") + query.toString(QUrl::FullyEncoded), {});
    request.setTransferTimeout(E2bApi::requestTimeoutMs);
    m_transfer = m_network->get(request);
    // Written to the temporary file as it arrives: what is held here is one chunk.
    connect(m_transfer, &QNetworkReply::readyRead, this, [this] {
        if (!m_transfer || m_transfer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
            return;
        const QByteArray chunk = m_transfer->readAll();
        if (m_download.size() + chunk.size() > E2bWorkspace::maximumBytes) {
            m_tooLarge = true;
            m_transfer->abort();
            return;
        }
        m_download.write(chunk);
    });
    connect(m_transfer, &QNetworkReply::finished, this, &E2bWorkspaceProcess::fetched);
}

void E2bWorkspaceProcess::fetched()
{
    QNetworkReply *reply = m_transfer;
    if (!reply || m_ended)
        return;
    reply->deleteLater();
    m_transfer = nullptr;
    removeRemote(m_downloadName);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 200 && !m_tooLarge)
        m_download.write(reply->readAll());
    m_download.flush();
    if (m_tooLarge || (status == 200 && reply->error() == QNetworkReply::NoError))
        return bringBack(ExitStatus{});
    m_errors = (status == 200 || status == 0)
        ? reply->errorString().toUtf8()
        : tr("HTTP status %1").arg(status).toUtf8() + ' ' + reply->readAll().left(200);
    bringBack(ExitStatus{ 255, false, 0, false });
}

void E2bWorkspaceProcess::removeRemote(const QString &name)
{
    // envd's filesystem service; not waited for: a file left behind is a name in the sandbox.
    QNetworkRequest request = E2bProcess::envdHttpRequest(
        m_pool->api().settings(), m_sandbox, QStringLiteral("/filesystem.Filesystem/Remove"), "application/json");
    request.setRawHeader("Connect-Protocol-Version", "1");
    request.setRawHeader("Connect-Timeout-Ms", QByteArray::number(E2bApi::requestTimeoutMs));
    QNetworkReply *reply = m_network->post(
        request, QJsonDocument(QJsonObject{ { QStringLiteral("path"), name } }).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
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
    if (m_tooLarge)
        return notBroughtBack(tr("its copy is larger than %1 MB").arg(E2bWorkspace::maximumBytes / (1024 * 1024)));
    if (download.signaled || download.exitCode != 0)
        return notBroughtBack(
            tr("the download did not end properly (%1)")
                .arg(QString::fromUtf8(m_errors).trimmed().replace(QLatin1String("sandbox: "), QString())));
    // The archive is read where it lies on disk: its members are views into the mapping.
    const qint64 size = m_download.size();
    const uchar *mapped = size > 0 ? m_download.map(0, size) : nullptr;
    if (size > 0 && !mapped)
        return notBroughtBack(tr("its archive cannot be read here: %1").arg(m_download.errorString()));
    const Result<TarArchive> archive
        = TarArchive::read(QByteArray::fromRawData(reinterpret_cast<const char *>(mapped), size));
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
    else if (m_transfer)
        m_transfer->abort();
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
