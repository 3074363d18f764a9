#pragma once

#include "client/RpcMessage.h"
#include "protocol/ActivationEvent.h"

#include <QFuture>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>

#include <memory>

namespace sandbox {

class Engine;
class ServerSession;
class Transport;

// Serves the local protocol for one Engine: decodes each client's requests, dispatches
// them to the engine, answers, and pushes the engine's events to every client. Bad input
// gets a JSON-RPC error naming the field and changes nothing; a client that goes away
// has its processes killed, while an activation it started runs to its atomic end.
// Lives in a thread with an event loop (the engine's signals are queued to it).
class ProtocolServer final : public QObject
{
    Q_OBJECT

public:
    explicit ProtocolServer(Engine &engine, QObject *parent = nullptr);
    ~ProtocolServer() override;

    // Serves one more client (a socket connection or an in-process pair's server end).
    void addConnection(std::unique_ptr<Transport> transport);
    int sessionCount() const;
    Engine &engine() const { return m_engine; }

    // Spawns wait for this (the start-up restore of the last selection), so a command sent
    // the moment the engine starts runs in the restored backend instead of failing.
    void holdSpawnsUntil(const QFuture<ActivationResult> &restore);

    // Kills every process spawned through this server (shutdown).
    void killAllProcesses();

signals:
    void sessionOpened(quint64 sessionId, const QString &peer);
    void sessionClosed(quint64 sessionId, const QString &peer, const QString &reason);

private:
    using Handler = void (ProtocolServer::*)(ServerSession *, const QJsonValue &, const QJsonObject &);
    struct Route;
    static const QList<Route> &routes();

    void onMessage(ServerSession *session, const QJsonObject &object);
    void onSessionGone(ServerSession *session, const QString &reason);
    void broadcast(const QString &method, const QJsonObject &params);

    void hello(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void backendsList(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void backendsDescribe(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void backendsActivate(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void settingsGet(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void settingsUpdate(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void secretsReplace(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void secretsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void policyGet(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void policySet(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void credentialsList(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void credentialsSet(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void credentialsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void credentialsRotateAuthority(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void processSpawn(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void processWrite(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void processResize(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void processCloseStdin(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void processKill(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void processList(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void packsList(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void packsEnable(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void packsDisable(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void packsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void packsInstall(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void interactionAnswer(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void engineStatus(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void refusalsList(ServerSession *s, const QJsonValue &id, const QJsonObject &params);
    void refusalsSubscribe(ServerSession *s, const QJsonValue &id, const QJsonObject &params);

    void updateSecret(ServerSession *s, const QJsonValue &id, const QJsonObject &params, bool remove);
    void packOperation(ServerSession *s, const QJsonValue &id, const QJsonObject &params, int operation);

    Engine &m_engine;
    QList<ServerSession *> m_sessions;
    quint64 m_nextSessionId = 1;
    QFuture<ActivationResult> m_restore;
};

} // namespace sandbox
