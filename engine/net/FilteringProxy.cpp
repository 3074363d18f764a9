#include "FilteringProxy.h"

#include "ProxyServer.h"
#include "protocol/RuntimeDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutexLocker>
#include <QTemporaryDir>

#include <utility>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::FilteringProxy", text);
}

} // namespace

FilteringProxy::FilteringProxy(QString baseDirectory)
    : m_baseDirectory(std::move(baseDirectory))
{
    m_thread.setObjectName(QStringLiteral("sandbox-proxy"));
}

FilteringProxy::~FilteringProxy()
{
    if (m_thread.isRunning()) {
        // The server and its connections die on their own thread.
        QMetaObject::invokeMethod(m_server, &QObject::deleteLater, Qt::QueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
}

Status FilteringProxy::start()
{
    QMutexLocker lock(&m_mutex);
    if (m_thread.isRunning())
        return Status::success();
    if (Status base = RuntimeDirectory::ensure(m_baseDirectory); !base)
        return Error{ QStringLiteral("proxy"),
                      tr("cannot use the engine's runtime directory for the proxy: %1").arg(base.error().toString()),
                      {} };
    // A directory of this proxy's own, created 0700 by QTemporaryDir.
    m_directory = std::make_unique<QTemporaryDir>(m_baseDirectory + QStringLiteral("/proxy-XXXXXX"));
    if (!m_directory->isValid()) {
        const QString message = tr("cannot create the proxy's runtime directory: %1").arg(m_directory->errorString());
        m_directory.reset();
        return Error{ QStringLiteral("proxy"), message, {} };
    }
    QFile::setPermissions(m_directory->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    m_server = new ProxyServer;
    m_server->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_server, &QObject::deleteLater);
    m_thread.start();
    return Status::success();
}

Result<QString> FilteringProxy::openChannel(const DomainRules &rules, ProxyRefusalListener refused,
                                            std::shared_ptr<const ChannelCredentials> credentials,
                                            std::shared_ptr<const UpstreamProxy> upstream)
{
    if (Status started = start(); !started)
        return started.error();
    QMutexLocker lock(&m_mutex);
    const QString path = m_directory->path() + QStringLiteral("/c%1.sock").arg(++m_nextChannel);
    if (Status length = RuntimeDirectory::checkSocketPath(path); !length)
        return length.error();
    QString error;
    QMetaObject::invokeMethod(
        m_server, [&] { error = m_server->listen(path, rules, refused, credentials, upstream); },
        Qt::BlockingQueuedConnection);
    if (!error.isEmpty())
        return Error{ QStringLiteral("proxy"), error, {} };
    return path;
}

Result<QString> FilteringProxy::openPrivateChannel(const DomainRules &rules, ProxyRefusalListener refused,
                                                   std::shared_ptr<const ChannelCredentials> credentials,
                                                   std::shared_ptr<const UpstreamProxy> upstream)
{
    if (Status started = start(); !started)
        return started.error();
    QMutexLocker lock(&m_mutex);
    const QString directory = m_directory->path() + QStringLiteral("/d%1").arg(++m_nextChannel);
    if (Status length = RuntimeDirectory::checkSocketPath(directory + QStringLiteral("/proxy.sock")); !length)
        return length.error();
    if (!QDir().mkdir(directory, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        return Error{ QStringLiteral("proxy"), tr("cannot create the channel directory %1").arg(directory), {} };
    const QString path = directory + QStringLiteral("/proxy.sock");
    QString error;
    QMetaObject::invokeMethod(
        m_server, [&] { error = m_server->listen(path, rules, refused, credentials, upstream); },
        Qt::BlockingQueuedConnection);
    if (!error.isEmpty()) {
        QDir().rmdir(directory);
        return Error{ QStringLiteral("proxy"), error, {} };
    }
    return path;
}

void FilteringProxy::closeChannel(const QString &socketPath)
{
    QMutexLocker lock(&m_mutex);
    if (!m_thread.isRunning())
        return;
    QMetaObject::invokeMethod(
        m_server, [&] { m_server->close(socketPath); }, Qt::BlockingQueuedConnection);
    const QString directory = QFileInfo(socketPath).absolutePath();
    if (directory != m_directory->path())
        QDir().rmdir(directory);
}

int FilteringProxy::channelCount() const
{
    QMutexLocker lock(&m_mutex);
    if (!m_thread.isRunning())
        return 0;
    int count = 0;
    QMetaObject::invokeMethod(
        m_server, [&] { count = m_server->count(); }, Qt::BlockingQueuedConnection);
    return count;
}

QString FilteringProxy::runtimeDirectory() const
{
    QMutexLocker lock(&m_mutex);
    return m_directory ? m_directory->path() : QString();
}

} // namespace sandbox
