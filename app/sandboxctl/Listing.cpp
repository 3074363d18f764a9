#include "Listing.h"

#include "Terminal.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandbox {

void Listing::printJson(const QJsonValue &value)
{
    const QJsonDocument document = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    Terminal::out(QString::fromUtf8(document.toJson(QJsonDocument::Indented)));
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
        return QString::number(value.toDouble());
    if (value.isUndefined() || value.isNull())
        return QStringLiteral("-");
    return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

QString Listing::listOrNone(const QStringList &items)
{
    return items.isEmpty() ? QStringLiteral("(none)") : items.join(QStringLiteral(", "));
}

} // namespace sandbox
