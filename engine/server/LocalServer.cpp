#include "LocalServer.h"

#include "ProtocolServer.h"
#include "SandboxedPeer.h"
#include "ServerLog.h"
#include "client/LocalSocketTransport.h"
#include "client/PeerCredentials.h"
#include "client/RpcMessage.h"
#include "core/Engine.h"
#include "protocol/RuntimeDirectory.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>

#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

LocalServer::LocalServer(ProtocolServer &server, QObject *parent)
    : QObject(parent)
    , m_server(server)
    , m_local(new QLocalServer(this))
{
    connect(m_local, &QLocalServer::newConnection, this, &LocalServer::onNewConnection);
}

LocalServer::~LocalServer()
{
    close();
}

Status LocalServer::listen(const QString &path)
{
    if (const Status length = RuntimeDirectory::checkSocketPath(path); !length.ok())
        return length;
    const QString directory = QFileInfo(path).absolutePath();
    if (const Status dir = RuntimeDirectory::ensure(directory); !dir.ok())
        return dir;
    // Only the lock holder gets here, so whatever is at the path is a dead owner's socket.
    QLocalServer::removeServer(path);
    m_local->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_local->listen(path))
        return Error{ path, tr("cannot listen on the engine socket: %1").arg(m_local->errorString()), {} };
    if (::chmod(QFile::encodeName(path).constData(), 0600) != 0) {
        m_local->close();
        return Error{ path, tr("cannot make the engine socket owner-only"), {} };
    }
    m_path = path;
    return Status::success();
}

void LocalServer::close()
{
    if (!m_local->isListening())
        return;
    m_local->close(); // also removes the socket file
    m_path.clear();
}

bool LocalServer::isListening() const
{
    return m_local->isListening();
}

void LocalServer::onNewConnection()
{
    while (QLocalSocket *socket = m_local->nextPendingConnection()) {
        const std::optional<PeerCredentials> peer = PeerCredentials::of(socket->socketDescriptor());
        if (!peer) {
            qCWarning(lcServer, "refused a connection whose credentials cannot be read");
            socket->abort();
            socket->deleteLater();
            continue;
        }
        if (peer->uid != quint32(::geteuid())) {
            qCWarning(lcServer, "refused a connection from uid %u pid %lld: only uid %u may use this engine", peer->uid,
                      static_cast<long long>(peer->pid), unsigned(::geteuid()));
            emit peerRefused(peer->uid, peer->pid);
            // Tell the refused client why, so its user sees more than a dropped connection.
            const RpcError error{
                RpcErrorCode::PeerRefused,
                tr("connection refused: this engine belongs to uid %1 and serves no other user").arg(::geteuid()),
                {}
            };
            if (const auto frame = FrameDecoder::encode(
                    QJsonDocument(RpcMessage::errorResponse(QJsonValue(QJsonValue::Null), error).toJson())
                        .toJson(QJsonDocument::Compact)))
                socket->write(*frame);
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            socket->disconnectFromServer();
            continue;
        }
        if (QString why; SandboxedPeer::check(socket->socketDescriptor(), peer->pid, &why)) {
            qCWarning(lcServer, "refused a connection from a sandboxed process (uid %u pid %lld): %s", peer->uid,
                      static_cast<long long>(peer->pid), qPrintable(why));
            emit peerRefused(peer->uid, peer->pid);
            Refusal refusal;
            refusal.kind = Refusal::Kind::Engine;
            refusal.what = tr("a connection to the engine's socket from pid %1").arg(peer->pid);
            refusal.rule = tr("engine: commands running in a sandbox cannot use the engine (%1)").arg(why);
            m_server.engine().reportRefusal(refusal);
            const RpcError error{ RpcErrorCode::PeerRefused,
                                  tr("connection refused: commands running in a sandbox cannot use the engine"),
                                  {} };
            if (const auto frame = FrameDecoder::encode(
                    QJsonDocument(RpcMessage::errorResponse(QJsonValue(QJsonValue::Null), error).toJson())
                        .toJson(QJsonDocument::Compact)))
                socket->write(*frame);
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            socket->disconnectFromServer();
            continue;
        }
        m_server.addConnection(std::make_unique<LocalSocketTransport>(socket, peer->toString()));
    }
}

} // namespace sandbox
