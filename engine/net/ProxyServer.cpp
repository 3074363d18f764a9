#include "ProxyServer.h"

#include "ProxyListener.h"

#include <QCoreApplication>
#include <QFile>

namespace sandbox {

QString ProxyServer::listen(const QString &path, const DomainRules &rules, const ProxyRefusalListener &refused,
                            const std::shared_ptr<const ChannelCredentials> &credentials,
                            const std::shared_ptr<const UpstreamProxy> &upstream)
{
    auto *server = new ProxyListener(rules, refused, credentials, upstream, this);
    server->setSocketOptions(QLocalServer::UserAccessOption);
    server->setMaxPendingConnections(128);
    if (!server->listen(path)) {
        const QString error = QCoreApplication::translate("sandbox::ProxyServer", "cannot listen on %1: %2")
                                  .arg(path, server->errorString());
        delete server;
        return error;
    }
    m_servers.insert(path, server);
    return {};
}

void ProxyServer::close(const QString &path)
{
    // Deleting the server also ends its connections (they are its children).
    if (QLocalServer *server = m_servers.take(path)) {
        server->close();
        delete server;
    }
    QFile::remove(path);
}

} // namespace sandbox
