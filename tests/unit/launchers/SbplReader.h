#pragma once

// A small reader and evaluator for the Seatbelt profiles the engine writes, for the tests:
// it parses the s-expressions (refusing unbalanced parentheses, unterminated strings and
// unknown escapes) and answers, as Seatbelt does, with the last rule that matches.
#include <QList>
#include <QString>
#include <QStringList>

namespace sbpl {

struct Node
{
    enum class Kind { List, Atom, String };
    Kind kind = Kind::Atom;
    QString text; // Atom and String (unescaped)
    QList<Node> items; // List
};

struct Rule
{
    QString action; // allow, deny, version
    QStringList operations;
    QList<Node> filters;
    int index = 0;
};

struct Profile
{
    QList<Node> forms;
    QList<Rule> rules;
    QString error; // empty when the text parsed
};

Profile read(const QString &text);

// Whether `rule` names `operation` (directly, through a "*" family or "default").
bool covers(const Rule &rule, const QString &operation);
// Whether a path filter (literal, subpath, regex) matches `path`; false for other filters.
bool matchesPath(const Node &filter, const QString &path);
// Whether `rule` applies to `operation` on `path`: it covers the operation and has no
// filters or a path filter matching.
bool applies(const Rule &rule, const QString &operation, const QString &path);
// The last rule that applies, or -1.
int decidingRule(const Profile &profile, const QString &operation, const QString &path);
bool allowed(const Profile &profile, const QString &operation, const QString &path);
// Every filter of every rule, as "(kind value)" text, for searching.
QString filterText(const Node &filter);

} // namespace sbpl
