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
    , m_sync(m_request.effectiveWorkspace(), policy, *this, tr("the E2B sandbox"))
{
    m_network = new QNetworkAccessManager(this);
    connect(&m_sync, &WorkspaceSync::uploaded, this, [this] { runCommand(m_remoteDir); });
    connect(&m_sync, &WorkspaceSync::uploadFailed, this, [this](const QString &why) {
        if (m_killed)
            return finish(ExitStatus{ 0, true, SIGKILL, false });
        fail(why);
    });
    connect(&m_sync, &WorkspaceSync::note, this, &SandboxProcess::stderrReady);
    connect(&m_sync, &WorkspaceSync::broughtBack, this, [this](const ExitStatus &status) {
        if (m_killed)
            return abandon();
        finish(status);
    });
}

E2bWorkspaceProcess::~E2bWorkspaceProcess() = default;

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
    m_sync.upload();
}

void E2bWorkspaceProcess::send(const QString &archive, Progress progress, Done done)
{
    if (m_killed)
        return finish(ExitStatus{ 0, true, SIGKILL, false });
    m_archive = archive;
    m_progress = std::move(progress);
    m_done = std::move(done);
    const QString unique = QUuid::createUuid().toString(QUuid::Id128);
    const QString folder = remoteFolder(m_sync.workspace().root());
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
    post();
}

void E2bWorkspaceProcess::post()
{
    // envd's file API: a raw body from envd 0.5.7 on, a multipart form before.
    const bool raw = QVersionNumber::fromString(m_sandbox.envdVersion) >= QVersionNumber(0, 5, 7);
    QUrlQuery query{ { QStringLiteral("path"), m_uploadName } };
    if (E2bProcess::needsBasicAuth(m_sandbox.envdVersion))
        query.addQueryItem(QStringLiteral("username"), QStringLiteral("user"));
    auto *file = new QFile(m_archive);
    if (!file->open(QIODevice::ReadOnly)) {
        delete file;
        return fail(tr("the workspace's archive cannot be read: %1").arg(m_archive));
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
    connect(m_transfer, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64) {
        if (m_progress)
            m_progress(sent);
    });
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
        if (m_collected.size() > SyncedWorkspace::maximumBytes && m_step)
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
    const QString folder = remoteFolder(m_sync.workspace().root());
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
        if (!remoteDir.startsWith(QLatin1Char('/')))
            return fail(tr("the sandbox did not name its copy of the workspace"));
        m_remoteDir = remoteDir;
        std::exchange(m_done, {})(QString());
    });
    m_step->start();
    m_step->closeStdin();
}

void E2bWorkspaceProcess::runCommand(const QString &remoteDir)
{
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
        m_sync.bringBack(status);
    });
    m_command->start();
    if (!m_stdin.isEmpty())
        m_command->writeStdin(std::exchange(m_stdin, {}));
    if (m_closeStdin)
        m_command->closeStdin();
}

void E2bWorkspaceProcess::fetch(Sink sink, Done done)
{
    m_sink = std::move(sink);
    m_done = std::move(done);
    SandboxProcess::releaseLater(std::exchange(m_step, {}));
    // The archive lands beside the copy (never inside it), then comes back with the file API.
    m_step = step({ QStringLiteral("tar"), QStringLiteral("-c"), QStringLiteral("-f"),
                    QStringLiteral("../") + QFileInfo(m_downloadName).fileName(), QStringLiteral(".") },
                  m_remoteDir);
    connect(m_step.get(), &SandboxProcess::finished, this, [this](const ExitStatus &status) {
        if (m_ended)
            return;
        if (m_killed)
            return abandon();
        if (status.signaled || status.exitCode != 0)
            return fetchFailed(QString::fromUtf8(m_errors).trimmed().replace(QLatin1String("sandbox: "), QString()));
        fetchArchive();
    });
    m_step->start();
    m_step->closeStdin();
}

void E2bWorkspaceProcess::fetchArchive()
{
    QUrlQuery query{ { QStringLiteral("path"), m_downloadName } };
    if (E2bProcess::needsBasicAuth(m_sandbox.envdVersion))
        query.addQueryItem(QStringLiteral("username"), QStringLiteral("user"));
    QNetworkRequest request = E2bProcess::envdHttpRequest(
        m_pool->api().settings(), m_sandbox, QStringLiteral("/files?") + query.toString(QUrl::FullyEncoded), {});
    request.setTransferTimeout(E2bApi::requestTimeoutMs);
    m_transfer = m_network->get(request);
    connect(m_transfer, &QNetworkReply::readyRead, this, [this] {
        if (!m_transfer || m_sinkFull || m_transfer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
            return;
        if (!m_sink(m_transfer->readAll())) {
            m_sinkFull = true;
            m_transfer->abort();
        }
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
    if (m_killed)
        return abandon();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_sinkFull)
        return fetchFailed(tr("the archive was too large"));
    if (status == 200 && reply->error() == QNetworkReply::NoError) {
        if (!m_sink(reply->readAll()))
            return fetchFailed(tr("the archive was too large"));
        return std::exchange(m_done, {})(QString());
    }
    fetchFailed(status == 200 || status == 0 ? reply->errorString()
                                             : tr("HTTP status %1").arg(status) + QLatin1Char(' ')
                        + QString::fromUtf8(reply->readAll().left(200)));
}

void E2bWorkspaceProcess::fetchFailed(const QString &why)
{
    if (m_done)
        std::exchange(m_done, {})(why);
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

void E2bWorkspaceProcess::abandon()
{
    if (m_ended)
        return;
    emit stderrReady(tr("sandbox: the workspace was not brought back from the E2B sandbox\n").toUtf8());
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
    else
        m_sync.abort();
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
