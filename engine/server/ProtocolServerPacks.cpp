#include "ProtocolServer.h"
#include "ServerParams.h"
#include "ServerSession.h"
#include "client/ProtocolMethods.h"
#include "core/Engine.h"

#include <QDir>
#include <QJsonArray>

namespace sandbox {

void ProtocolServer::packsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const PackInfo &info : m_engine.packs())
        list.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("packs"), list } });
}

void ProtocolServer::packsInstall(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<QString> path = readString(params, QStringLiteral("path"));
    if (!path.ok())
        return s->respondError(id, invalidParams(path.error()));
    if (!QDir::isAbsolutePath(path.value()))
        return s->respondError(
            id, invalidParams(Error{ param(QStringLiteral("path")), tr("the pack's path must be absolute"), {} }));
    QPointer<ServerSession> session(s);
    whenFinished(this, m_engine.installPackFrom(path.value()), [session, id](const QFuture<Result<PackInfo>> &done) {
        if (!session)
            return;
        if (done.isCanceled() || done.resultCount() == 0)
            return session->respondError(id, engineError(cancelled(QStringLiteral("packs"))));
        const Result<PackInfo> installed = done.result();
        if (!installed.ok())
            return session->respondError(id, engineError(installed.error()));
        session->respond(id, QJsonObject{ { QStringLiteral("pack"), installed.value().toJson() } });
    });
}

void ProtocolServer::packsEnable(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    packOperation(s, id, params, 0);
}

void ProtocolServer::packsDisable(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    packOperation(s, id, params, 1);
}

void ProtocolServer::packsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    packOperation(s, id, params, 2);
}

void ProtocolServer::packOperation(ServerSession *s, const QJsonValue &id, const QJsonObject &params, int operation)
{
    const Result<QString> packId = readString(params, QStringLiteral("packId"));
    if (!packId.ok())
        return s->respondError(id, invalidParams(packId.error()));
    QFuture<Status> future = operation == 0 ? m_engine.enablePack(packId.value())
        : operation == 1                    ? m_engine.disablePack(packId.value())
                                            : m_engine.removePack(packId.value());
    QPointer<ServerSession> session(s);
    whenFinished(this, future, [session, id](const QFuture<Status> &done) {
        if (!session)
            return;
        if (done.isCanceled() || done.resultCount() == 0)
            return session->respondError(id, engineError(cancelled(QStringLiteral("packs"))));
        const Status status = done.result();
        if (!status.ok())
            return session->respondError(id, engineError(status.error()));
        session->respond(id, QJsonObject{});
    });
}

} // namespace sandbox
