#include "Error.h"

#include "JsonReader.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace sandbox {

namespace {

// Deeper detail trees are never produced by us and would only make rendering recursive.
constexpr int maxDetailDepth = 8;
constexpr qsizetype maxDetails = 4096;

void appendLines(const Error &error, int depth, QString &out)
{
    if (depth > maxDetailDepth)
        return;
    for (const Error &detail : error.details) {
        out += QLatin1Char('\n') + QString(2 * (depth + 1), QLatin1Char(' ')) + QStringLiteral("- ");
        out += detail.where.isEmpty() ? detail.message : detail.where + QStringLiteral(": ") + detail.message;
        appendLines(detail, depth + 1, out);
    }
}

Error lenientFromJson(const QJsonObject &object, int depth)
{
    Error error;
    error.where = object.value(QLatin1String("where")).toString();
    error.message = object.value(QLatin1String("message")).toString();
    if (depth >= maxDetailDepth)
        return error;
    const QJsonArray details = object.value(QLatin1String("details")).toArray();
    for (qsizetype i = 0; i < details.size() && i < maxDetails; ++i)
        error.details.append(lenientFromJson(details.at(i).toObject(), depth + 1));
    return error;
}

Status strictFromJson(const QJsonValue &value, const QString &path, int depth, Error &error)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("where"), QStringLiteral("message"), QStringLiteral("details") });
    error = Error();
    error.where = reader.optionalString(QStringLiteral("where"));
    error.message = reader.requireString(QStringLiteral("message"));
    const QJsonArray details = reader.optionalArray(QStringLiteral("details"));
    if (!reader.ok())
        return reader.error();
    if (!details.isEmpty() && depth >= maxDetailDepth)
        return Error{ reader.childPath(QStringLiteral("details")),
                      QCoreApplication::translate("sandbox::Error", "details nest too deeply (at most %1 levels)")
                          .arg(maxDetailDepth),
                      {} };
    if (details.size() > maxDetails)
        return Error{ reader.childPath(QStringLiteral("details")),
                      QCoreApplication::translate("sandbox::Error", "too many details (%1, at most %2)")
                          .arg(details.size())
                          .arg(maxDetails),
                      {} };
    for (qsizetype i = 0; i < details.size(); ++i) {
        Error detail;
        const Status decoded
            = strictFromJson(details.at(i), reader.childPath(QStringLiteral("details[%1]").arg(i)), depth + 1, detail);
        if (!decoded)
            return decoded;
        error.details.append(detail);
    }
    return Status::success();
}

} // namespace

QString Error::toString() const
{
    QString out = where.isEmpty() ? message : where + QStringLiteral(": ") + message;
    appendLines(*this, 0, out);
    return out;
}

QJsonObject Error::toJson() const
{
    QJsonObject object{ { QStringLiteral("message"), message } };
    if (!where.isEmpty())
        object.insert(QStringLiteral("where"), where);
    if (!details.isEmpty()) {
        QJsonArray array;
        for (const Error &detail : details)
            array.append(detail.toJson());
        object.insert(QStringLiteral("details"), array);
    }
    return object;
}

Error Error::fromJson(const QJsonObject &object)
{
    return lenientFromJson(object, 0);
}

Status errorFromJson(const QJsonValue &value, const QString &path, Error &decoded)
{
    Error error;
    const Status status = strictFromJson(value, path, 0, error);
    if (status)
        decoded = std::move(error);
    return status;
}

} // namespace sandbox
