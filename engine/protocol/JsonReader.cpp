#include "JsonReader.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::JsonReader", text);
}

QString expected(const char *what, const QJsonValue &got)
{
    return tr("expected %1, got %2").arg(tr(what), JsonReader::typeName(got));
}

} // namespace

JsonReader::JsonReader(const QJsonValue &value, QString path)
    : m_path(std::move(path))
{
    if (value.isObject())
        m_object = value.toObject();
    else
        m_error = Error{ m_path, expected("an object", value), {} };
}

QString JsonReader::childPath(const QString &key) const
{
    if (key.isEmpty())
        return m_path;
    if (m_path.isEmpty())
        return key;
    if (key.startsWith(QLatin1Char('[')))
        return m_path + key;
    return m_path + QLatin1Char('.') + key;
}

void JsonReader::fail(const QString &key, const QString &message)
{
    if (!m_error)
        m_error = Error{ childPath(key), message, {} };
}

bool JsonReader::has(const QString &key) const
{
    return ok() && m_object.contains(key);
}

QJsonValue JsonReader::value(const QString &key) const
{
    return m_object.value(key);
}

std::optional<QJsonValue> JsonReader::typedValue(const QString &key, bool (QJsonValue::*isType)() const,
                                                 const char *what)
{
    if (!ok())
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined()) {
        fail(key, tr("missing required key"));
        return std::nullopt;
    }
    if (!(v.*isType)()) {
        fail(key, expected(what, v));
        return std::nullopt;
    }
    return v;
}

QString JsonReader::requireString(const QString &key, bool allowEmpty)
{
    const std::optional<QJsonValue> v = typedValue(key, &QJsonValue::isString, "a string");
    if (!v)
        return {};
    QString s = v->toString();
    if (s.size() > maxStringLength) {
        fail(key, tr("is too long (%1 characters, at most %2)").arg(s.size()).arg(maxStringLength));
        return {};
    }
    if (!allowEmpty && s.isEmpty()) {
        fail(key, tr("must not be empty"));
        return {};
    }
    return s;
}

QString JsonReader::optionalString(const QString &key, const QString &fallback)
{
    if (!has(key))
        return fallback;
    return requireString(key, true);
}

bool JsonReader::requireBool(const QString &key)
{
    const std::optional<QJsonValue> v = typedValue(key, &QJsonValue::isBool, "a boolean");
    return v ? v->toBool() : false;
}

bool JsonReader::optionalBool(const QString &key, bool fallback)
{
    if (!has(key))
        return fallback;
    return requireBool(key);
}

double JsonReader::requireNumber(const QString &key)
{
    const std::optional<QJsonValue> v = typedValue(key, &QJsonValue::isDouble, "a number");
    if (!v)
        return 0;
    const double d = v->toDouble();
    if (!std::isfinite(d)) {
        fail(key, tr("must be a finite number"));
        return 0;
    }
    return d;
}

std::optional<double> JsonReader::optionalNumber(const QString &key)
{
    if (!has(key))
        return std::nullopt;
    const double d = requireNumber(key);
    if (!ok())
        return std::nullopt;
    return d;
}

qint64 JsonReader::requireInteger(const QString &key, qint64 min, qint64 max)
{
    const double d = requireNumber(key);
    if (!ok())
        return 0;
    if (d != std::floor(d)) {
        fail(key, tr("expected an integer, got %1").arg(d));
        return 0;
    }
    // Compared as doubles: JSON numbers are doubles, and beyond 2^53 integers are not exact.
    if (d < static_cast<double>(min) || d > static_cast<double>(max)) {
        fail(key, tr("must be between %1 and %2, got %3").arg(min).arg(max).arg(d, 0, 'g', 17));
        return 0;
    }
    return static_cast<qint64>(d);
}

std::optional<qint64> JsonReader::optionalInteger(const QString &key, qint64 min, qint64 max)
{
    if (!has(key))
        return std::nullopt;
    const qint64 i = requireInteger(key, min, max);
    if (!ok())
        return std::nullopt;
    return i;
}

QStringList JsonReader::optionalStringList(const QString &key)
{
    const QJsonArray array = optionalArray(key);
    QStringList list;
    if (!ok())
        return list;
    list.reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue v = array.at(i);
        const QString itemKey = key + QStringLiteral("[%1]").arg(i);
        if (!v.isString()) {
            fail(itemKey, expected("a string", v));
            return {};
        }
        if (v.toString().size() > maxStringLength) {
            fail(itemKey, tr("is too long (%1 characters, at most %2)").arg(v.toString().size()).arg(maxStringLength));
            return {};
        }
        list.append(v.toString());
    }
    return list;
}

QJsonArray JsonReader::requireArray(const QString &key)
{
    const std::optional<QJsonValue> v = typedValue(key, &QJsonValue::isArray, "an array");
    return v ? v->toArray() : QJsonArray();
}

QJsonArray JsonReader::optionalArray(const QString &key)
{
    if (!has(key))
        return {};
    return requireArray(key);
}

QJsonObject JsonReader::requireObject(const QString &key)
{
    const std::optional<QJsonValue> v = typedValue(key, &QJsonValue::isObject, "an object");
    return v ? v->toObject() : QJsonObject();
}

QJsonObject JsonReader::optionalObject(const QString &key)
{
    if (!has(key))
        return {};
    return requireObject(key);
}

QString JsonReader::requirePlainText(const QString &key)
{
    const QString s = requireString(key);
    if (!ok())
        return {};
    if (const QString problem = plainTextProblem(s); !problem.isEmpty()) {
        fail(key, problem);
        return {};
    }
    return s;
}

QString JsonReader::optionalPlainText(const QString &key)
{
    if (!has(key))
        return {};
    const QString s = requireString(key, true);
    if (!ok())
        return {};
    if (const QString problem = plainTextProblem(s); !problem.isEmpty()) {
        fail(key, problem);
        return {};
    }
    return s;
}

void JsonReader::rejectUnknownKeys(const QSet<QString> &allowed)
{
    rejectUnknownKeys(allowed, QString());
}

void JsonReader::rejectUnknownKeys(const QSet<QString> &allowed, const QString &why)
{
    if (!ok())
        return;
    for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
        if (!allowed.contains(it.key())) {
            QString key = it.key();
            // A hostile key may be huge or carry control characters; keep the path readable.
            if (key.size() > 64)
                key = key.left(64) + QStringLiteral("...");
            for (QChar &c : key) {
                if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                    c = QChar(0xfffd);
            }
            fail(key, why.isEmpty() ? tr("unknown key") : tr("unknown key; %1").arg(why));
            return;
        }
    }
}

QString JsonReader::typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return tr("null");
    case QJsonValue::Bool:
        return tr("a boolean");
    case QJsonValue::Double:
        return tr("a number");
    case QJsonValue::String:
        return tr("a string");
    case QJsonValue::Array:
        return tr("an array");
    case QJsonValue::Object:
        return tr("an object");
    case QJsonValue::Undefined:
        break;
    }
    return tr("nothing");
}

QString JsonReader::plainTextProblem(const QString &text)
{
    if (text.size() > maxStringLength)
        return tr("is too long (%1 characters, at most %2)").arg(text.size()).arg(maxStringLength);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if ((c < 0x20 && c != u'\t' && c != u'\n' && c != u'\r') || c == 0x7f)
            return tr("contains a control character at position %1; only plain text is allowed").arg(i);
        if (isBidirectionalOverride(c))
            return tr("contains a bidirectional override at position %1; only plain text is allowed").arg(i);
        if (c == u'<' && i + 1 < text.size()) {
            const QChar next = text.at(i + 1);
            if (next.isLetter() || next == u'/' || next == u'!' || next == u'?')
                return tr("contains markup (\"%1\"); only plain text is allowed, no HTML or scripts")
                    .arg(text.mid(i, 8));
        }
    }
    return {};
}

Result<QJsonObject> parseJsonObject(const QByteArray &text, const QString &where)
{
    if (text.size() > maxDocumentSize)
        return Error{ where,
                      tr("document is too large (%1 bytes, at most %2)").arg(text.size()).arg(maxDocumentSize),
                      {} };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error{ where,
                      tr("not valid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()),
                      {} };
    if (!document.isObject())
        return Error{ where,
                      tr("expected a JSON object, got %1").arg(document.isArray() ? tr("an array") : tr("a scalar")),
                      {} };
    return document.object();
}

} // namespace sandbox
