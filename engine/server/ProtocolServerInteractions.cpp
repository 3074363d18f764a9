#include "ProtocolServer.h"
#include "ServerParams.h"
#include "ServerSession.h"
#include "client/ProtocolMethods.h"
#include "core/Engine.h"

#include <QJsonArray>

namespace sandbox {

void ProtocolServer::interactionAnswer(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<HostInteractionResponse> answer
        = HostInteractionResponse::fromJson(params.value(QStringLiteral("answer")), param(QStringLiteral("answer")));
    if (!answer.ok())
        return s->respondError(id, invalidParams(answer.error()));
    m_engine.answerInteraction(answer.value());
    s->respond(id, QJsonObject{});
}

void ProtocolServer::refusalsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const Refusal &refusal : m_engine.refusals())
        list.append(refusal.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("refusals"), list } });
}

void ProtocolServer::refusalsSubscribe(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    // From here on every refusal reaches it; one recorded while this answer is made may
    // arrive both in the answer and as a notification (clients drop ids they have seen).
    s->followRefusals();
    refusalsList(s, id, params);
}

} // namespace sandbox
