#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

// How sandboxctl prints what the engine returned: JSON, or text columns for people. Either
// way a backend reference is its canonical text (builtin:auto, atom-pack:PACK:KIND), as the
// command line takes it, and a whole number is written out in full, so what is printed can be
// given back as it is.
class Listing final
{
public:
    static void printJson(const QJsonValue &value);
    // `value` (an object) as one compact line of JSON, for a stream of events.
    static QString jsonLine(const QJsonObject &value);
    // `value` as sandboxctl prints it: each backend reference object as its text, each whole
    // number (up to 2^53, as far as a JSON number is exact) as an integer.
    static QJsonValue forOutput(const QJsonValue &value);
    // A number as text that reads back as the same number: whole numbers in full, others in
    // the shortest form that round-trips.
    static QString number(const QJsonValue &value);
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
