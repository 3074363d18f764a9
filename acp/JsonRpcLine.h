#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace sandbox {

// One newline-delimited JSON-RPC 2.0 message of the Agent Client Protocol, as read from a
// peer: a request (method + id), a notification (method, no id) or a response (id +
// result or error). parse() accepts exactly what JSON-RPC 2.0 allows and names, for
// anything else, what is wrong and where (`where` is e.g. "editor line 3").
struct JsonRpcLine
{
    enum class Kind { Request, Notification, Response };

    // JSON-RPC 2.0's reserved error codes.
    static constexpr int ParseError = -32700;
    static constexpr int InvalidRequest = -32600;
    static constexpr int MethodNotFound = -32601;
    static constexpr int InvalidParams = -32602;
    static constexpr int InternalError = -32603;
    // Ours: the sandbox refused or could not do what was asked.
    static constexpr int Refused = -32000;

    // A line longer than this is refused (a peer gone wrong, not a message).
    static constexpr qsizetype maxLineBytes = 64 * 1024 * 1024;

    Kind kind = Kind::Notification;
    QJsonValue id; // string or number; undefined for a notification
    QString method;
    QJsonValue params; // object, array or undefined
    QJsonValue result; // responses
    QJsonObject error; // responses: { code, message, data? } when it failed
    QJsonObject object; // the whole message as received

    bool isError() const { return kind == Kind::Response && !error.isEmpty(); }

    // On failure the error's `where` is `where` (plus the field); `id` is set to the
    // message's id when one could be read, so the error can be answered to it.
    static Result<JsonRpcLine> parse(const QByteArray &line, const QString &where, QJsonValue *id = nullptr);

    // A compact, newline-terminated line.
    static QByteArray serialize(const QJsonObject &message);
    static QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params);
    static QJsonObject response(const QJsonValue &id, const QJsonValue &result);
    static QJsonObject errorResponse(const QJsonValue &id, int code, const QString &message,
                                     const QJsonValue &data = QJsonValue());
    // A key that tells ids apart by type and value ("s:abc", "n:3").
    static QString idKey(const QJsonValue &id);
};

} // namespace sandbox
