#include "JsonRpcLine.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::JsonRpcLine", text);
}

Error failure(const QString &where, const QString &field, const QString &message)
{
    return Error{ field.isEmpty() ? where : where + QStringLiteral(": ") + field, message, {} };
}

bool validId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    if (!id.isDouble())
        return false;
    const double number = id.toDouble();
    return std::isfinite(number) && number == std::floor(number) && std::fabs(number) <= 9007199254740991.0;
}

} // namespace

Result<JsonRpcLine> JsonRpcLine::parse(const QByteArray &line, const QString &where, QJsonValue *id)
{
    if (id)
        *id = QJsonValue(QJsonValue::Null);
    if (line.size() > maxLineBytes)
        return failure(where, QString(), tr("the message is longer than %1 bytes").arg(maxLineBytes));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failure(where, QString(),
                       tr("not JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset));
    if (!document.isObject())
        return failure(where, QString(), tr("a JSON-RPC message must be a JSON object"));

    JsonRpcLine message;
    message.object = document.object();
    const QJsonObject &object = message.object;
    const bool hasId = object.contains(QLatin1String("id"));
    if (hasId && id && validId(object.value(QLatin1String("id"))))
        *id = object.value(QLatin1String("id"));
    if (object.value(QLatin1String("jsonrpc")) != QJsonValue(QStringLiteral("2.0")))
        return failure(where, QStringLiteral("jsonrpc"), tr("must be \"2.0\""));
    if (hasId && !validId(object.value(QLatin1String("id"))))
        return failure(where, QStringLiteral("id"), tr("must be a string or an integer"));
    message.id = hasId ? object.value(QLatin1String("id")) : QJsonValue(QJsonValue::Undefined);

    if (object.contains(QLatin1String("method"))) {
        const QJsonValue method = object.value(QLatin1String("method"));
        if (!method.isString() || method.toString().isEmpty())
            return failure(where, QStringLiteral("method"), tr("must be a non-empty string"));
        if (object.contains(QLatin1String("result")) || object.contains(QLatin1String("error")))
            return failure(where, QString(), tr("a request cannot carry \"result\" or \"error\""));
        message.method = method.toString();
        if (object.contains(QLatin1String("params"))) {
            message.params = object.value(QLatin1String("params"));
            if (!message.params.isObject() && !message.params.isArray())
                return failure(where, QStringLiteral("params"), tr("must be an object or an array"));
        }
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key() != QLatin1String("jsonrpc") && it.key() != QLatin1String("id")
                && it.key() != QLatin1String("method") && it.key() != QLatin1String("params"))
                return failure(where, it.key(), tr("unknown member of a request"));
        }
        message.kind = hasId ? Kind::Request : Kind::Notification;
        return message;
    }

    if (!hasId)
        return failure(where, QString(), tr("neither a request (no \"method\") nor a response (no \"id\")"));
    const bool hasResult = object.contains(QLatin1String("result"));
    const bool hasError = object.contains(QLatin1String("error"));
    if (hasResult == hasError)
        return failure(where, QString(), tr("a response carries exactly one of \"result\" and \"error\""));
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key() != QLatin1String("jsonrpc") && it.key() != QLatin1String("id")
            && it.key() != QLatin1String("result") && it.key() != QLatin1String("error"))
            return failure(where, it.key(), tr("unknown member of a response"));
    }
    message.kind = Kind::Response;
    if (hasResult) {
        message.result = object.value(QLatin1String("result"));
        return message;
    }
    const QJsonValue error = object.value(QLatin1String("error"));
    if (!error.isObject())
        return failure(where, QStringLiteral("error"), tr("must be an object"));
    const QJsonObject errorObject = error.toObject();
    const QJsonValue code = errorObject.value(QLatin1String("code"));
    if (!code.isDouble() || code.toDouble() != std::floor(code.toDouble()) || std::fabs(code.toDouble()) > 2147483647.0)
        return failure(where, QStringLiteral("error.code"), tr("must be an integer"));
    if (!errorObject.value(QLatin1String("message")).isString())
        return failure(where, QStringLiteral("error.message"), tr("must be a string"));
    message.error = errorObject;
    return message;
}

QByteArray JsonRpcLine::serialize(const QJsonObject &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n';
}

QJsonObject JsonRpcLine::request(const QJsonValue &id, const QString &method, const QJsonObject &params)
{
    return QJsonObject{ { QStringLiteral("jsonrpc"), QStringLiteral("2.0") },
                        { QStringLiteral("id"), id },
                        { QStringLiteral("method"), method },
                        { QStringLiteral("params"), params } };
}

QJsonObject JsonRpcLine::response(const QJsonValue &id, const QJsonValue &result)
{
    return QJsonObject{ { QStringLiteral("jsonrpc"), QStringLiteral("2.0") },
                        { QStringLiteral("id"), id },
                        { QStringLiteral("result"), result.isUndefined() ? QJsonValue(QJsonValue::Null) : result } };
}

QJsonObject JsonRpcLine::errorResponse(const QJsonValue &id, int code, const QString &message, const QJsonValue &data)
{
    QJsonObject error{ { QStringLiteral("code"), code }, { QStringLiteral("message"), message } };
    if (!data.isUndefined() && !data.isNull())
        error.insert(QStringLiteral("data"), data);
    return QJsonObject{ { QStringLiteral("jsonrpc"), QStringLiteral("2.0") },
                        { QStringLiteral("id"), id.isUndefined() ? QJsonValue(QJsonValue::Null) : id },
                        { QStringLiteral("error"), error } };
}

QString JsonRpcLine::idKey(const QJsonValue &id)
{
    if (id.isString())
        return QStringLiteral("s:") + id.toString();
    return QStringLiteral("n:") + QString::number(id.toInteger());
}

} // namespace sandbox
