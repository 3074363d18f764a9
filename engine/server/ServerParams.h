#pragma once

#include "client/RpcMessage.h"
#include "client/WhenReady.h"
#include "protocol/BackendRef.h"
#include "protocol/Error.h"
#include "protocol/SettingsValues.h"

#include <QJsonObject>
#include <QList>

// How ProtocolServer's methods read their parameters and report errors: each failure names
// the parameter ("params.ref") and says what was expected.
namespace sandbox {

RpcError invalidParams(const Error &error);
RpcError engineError(const Error &error);
// "params." and `key`: where a parameter's error is reported.
QString param(const QString &key);
Result<BackendRef> readRef(const QJsonObject &params);
Result<QString> readString(const QJsonObject &params, const QString &key);
Result<quint64> readProcessId(const QJsonObject &params);
Result<QList<SecretUpdate>> readSecretUpdates(const QJsonObject &params);
// An engine operation that ended without a result.
Error cancelled(const QString &where);

} // namespace sandbox
