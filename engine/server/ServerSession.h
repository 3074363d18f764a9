#pragma once

#include "client/RpcMessage.h"
#include "client/Transport.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <memory>

namespace sandbox {

class SandboxProcess;

// One client connection of the ProtocolServer: its transport, whether it has completed
// the hello handshake, and the processes it spawned (killed when it goes away).
class ServerSession final : public QObject
{
    Q_OBJECT

public:
    ServerSession(quint64 id, std::unique_ptr<Transport> transport, QObject *parent = nullptr);
    ~ServerSession() override;

    quint64 id() const { return m_id; }
    Transport *transport() const { return m_transport.get(); }
    QString peer() const { return m_transport->peerDescription(); }
    QString clientName() const { return m_clientName; }
    bool isReady() const { return m_ready; }
    void markReady(const QString &clientName);

    void respond(const QJsonValue &id, const QJsonValue &result);
    void respondError(const QJsonValue &id, const RpcError &error);
    void notify(const QString &method, const QJsonObject &params);
    // Sends an error and hangs up (bad stream, refused handshake).
    void closeWithError(const QJsonValue &id, const RpcError &error);

    QHash<quint64, std::shared_ptr<SandboxProcess>> &processes() { return m_processes; }
    // From inside the process's own signal: it is released once that returns, and is
    // remembered as ended, so a write or close the client sent before it saw the end
    // (crossing the exit notification) is a no-op.
    void processEnded(quint64 processId);
    bool hasEnded(quint64 processId) const { return m_ended.contains(processId); }
    // Whether this client asked for refusals as they happen (refusals.subscribe).
    bool followsRefusals() const { return m_followsRefusals; }
    void followRefusals() { m_followsRefusals = true; }

private:
    quint64 m_id;
    std::unique_ptr<Transport> m_transport;
    bool m_ready = false;
    QString m_clientName;
    QHash<quint64, std::shared_ptr<SandboxProcess>> m_processes;
    QSet<quint64> m_ended;
    bool m_followsRefusals = false;
};

} // namespace sandbox
