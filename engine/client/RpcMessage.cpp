#include "client/RpcMessage.h"

#include "protocol/JsonReader.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::RpcMessage", text);
}

bool isValidId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    if (!id.isDouble())
        return false;
    const double v = id.toDouble();
    return v == double(qint64(v)) && v >= -9007199254740991.0 && v <= 9007199254740991.0;
}

Error fieldError(const QString &field, const QString &message)
{
    return Error{ field, message, {} };
}

} // namespace

RpcError RpcError::fromError(int code, const Error &error)
{
    return RpcError{ code, error.toString(), error.toJson() };
}

Error RpcError::toError(const QString &where) const
{
    if (data.isObject()) {
        Error e = Error::fromJson(data.toObject());
        if (!e.message.isEmpty())
            return e;
    }
    return Error{ where, message, {} };
}

QJsonObject RpcError::toJson() const
{
    QJsonObject o{ { QStringLiteral("code"), code }, { QStringLiteral("message"), message } };
    if (!data.isUndefined() && !data.isNull())
        o.insert(QStringLiteral("data"), data);
    return o;
}

RpcMessage RpcMessage::request(qint64 id, const QString &method, const QJsonObject &params)
{
    RpcMessage m;
    m.kind = Kind::Request;
    m.id = QJsonValue(id);
    m.method = method;
    m.params = params;
    return m;
}

RpcMessage RpcMessage::notification(const QString &method, const QJsonObject &params)
{
    RpcMessage m;
    m.kind = Kind::Notification;
    m.method = method;
    m.params = params;
    return m;
}

RpcMessage RpcMessage::response(const QJsonValue &id, const QJsonValue &result)
{
    RpcMessage m;
    m.kind = Kind::Response;
    m.id = id;
    m.result = result;
    return m;
}

RpcMessage RpcMessage::errorResponse(const QJsonValue &id, const RpcError &error)
{
    RpcMessage m;
    m.kind = Kind::ErrorResponse;
    m.id = id.isUndefined() ? QJsonValue(QJsonValue::Null) : id;
    m.error = error;
    return m;
}

QJsonObject RpcMessage::toJson() const
{
    QJsonObject o{ { QStringLiteral("jsonrpc"), QStringLiteral("2.0") } };
    switch (kind) {
    case Kind::Request:
        o.insert(QStringLiteral("id"), id);
        o.insert(QStringLiteral("method"), method);
        o.insert(QStringLiteral("params"), params);
        break;
    case Kind::Notification:
        o.insert(QStringLiteral("method"), method);
        o.insert(QStringLiteral("params"), params);
        break;
    case Kind::Response:
        o.insert(QStringLiteral("id"), id);
        o.insert(QStringLiteral("result"), result.isUndefined() ? QJsonValue(QJsonObject()) : result);
        break;
    case Kind::ErrorResponse:
        o.insert(QStringLiteral("id"), id);
        o.insert(QStringLiteral("error"), error.toJson());
        break;
    }
    return o;
}

QJsonValue RpcMessage::salvageId(const QJsonObject &object)
{
    const QJsonValue id = object.value(QStringLiteral("id"));
    return isValidId(id) ? id : QJsonValue(QJsonValue::Null);
}

Result<RpcMessage> RpcMessage::fromJson(const QJsonObject &object)
{
    const QJsonValue version = object.value(QStringLiteral("jsonrpc"));
    if (version != QJsonValue(QStringLiteral("2.0")))
        return fieldError(QStringLiteral("jsonrpc"),
                          version.isUndefined() ? tr("missing; expected \"2.0\"")
                                                : tr("expected \"2.0\", got %1").arg(JsonReader::typeName(version)));

    for (auto it = object.begin(); it != object.end(); ++it) {
        static const QStringList known{ QStringLiteral("jsonrpc"), QStringLiteral("id"),     QStringLiteral("method"),
                                        QStringLiteral("params"),  QStringLiteral("result"), QStringLiteral("error") };
        if (!known.contains(it.key()))
            return fieldError(QStringLiteral("message"),
                              tr("unknown member \"%1\" of a JSON-RPC message").arg(it.key()));
    }

    const bool hasId = object.contains(QStringLiteral("id"));
    const QJsonValue id = object.value(QStringLiteral("id"));
    const bool hasMethod = object.contains(QStringLiteral("method"));
    const bool hasResult = object.contains(QStringLiteral("result"));
    const bool hasError = object.contains(QStringLiteral("error"));

    RpcMessage m;
    if (hasMethod) {
        if (hasResult || hasError)
            return fieldError(QStringLiteral("method"), tr("a request cannot also carry \"result\" or \"error\""));
        const QJsonValue method = object.value(QStringLiteral("method"));
        if (!method.isString() || method.toString().isEmpty())
            return fieldError(QStringLiteral("method"),
                              tr("expected a non-empty string, got %1").arg(JsonReader::typeName(method)));
        m.method = method.toString();
        const QJsonValue params = object.value(QStringLiteral("params"));
        if (!params.isUndefined() && !params.isObject())
            return fieldError(QStringLiteral("params"),
                              tr("expected an object, got %1").arg(JsonReader::typeName(params)));
        m.params = params.toObject();
        if (hasId) {
            if (!isValidId(id))
                return fieldError(QStringLiteral("id"),
                                  tr("expected an integer or a string, got %1").arg(JsonReader::typeName(id)));
            m.kind = Kind::Request;
            m.id = id;
        } else {
            m.kind = Kind::Notification;
        }
        return m;
    }

    if (!hasId)
        return fieldError(QStringLiteral("method"), tr("missing; a message needs \"method\" or \"id\""));
    if (!id.isNull() && !isValidId(id))
        return fieldError(QStringLiteral("id"),
                          tr("expected an integer, a string or null, got %1").arg(JsonReader::typeName(id)));
    m.id = id;
    if (hasResult == hasError)
        return fieldError(QStringLiteral("result"), tr("a response carries exactly one of \"result\" and \"error\""));
    if (hasResult) {
        m.kind = Kind::Response;
        m.result = object.value(QStringLiteral("result"));
        return m;
    }
    const QJsonValue error = object.value(QStringLiteral("error"));
    if (!error.isObject())
        return fieldError(QStringLiteral("error"), tr("expected an object, got %1").arg(JsonReader::typeName(error)));
    const QJsonObject e = error.toObject();
    const QJsonValue code = e.value(QStringLiteral("code"));
    if (!code.isDouble() || code.toDouble() != double(int(code.toDouble())))
        return fieldError(QStringLiteral("error.code"),
                          tr("expected an integer, got %1").arg(JsonReader::typeName(code)));
    const QJsonValue message = e.value(QStringLiteral("message"));
    if (!message.isString())
        return fieldError(QStringLiteral("error.message"),
                          tr("expected a string, got %1").arg(JsonReader::typeName(message)));
    m.kind = Kind::ErrorResponse;
    m.error = RpcError{ code.toInt(), message.toString(), e.value(QStringLiteral("data")) };
    return m;
}

Result<QJsonObject> decodePayload(const QByteArray &payload)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error{ QStringLiteral("message"),
                      tr("not valid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()),
                      {} };
    if (!doc.isObject())
        return Error{ QStringLiteral("message"), tr("expected a JSON object"), {} };
    return doc.object();
}

} // namespace sandbox
