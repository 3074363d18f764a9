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
    // The object's keys, for objects keyed by data (settings by field id, env by name).
    QStringList keys() const { return m_object.keys(); }

    // Additions: integers, required booleans/objects/arrays and plain (markup-free) text.
    bool requireBool(const QString &key);
    qint64 requireInteger(const QString &key, qint64 min, qint64 max);
    std::optional<qint64> optionalInteger(const QString &key, qint64 min, qint64 max);
    QJsonObject requireObject(const QString &key);
    QJsonArray requireArray(const QString &key);
    QString requirePlainText(const QString &key);
    QString optionalPlainText(const QString &key);

    // Rejects any key of the object not in `allowed` (call after reading).
    void rejectUnknownKeys(const QSet<QString> &allowed);
    // Same, appending `why` to the message ("unknown key; descriptors are data only").
    void rejectUnknownKeys(const QSet<QString> &allowed, const QString &why);

    // With its article, as messages use it: "a string", "an array", "null".
    static QString typeName(const QJsonValue &value);

    // Strings longer than this are rejected by every read (a protocol object never needs more).
    static constexpr qsizetype maxStringLength = 1024 * 1024;
    // Empty when `text` is plain text; otherwise why not (markup such as "<script", control
    // characters). Descriptors and interactions are shown to users and must not carry markup.
    static QString plainTextProblem(const QString &text);
    // Bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069) let text display
    // differently from what it says; no text shown to a user may carry them.
    static bool isBidirectionalOverride(char16_t c)
    {
        return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }

private:
    // The value at `key` when present and of the type `isType` tests for; otherwise fails
    // (missing key, or expected `what`) and returns nothing. Every required read starts here.
    std::optional<QJsonValue> typedValue(const QString &key, bool (QJsonValue::*isType)() const, const char *what);

    QJsonObject m_object;
    QString m_path;
    std::optional<Error> m_error;
};

// Parses text into a JSON object with an error naming `where` and the offset.
// Documents larger than maxDocumentSize are refused before parsing.
Result<QJsonObject> parseJsonObject(const QByteArray &text, const QString &where);
constexpr qsizetype maxDocumentSize = 16 * 1024 * 1024;

} // namespace sandbox
