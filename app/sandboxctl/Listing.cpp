#include "Listing.h"

#include "Terminal.h"
#include "protocol/BackendRef.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QVariant>

#include <cmath>

namespace sandbox {

namespace {

constexpr double maxExactInteger = 9007199254740992.0; // 2^53

} // namespace

QJsonValue Listing::forOutput(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray array;
        const QJsonArray items = value.toArray();
        for (const QJsonValue &item : items)
            array.append(forOutput(item));
        return array;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (object.contains(QStringLiteral("source")) && object.contains(QStringLiteral("kind"))) {
            if (const Result<BackendRef> ref = BackendRef::fromJson(object); ref.ok())
                return ref.value().toString();
        }
        QJsonObject out;
        for (auto it = object.begin(); it != object.end(); ++it)
            out.insert(it.key(), forOutput(it.value()));
        return out;
    }
    if (value.isDouble()) {
        const QVariant variant = value.toVariant();
        if (variant.typeId() == QMetaType::LongLong)
            return value;
        const double number = value.toDouble();
        if (std::isfinite(number) && number == std::trunc(number) && std::abs(number) <= maxExactInteger)
            return QJsonValue(qint64(number));
    }
    return value;
}

QString Listing::number(const QJsonValue &value)
{
    const QJsonValue exact = forOutput(value);
    if (exact.toVariant().typeId() == QMetaType::LongLong)
        return QString::number(exact.toInteger());
    return QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
}

void Listing::printJson(const QJsonValue &value)
{
    const QJsonValue out = forOutput(value);
    const QJsonDocument document = out.isArray() ? QJsonDocument(out.toArray()) : QJsonDocument(out.toObject());
    Terminal::out(QString::fromUtf8(document.toJson(QJsonDocument::Indented)));
}

QString Listing::jsonLine(const QJsonObject &value)
{
    return QString::fromUtf8(QJsonDocument(forOutput(value).toObject()).toJson(QJsonDocument::Compact));
}

void Listing::printTable(const QStringList &header, const QList<QStringList> &rows, const QList<QStringList> &details)
{
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths.append(h.size());
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    auto line = [&widths](const QStringList &cells) {
        QString text;
        for (qsizetype i = 0; i < cells.size(); ++i)
            text += i + 1 < cells.size() ? cells[i].leftJustified(widths[i] + 2) : cells[i];
        Terminal::out(text + QLatin1Char('\n'));
    };
    line(header);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        line(rows[i]);
        for (const QString &detail : details.value(i))
            Terminal::out(QStringLiteral("    ") + detail + QLatin1Char('\n'));
    }
}

QString Listing::text(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return number(value);
    if (value.isUndefined() || value.isNull())
        return QStringLiteral("-");
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(forOutput(value).toArray()).toJson(QJsonDocument::Compact));
    const QJsonValue out = forOutput(value);
    if (out.isString())
        return out.toString();
    return QString::fromUtf8(QJsonDocument(out.toObject()).toJson(QJsonDocument::Compact));
}

QString Listing::listOrNone(const QStringList &items)
{
    return items.isEmpty() ? QStringLiteral("(none)") : items.join(QStringLiteral(", "));
}

} // namespace sandbox
