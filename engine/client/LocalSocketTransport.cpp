#include "client/LocalSocketTransport.h"

#include "client/PeerCredentials.h"

#include <QCoreApplication>
#include <QPointer>

#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>

namespace sandbox {

LocalSocketTransport::LocalSocketTransport(QLocalSocket *socket, QString peerDescription, QObject *parent)
    : Transport(parent)
    , m_socket(socket)
    , m_peer(std::move(peerDescription))
{
    m_socket->setParent(this);
    connect(m_socket, &QLocalSocket::readyRead, this, &LocalSocketTransport::onReadyRead);
    connect(m_socket, &QLocalSocket::disconnected, this, &LocalSocketTransport::onDisconnected);
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
        if (error != QLocalSocket::PeerClosedError && m_socket->state() == QLocalSocket::UnconnectedState)
            notifyDisconnected(m_socket->errorString());
    });
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &LocalSocketTransport::onReadyRead, Qt::QueuedConnection);
}

LocalSocketTransport::~LocalSocketTransport()
{
    // Disconnected during destruction: nobody listens any more.
    disconnect(m_socket, nullptr, this, nullptr);
    m_socket->abort();
}

std::unique_ptr<LocalSocketTransport> LocalSocketTransport::connectTo(const QString &path, int timeoutMs,
                                                                      QString *error, bool *refused)
{
    if (refused)
        *refused = false;
    auto *socket = new QLocalSocket;
    socket->connectToServer(path);
    if (!socket->waitForConnected(timeoutMs)) {
        if (error)
            *error = socket->errorString();
        delete socket;
        return nullptr;
    }
    // Talk only to an engine run by our own user: a socket someone else serves is refused
    // before a single request (which may carry a secret) is sent.
    const std::optional<PeerCredentials> peer = PeerCredentials::of(socket->socketDescriptor());
    if (!peer || peer->uid != quint32(::geteuid())) {
        if (refused)
            *refused = true;
        if (error)
            *error = peer
                ? QCoreApplication::translate("sandbox::LocalSocketTransport",
                                              "%1 is served by uid %2, not by us (uid %3); refusing to use it")
                      .arg(path)
                      .arg(peer->uid)
                      .arg(::geteuid())
                : QCoreApplication::translate("sandbox::LocalSocketTransport",
                                              "cannot read the credentials of the process serving %1")
                      .arg(path);
        delete socket;
        return nullptr;
    }
    return std::make_unique<LocalSocketTransport>(socket,
                                                  QStringLiteral("engine at %1 (%2)").arg(path, peer->toString()));
}

void LocalSocketTransport::close()
{
    if (m_closing)
        return;
    m_closing = true;
    sendUnsent();
    m_socket->disconnectFromServer(); // flushes pending writes first
    if (m_socket->state() == QLocalSocket::UnconnectedState)
        onDisconnected();
}

bool LocalSocketTransport::isOpen() const
{
    return !m_closing && m_socket->state() == QLocalSocket::ConnectedState;
}

void LocalSocketTransport::writeFrame(const QByteArray &frame)
{
    m_unsent.append(frame);
    if (!m_receiving)
        sendUnsent();
}

void LocalSocketTransport::sendUnsent()
{
    if (m_unsent.isEmpty())
        return;
#if defined(Q_OS_LINUX)
    // Straight to the socket while the QLocalSocket holds nothing unwritten (so the order
    // stays), as much as it takes without blocking. The rest, and any error, is the
    // QLocalSocket's to handle from the event loop as before: a peer that hung up is
    // noticed there after what it sent last has been read.
    if (m_socket->bytesToWrite() == 0 && m_socket->state() == QLocalSocket::ConnectedState) {
        const int fd = int(m_socket->socketDescriptor());
        ssize_t sent;
        do {
            sent = ::send(fd, m_unsent.constData(), size_t(m_unsent.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
        } while (sent < 0 && errno == EINTR);
        if (sent > 0)
            m_unsent.remove(0, sent);
    }
#endif
    if (!m_unsent.isEmpty())
        m_socket->write(m_unsent);
    m_unsent.clear();
}

void LocalSocketTransport::onReadyRead()
{
    if (m_closing)
        return;
    // A slot may close or delete us while the messages are handed out.
    QPointer<LocalSocketTransport> self(this);
    m_receiving = true;
    receiveBytes(m_socket->readAll());
    if (!self)
        return;
    m_receiving = false;
    sendUnsent();
}

void LocalSocketTransport::onDisconnected()
{
    // Deliver what arrived just before the hang-up.
    if (!m_closing && m_socket->bytesAvailable() > 0)
        receiveBytes(m_socket->readAll());
    notifyDisconnected(QString());
}

} // namespace sandbox
