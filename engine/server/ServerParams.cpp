#include "ServerParams.h"

#include "protocol/JsonReader.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::ProtocolServer", text);
}

} // namespace

RpcError invalidParams(const Error &error)
{
    return RpcError::fromError(RpcErrorCode::InvalidParams, error);
}

RpcError engineError(const Error &error)
{
    return RpcError::fromError(RpcErrorCode::EngineError, error);
}

QString param(const QString &key)
{
    return QStringLiteral("params.") + key;
}

Result<BackendRef> readRef(const QJsonObject &params)
{
    const QJsonValue value = params.value(QStringLiteral("ref"));
    if (value.isUndefined())
        return Error{ param(QStringLiteral("ref")), tr("missing; expected a backend reference"), {} };
    if (value.isString()) {
        // Hand-written clients may use the canonical text form ("builtin:auto").
        Result<BackendRef> parsed = BackendRef::parse(value.toString());
        if (!parsed.ok())
            return Error{ param(QStringLiteral("ref")), parsed.error().message, {} };
        return parsed;
    }
    return BackendRef::fromJson(value, param(QStringLiteral("ref")));
}

Result<QString> readString(const QJsonObject &params, const QString &key)
{
    const QJsonValue value = params.value(key);
    if (value.isUndefined())
        return Error{ param(key), tr("missing; expected a string"), {} };
    if (!value.isString() || value.toString().isEmpty())
        return Error{ param(key), tr("expected a non-empty string, got %1").arg(JsonReader::typeName(value)), {} };
    return value.toString();
}

Result<quint64> readProcessId(const QJsonObject &params)
{
    const QJsonValue value = params.value(QStringLiteral("processId"));
    if (value.isUndefined())
        return Error{ param(QStringLiteral("processId")), tr("missing; expected a process id"), {} };
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number < 1 || number != double(quint64(number)) || number > 9007199254740991.0)
        return Error{ param(QStringLiteral("processId")),
                      tr("expected a positive integer, got %1").arg(JsonReader::typeName(value)),
                      {} };
    return quint64(number);
}

Result<QList<SecretUpdate>> readSecretUpdates(const QJsonObject &params)
{
    const QJsonValue value = params.value(QStringLiteral("secrets"));
    if (value.isUndefined())
        return QList<SecretUpdate>{};
    if (!value.isArray())
        return Error{ param(QStringLiteral("secrets")),
                      tr("expected an array, got %1").arg(JsonReader::typeName(value)),
                      {} };
    QList<SecretUpdate> updates;
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        Result<SecretUpdate> update = SecretUpdate::fromJson(array.at(i), param(QStringLiteral("secrets[%1]").arg(i)));
        if (!update.ok())
            return update.error();
        updates.append(std::move(update).value());
    }
    return updates;
}

Error cancelled(const QString &where)
{
    return Error{ where, tr("the engine abandoned the operation (shutting down?)"), {} };
}

} // namespace sandbox
