#include "ProtocolServer.h"
#include "ServerParams.h"
#include "ServerSession.h"
#include "client/ProtocolMethods.h"
#include "core/Engine.h"

#include <QJsonArray>

namespace sandbox {

void ProtocolServer::policyGet(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    s->respond(id, QJsonObject{ { QStringLiteral("policy"), m_engine.policy().toJson() } });
}

void ProtocolServer::policySet(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<Policy> policy
        = Policy::fromJson(params.value(QStringLiteral("policy")), param(QStringLiteral("policy")));
    if (!policy.ok())
        return s->respondError(id, invalidParams(policy.error()));
    const Status status = m_engine.setPolicy(policy.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::credentialsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    const Result<QList<CredentialInfo>> list = m_engine.credentials();
    if (!list.ok())
        return s->respondError(id, engineError(list.error()));
    QJsonArray array;
    for (const CredentialInfo &info : list.value())
        array.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("credentials"), array } });
}

void ProtocolServer::credentialsSet(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<QString> name = readString(params, QStringLiteral("name"));
    if (!name.ok())
        return s->respondError(id, invalidParams(name.error()));
    const Result<QString> value = readString(params, QStringLiteral("value"));
    if (!value.ok())
        return s->respondError(id, invalidParams(value.error()));
    const Status status = m_engine.setCredential(name.value(), value.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::credentialsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<QString> name = readString(params, QStringLiteral("name"));
    if (!name.ok())
        return s->respondError(id, invalidParams(name.error()));
    const Status status = m_engine.removeCredential(name.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::credentialsRotateAuthority(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    const Result<QByteArray> certificate = m_engine.rotateCertificateAuthority();
    if (!certificate.ok())
        return s->respondError(id, engineError(certificate.error()));
    s->respond(id, QJsonObject{ { QStringLiteral("certificate"), QString::fromLatin1(certificate.value()) } });
}

} // namespace sandbox
