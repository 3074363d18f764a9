#pragma once

#include "client/ProtocolNames.h" // RpcErrorCode
#include "protocol/Error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace sandbox {

struct RpcError
{
    int code = RpcErrorCode::InternalError;
    QString message;
    QJsonValue data; // a sandbox::Error as JSON when there is one

    static RpcError fromError(int code, const Error &error);
    // The sandbox::Error this carries (from data when present, else code + message).
    Error toError(const QString &where) const;
    QJsonObject toJson() const;
};

// One decoded JSON-RPC 2.0 message. Decoding is strict: "jsonrpc" must be "2.0", ids are
// integers or strings, params an object, and a message is exactly one of request,
// notification, result response or error response.
struct RpcMessage
{
    enum class Kind { Request, Notification, Response, ErrorResponse };

    Kind kind = Kind::Notification;
    QJsonValue id; // requests and responses; Null when a response cannot name its request
    QString method;
    QJsonObject params;
    QJsonValue result;
    RpcError error;

    static RpcMessage request(qint64 id, const QString &method, const QJsonObject &params = {});
    static RpcMessage notification(const QString &method, const QJsonObject &params = {});
    static RpcMessage response(const QJsonValue &id, const QJsonValue &result);
    static RpcMessage errorResponse(const QJsonValue &id, const RpcError &error);

    QJsonObject toJson() const;
    // Errors carry the JSON-RPC code in Error::where as "jsonrpc" and name the field.
    static Result<RpcMessage> fromJson(const QJsonObject &object);
    // The id of a message that failed to decode, when it had a usable one (for the error reply).
    static QJsonValue salvageId(const QJsonObject &object);
};

// Parses one frame payload into a JSON object; the error says where the text went wrong.
Result<QJsonObject> decodePayload(const QByteArray &payload);

} // namespace sandbox
