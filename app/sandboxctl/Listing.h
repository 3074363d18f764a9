#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

// How sandboxctl prints what the engine returned: JSON, or text columns for people.
class Listing final
{
public:
    static void printJson(const QJsonValue &value);
    // Left-aligned columns, two spaces apart; the last column is not padded. Each of a row's
    // `details` (matched by index, may be shorter) goes on its own indented line under it.
    static void printTable(const QStringList &header, const QList<QStringList> &rows,
                           const QList<QStringList> &details = {});
    // With `json` the items' own JSON as one array, otherwise a table, one row per item.
    template <typename T, typename RowFn>
    static void print(const QList<T> &items, bool json, const QStringList &header, RowFn row)
    {
        if (json) {
            QJsonArray array;
            for (const T &item : items)
                array.append(item.toJson());
            printJson(array);
            return;
        }
        QList<QStringList> rows;
        for (const T &item : items)
            rows.append(row(item));
        printTable(header, rows);
    }
    // A JSON value as one line of text; "-" for none.
    static QString text(const QJsonValue &value);
    static QString listOrNone(const QStringList &items);
};

} // namespace sandbox
