#include "DockerArchiveTransfer.h"

#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::power {

DockerArchiveTransfer::DockerArchiveTransfer(DockerApi api, QString containerId, QString remoteRoot, QObject *parent)
    : QObject(parent)
    , m_api(std::move(api))
    , m_containerId(std::move(containerId))
    , m_remoteRoot(std::move(remoteRoot))
{ }

QString DockerArchiveTransfer::archivePath(const QString &path) const
{
    return QStringLiteral("/containers/") + m_containerId + QStringLiteral("/archive?path=")
        + QString::fromLatin1(QUrl::toPercentEncoding(path));
}

void DockerArchiveTransfer::send(const QString &archive, Progress progress, Done done)
{
    QtConcurrent::run([this, api = m_api, path = archivePath(m_remoteRoot), archive, progress] {
        return api.putArchive(
            path, archive,
            [this, progress](qint64 sent) {
                QMetaObject::invokeMethod(
                    this, [progress, sent] { progress(sent); }, Qt::QueuedConnection);
            },
            transferTimeoutMs);
    }).then(this, [this, done](const Result<DockerApi::Response> &response) {
        if (!response.ok())
            return done(response.error().message);
        if (response.value().status != 200)
            return done(tr("the runtime refused the workspace's archive at %1: %2")
                            .arg(m_remoteRoot, response.value().message()));
        done(QString());
    });
}

void DockerArchiveTransfer::fetch(Sink sink, Done done)
{
    // "/." asks for the folder's contents: members relative to it, as WorkspaceSync reads them.
    QtConcurrent::run([this, api = m_api, path = archivePath(m_remoteRoot + QStringLiteral("/.")), sink] {
        return api.getArchive(
            path,
            [this, sink](const QByteArray &chunk) {
                bool more = false;
                QMetaObject::invokeMethod(
                    this, [&more, &sink, &chunk] { more = sink(chunk); }, Qt::BlockingQueuedConnection);
                return more;
            },
            transferTimeoutMs);
    }).then(this, [done](const Status &status) { done(status.ok() ? QString() : status.error().message); });
}

} // namespace sandbox::power
