#include "core/workspace/WorkspaceSync.h"

#include <QFileInfo>

#include <utility>

namespace sandbox {

namespace {

constexpr qint64 megabyte = 1024 * 1024;

} // namespace

WorkspaceSync::WorkspaceSync(QString root, const Policy &policy, WorkspaceTransfer &transfer, QString remote,
                             QObject *parent)
    : QObject(parent)
    , m_workspace(std::move(root), policy)
    , m_transfer(transfer)
    , m_remote(std::move(remote))
{
    connect(&m_tar, &QProcess::finished, this, &WorkspaceSync::archived);
    connect(&m_tar, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && !m_aborted)
            emit uploadFailed(tr("tar could not be started on this computer: %1").arg(m_tar.errorString()));
    });
}

WorkspaceSync::~WorkspaceSync()
{
    m_aborted = true;
    if (m_tar.state() != QProcess::NotRunning) {
        m_tar.kill();
        m_tar.waitForFinished(5000);
    }
}

void WorkspaceSync::abort()
{
    if (m_tar.state() != QProcess::NotRunning)
        m_tar.kill();
}

void WorkspaceSync::upload()
{
    m_workspace.snapshot();
    if (!m_upload.open()) {
        emit uploadFailed(tr("no temporary file for the workspace's archive: %1").arg(m_upload.errorString()));
        return;
    }
    // tar writes the archive into the temporary file ("-f -" names the archive).
    QStringList arguments = m_workspace.tarArguments();
    arguments[arguments.indexOf(QStringLiteral("-"))] = m_upload.fileName();
    m_tar.start(QStringLiteral("tar"), arguments);
}

void WorkspaceSync::archived()
{
    if (m_aborted)
        return;
    if (m_tar.exitStatus() != QProcess::NormalExit || m_tar.exitCode() != 0) {
        emit uploadFailed(tr("tar could not archive the workspace %1: %2")
                              .arg(m_workspace.root(), QString::fromLocal8Bit(m_tar.readAllStandardError()).trimmed()));
        return;
    }
    m_uploadSize = QFileInfo(m_upload.fileName()).size();
    if (m_uploadSize > SyncedWorkspace::maximumBytes) {
        emit uploadFailed(tr("the workspace %1 is larger than %2 MB, too large to upload for every command")
                              .arg(m_workspace.root())
                              .arg(SyncedWorkspace::maximumBytes / megabyte));
        return;
    }
    m_transfer.send(
        m_upload.fileName(), [this](qint64 sent) { sendProgress(sent); },
        [this](const QString &error) {
            if (m_aborted)
                return;
            if (error.isEmpty())
                emit uploaded();
            else
                emit uploadFailed(error);
        });
}

void WorkspaceSync::sendProgress(qint64 sent)
{
    if (m_uploadSize < progressBytes || m_uploadSize <= 0)
        return;
    // A note at each quarter: enough to see it move, never a flood on stderr.
    const int quarter = int(qMin<qint64>(4, sent * 4 / m_uploadSize));
    if (quarter <= m_progressQuarter)
        return;
    m_progressQuarter = quarter;
    emit note(tr("sandbox: workspace upload to %1: %2 of %3 MB\n")
                  .arg(m_remote)
                  .arg(sent / megabyte)
                  .arg(m_uploadSize / megabyte)
                  .toUtf8());
}

void WorkspaceSync::bringBack(const ExitStatus &command)
{
    m_command = command;
    if (!m_download.open()) {
        fetched(tr("no temporary file for the archive: %1").arg(m_download.errorString()));
        return;
    }
    m_transfer.fetch(
        [this](const QByteArray &chunk) {
            // Written to the temporary file as it arrives: what is held here is one chunk.
            if (m_download.size() + chunk.size() > SyncedWorkspace::maximumBytes) {
                m_tooLarge = true;
                return false;
            }
            return m_download.write(chunk) == chunk.size();
        },
        [this](const QString &error) {
            if (!m_aborted)
                fetched(error);
        });
}

void WorkspaceSync::notBroughtBack(const QString &why)
{
    // The command's own status would say all went well: the result says it did not.
    const QString status = m_command.signaled ? tr("was ended by signal %1").arg(m_command.signal)
                                              : tr("exited with status %1").arg(m_command.exitCode);
    emit note(tr("sandbox: the command %1, but nothing of the workspace was brought back from %2: %3; this "
                 "computer's workspace is as it was before the command\n")
                  .arg(status, m_remote, why)
                  .toUtf8());
    emit broughtBack(ExitStatus{ 255, false, 0, false });
}

void WorkspaceSync::fetched(const QString &error)
{
    m_download.flush();
    if (m_tooLarge)
        return notBroughtBack(tr("its copy is larger than %1 MB").arg(SyncedWorkspace::maximumBytes / megabyte));
    if (!error.isEmpty())
        return notBroughtBack(tr("the download did not end properly (%1)").arg(error));
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
    const SyncedWorkspace::Outcome outcome = m_workspace.apply(archive.value());
    for (const QString &conflict : outcome.conflicts)
        emit note(tr("sandbox: %1 changed on this computer while the command ran; the sandbox's version is "
                     "%1.sandbox-conflict\n")
                      .arg(conflict)
                      .toUtf8());
    for (const QString &refused : outcome.refused)
        emit note(tr("sandbox: not brought back: %1\n").arg(refused).toUtf8());
    emit broughtBack(m_command);
}

} // namespace sandbox
