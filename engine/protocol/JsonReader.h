#pragma once

#include "Error.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// Strict, path-addressed reading of one JSON object. Every decoder uses it so
// that unknown keys, missing keys and wrong types are reported the same way:
// "<path>.<key>: expected a string, got a number".
// The first error wins; later reads become no-ops and return defaults.
class JsonReader final
{
public:
    JsonReader(const QJsonValue &value, QString path);

    QString path() const { return m_path; }
    QString childPath(const QString &key) const;
    bool ok() const { return !m_error.has_value(); }
    const Error &error() const { return *m_error; }
    void fail(const QString &key, const QString &message);

    bool has(const QString &key) const;
    QString requireString(const QString &key, bool allowEmpty = false);
    QString optionalString(const QString &key, const QString &fallback = {});
    bool optionalBool(const QString &key, bool fallback);
    std::optional<double> optionalNumber(const QString &key);
    double requireNumber(const QString &key);
    QStringList optionalStringList(const QString &key);
    QJsonArray optionalArray(const QString &key);
    QJsonObject optionalObject(const QString &key);
    QJsonValue value(const QString &key) const;

    // Rejects any key of the object not in `allowed` (call after reading).
    void rejectUnknownKeys(const QSet<QString> &allowed);

    static QString typeName(const QJsonValue &value);

private:
    QJsonObject m_object;
    QString m_path;
    std::optional<Error> m_error;
};

// Parses text into a JSON object with an error naming `where` and the offset.
Result<QJsonObject> parseJsonObject(const QByteArray &text, const QString &where);

} // namespace sandbox
