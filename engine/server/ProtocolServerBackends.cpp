#include "ProtocolServer.h"
#include "ServerParams.h"
#include "ServerSession.h"
#include "client/ProtocolMethods.h"
#include "core/Engine.h"

#include <QJsonArray>

namespace sandbox {

void ProtocolServer::backendsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const BackendInfo &info : m_engine.backends())
        list.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("backends"), list } });
}

void ProtocolServer::backendsDescribe(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    const Result<BackendInfo> info = m_engine.backend(ref.value());
    if (!info.ok())
        return s->respondError(id, engineError(info.error()));
    s->respond(id, QJsonObject{ { QStringLiteral("backend"), info.value().toJson() } });
}

void ProtocolServer::backendsActivate(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    std::optional<SettingsValues> candidate;
    if (params.contains(QStringLiteral("values"))) {
        Result<SettingsValues> values
            = SettingsValues::fromJson(params.value(QStringLiteral("values")), param(QStringLiteral("values")));
        if (!values.ok())
            return s->respondError(id, invalidParams(values.error()));
        candidate = std::move(values).value();
    }
    const Result<QList<SecretUpdate>> secrets = readSecretUpdates(params);
    if (!secrets.ok())
        return s->respondError(id, invalidParams(secrets.error()));

    // The activation runs to its end even if this client goes away; only the reply is dropped.
    QPointer<ServerSession> session(s);
    whenFinished(this, m_engine.activate(ref.value(), candidate, secrets.value()),
                 [session, id](const QFuture<ActivationResult> &future) {
                     if (!session)
                         return;
                     if (future.isCanceled() || future.resultCount() == 0)
                         return session->respondError(id, engineError(cancelled(Method::BackendsActivate)));
                     session->respond(id, future.result().toJson());
                 });
}

void ProtocolServer::settingsGet(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    const Result<SettingsView> view = m_engine.settings(ref.value());
    if (!view.ok())
        return s->respondError(id, engineError(view.error()));
    s->respond(id, view.value().toJson());
}

void ProtocolServer::settingsUpdate(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    if (!params.contains(QStringLiteral("values")))
        return s->respondError(
            id,
            invalidParams(
                Error{ param(QStringLiteral("values")), tr("missing; expected an object of setting values"), {} }));
    const Result<SettingsValues> values
        = SettingsValues::fromJson(params.value(QStringLiteral("values")), param(QStringLiteral("values")));
    if (!values.ok())
        return s->respondError(id, invalidParams(values.error()));
    const Result<QList<SecretUpdate>> secrets = readSecretUpdates(params);
    if (!secrets.ok())
        return s->respondError(id, invalidParams(secrets.error()));
    const Status status = m_engine.updateSettings(ref.value(), values.value(), secrets.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::secretsReplace(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    updateSecret(s, id, params, false);
}

void ProtocolServer::secretsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    updateSecret(s, id, params, true);
}

void ProtocolServer::updateSecret(ServerSession *s, const QJsonValue &id, const QJsonObject &params, bool remove)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    const Result<QString> field = readString(params, QStringLiteral("field"));
    if (!field.ok())
        return s->respondError(id, invalidParams(field.error()));
    SecretUpdate update;
    update.fieldId = field.value();
    update.action = remove ? SecretUpdate::Action::Remove : SecretUpdate::Action::Replace;
    if (!remove) {
        const Result<QString> value = readString(params, QStringLiteral("value"));
        if (!value.ok()) // an empty secret means "no change" elsewhere; here it is a mistake
            return s->respondError(id, invalidParams(value.error()));
        update.value = value.value();
    }
    const Result<SettingsView> current = m_engine.settings(ref.value());
    if (!current.ok())
        return s->respondError(id, engineError(current.error()));
    const Status status = m_engine.updateSettings(ref.value(), current.value().values, { update });
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

} // namespace sandbox
