#include "AcpParams.h"

#include "AcpBridge.h"

#include <QDir>
#include <QJsonValue>

namespace sandbox::acpparams {

QString ParamReader::string(const QString &key, bool required)
{
    const QJsonValue value = params.value(key);
    if (value.isUndefined() || value.isNull()) {
        if (required && problem.isEmpty())
            problem = AcpBridge::tr("%1: params.%2 is required").arg(method, key);
        return {};
    }
    if (!value.isString() && problem.isEmpty())
        problem = AcpBridge::tr("%1: params.%2 must be a string").arg(method, key);
    return value.toString();
}

std::optional<qint64> ParamReader::integer(const QString &key)
{
    const QJsonValue value = params.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number < 0 || number != qint64(number) || number > 1e15) {
        if (problem.isEmpty())
            problem = AcpBridge::tr("%1: params.%2 must be a non-negative integer").arg(method, key);
        return std::nullopt;
    }
    return qint64(number);
}

QString ParamReader::absolutePath(const QString &key, bool required)
{
    const QString path = string(key, required);
    if (!path.isEmpty() && !QDir::isAbsolutePath(path) && problem.isEmpty())
        problem = AcpBridge::tr("%1: params.%2 must be an absolute path").arg(method, key);
    return path;
}

} // namespace sandbox::acpparams
