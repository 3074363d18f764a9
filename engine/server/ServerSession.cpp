#include "ServerSession.h"

#include "core/launcher/SandboxProcess.h"

#include <QCoreApplication>

namespace sandbox {

ServerSession::ServerSession(quint64 id, std::unique_ptr<Transport> transport, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_transport(std::move(transport))
{
    m_transport->setParent(nullptr);
}

ServerSession::~ServerSession()
{
    disconnect(m_transport.get(), nullptr, nullptr, nullptr);
}

void ServerSession::processEnded(quint64 processId)
{
    m_ended.insert(processId);
    SandboxProcess::releaseLater(m_processes.take(processId));
}

void ServerSession::markReady(const QString &clientName)
{
    m_ready = true;
    m_clientName = clientName;
}

void ServerSession::respond(const QJsonValue &id, const QJsonValue &result)
{
    if (!m_transport->send(RpcMessage::response(id, result).toJson())) {
        // Too large for one message (or the peer is gone): say so rather than go silent.
        m_transport->send(RpcMessage::errorResponse(
                              id,
                              RpcError{ RpcErrorCode::TooLarge,
                                        QCoreApplication::translate("sandbox::ServerSession",
                                                                    "the result exceeds the protocol's message limit"),
                                        {} })
                              .toJson());
    }
}

void ServerSession::respondError(const QJsonValue &id, const RpcError &error)
{
    m_transport->send(RpcMessage::errorResponse(id, error).toJson());
}

void ServerSession::notify(const QString &method, const QJsonObject &params)
{
    m_transport->send(RpcMessage::notification(method, params).toJson());
}

void ServerSession::closeWithError(const QJsonValue &id, const RpcError &error)
{
    respondError(id, error);
    m_transport->close();
}

} // namespace sandbox
