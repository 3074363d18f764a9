#include "LoopbackBridge.h"

#include <QCoreApplication>
#include <QLocalSocket>
#include <QTcpServer>
#include <QTcpSocket>

namespace sandbox {

LoopbackBridge::LoopbackBridge(QString socketPath, QObject *parent)
    : QObject(parent)
    , m_socketPath(std::move(socketPath))
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &LoopbackBridge::accept);
}

LoopbackBridge::~LoopbackBridge() = default;

Result<quint16> LoopbackBridge::listen()
{
    if (!m_server->listen(QHostAddress::LocalHost, 0))
        return Error{ QStringLiteral("policy.network"),
                      QCoreApplication::translate("sandbox::LoopbackBridge",
                                                  "cannot listen on 127.0.0.1 for the filtering proxy: %1")
                          .arg(m_server->errorString()),
                      {} };
    return m_server->serverPort();
}

int LoopbackBridge::connectionCount() const
{
    return static_cast<int>(findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly).size());
}

void LoopbackBridge::accept()
{
    while (QTcpSocket *tcp = m_server->nextPendingConnection()) {
        tcp->setParent(this);
        auto *local = new QLocalSocket(tcp);
        // Each side's bytes go to the other; when either ends, the other is flushed and ends.
        connect(tcp, &QTcpSocket::readyRead, local, [tcp, local] {
            if (local->state() == QLocalSocket::ConnectedState)
                local->write(tcp->readAll());
        });
        connect(local, &QLocalSocket::connected, tcp, [tcp, local] { local->write(tcp->readAll()); });
        connect(local, &QLocalSocket::readyRead, tcp, [tcp, local] { tcp->write(local->readAll()); });
        connect(local, &QLocalSocket::disconnected, tcp, [tcp, local] {
            tcp->write(local->readAll());
            tcp->disconnectFromHost();
        });
        connect(local, &QLocalSocket::errorOccurred, tcp, [tcp](QLocalSocket::LocalSocketError error) {
            if (error != QLocalSocket::PeerClosedError)
                tcp->abort();
        });
        connect(tcp, &QTcpSocket::disconnected, tcp, [tcp, local] {
            if (local->state() == QLocalSocket::ConnectedState)
                local->write(tcp->readAll());
            local->disconnectFromServer();
            tcp->deleteLater();
        });
        local->connectToServer(m_socketPath);
    }
}

} // namespace sandbox
