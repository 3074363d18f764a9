#include "UpstreamServer.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace sandbox::test {

UpstreamServer::UpstreamServer()
{
    m_thread.setObjectName(QStringLiteral("upstream"));
    m_context.moveToThread(&m_thread);
}

UpstreamServer::~UpstreamServer()
{
    if (m_thread.isRunning()) {
        QMetaObject::invokeMethod(
            &m_context, [this] { delete m_server; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
}

bool UpstreamServer::start()
{
    m_thread.start();
    QMetaObject::invokeMethod(
        &m_context, [this] { listenOnThread(); }, Qt::BlockingQueuedConnection);
    return m_port != 0;
}

void UpstreamServer::listenOnThread()
{
    // Runs on m_thread: the server and its sockets belong to it.
    m_server = new QTcpServer;
    if (!m_server->listen(QHostAddress::LocalHost, 0))
        return;
    m_port = m_server->serverPort();
    QObject::connect(m_server, &QTcpServer::newConnection, m_server, [this] {
        while (QTcpSocket *socket = m_server->nextPendingConnection()) {
            ++m_connections;
            auto *buffer = new QByteArray;
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                *buffer += socket->readAll();
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                ++m_requests;
                QByteArray body = "upstream-ok\n" + buffer->left(end) + "\n";
                if (buffer->startsWith("GET /large "))
                    body += QByteArray(kLargeBodyBytes, 'x');
                socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                              + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
                socket->disconnectFromHost();
                buffer->clear();
            });
            QObject::connect(socket, &QTcpSocket::disconnected, socket, [socket, buffer] {
                delete buffer;
                socket->deleteLater();
            });
        }
    });
}

} // namespace sandbox::test
