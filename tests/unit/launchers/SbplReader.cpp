#include "SbplReader.h"

#include <QHash>
#include <QRegularExpression>

namespace sbpl {

namespace {

struct Reader
{
    const QString &text;
    qsizetype pos = 0;
    QString error;

    void skipSpace()
    {
        while (pos < text.size()) {
            if (text[pos].isSpace()) {
                ++pos;
            } else if (text[pos] == QLatin1Char(';')) {
                while (pos < text.size() && text[pos] != QLatin1Char('\n'))
                    ++pos;
            } else {
                return;
            }
        }
    }

    bool node(Node &out)
    {
        skipSpace();
        if (pos >= text.size()) {
            error = QStringLiteral("unexpected end of text");
            return false;
        }
        const QChar c = text[pos];
        if (c == QLatin1Char('(')) {
            ++pos;
            out.kind = Node::Kind::List;
            while (true) {
                skipSpace();
                if (pos >= text.size()) {
                    error = QStringLiteral("a '(' is never closed");
                    return false;
                }
                if (text[pos] == QLatin1Char(')')) {
                    ++pos;
                    return true;
                }
                Node child;
                if (!node(child))
                    return false;
                out.items.append(child);
            }
        }
        if (c == QLatin1Char(')')) {
            error = QStringLiteral("a ')' closes nothing at offset %1").arg(pos);
            return false;
        }
        if (c == QLatin1Char('"')) {
            ++pos;
            out.kind = Node::Kind::String;
            while (pos < text.size() && text[pos] != QLatin1Char('"')) {
                if (text[pos] == QLatin1Char('\\')) {
                    if (pos + 1 >= text.size()
                        || (text[pos + 1] != QLatin1Char('\\') && text[pos + 1] != QLatin1Char('"'))) {
                        error = QStringLiteral("unknown escape at offset %1").arg(pos);
                        return false;
                    }
                    ++pos;
                }
                if (text[pos] == QLatin1Char('\n')) {
                    error = QStringLiteral("a line break inside a string at offset %1").arg(pos);
                    return false;
                }
                out.text += text[pos++];
            }
            if (pos >= text.size()) {
                error = QStringLiteral("a string is never closed");
                return false;
            }
            ++pos;
            return true;
        }
        out.kind = Node::Kind::Atom;
        while (pos < text.size() && !text[pos].isSpace() && text[pos] != QLatin1Char('(')
               && text[pos] != QLatin1Char(')') && text[pos] != QLatin1Char('"') && text[pos] != QLatin1Char(';'))
            out.text += text[pos++];
        return true;
    }
};

} // namespace

Profile read(const QString &text)
{
    Profile profile;
    Reader reader{ text, 0, QString() };
    while (true) {
        reader.skipSpace();
        if (reader.pos >= text.size())
            break;
        Node form;
        if (!reader.node(form)) {
            profile.error = reader.error;
            return profile;
        }
        if (form.kind != Node::Kind::List || form.items.isEmpty() || form.items[0].kind != Node::Kind::Atom) {
            profile.error = QStringLiteral("a top-level form that is not a rule");
            return profile;
        }
        Rule rule;
        rule.action = form.items[0].text;
        rule.index = static_cast<int>(profile.rules.size());
        for (qsizetype i = 1; i < form.items.size(); ++i) {
            if (form.items[i].kind == Node::Kind::Atom)
                rule.operations.append(form.items[i].text);
            else if (form.items[i].kind == Node::Kind::List)
                rule.filters.append(form.items[i]);
        }
        profile.forms.append(form);
        profile.rules.append(rule);
    }
    return profile;
}

bool covers(const Rule &rule, const QString &operation)
{
    for (const QString &named : rule.operations) {
        if (named == QLatin1String("default") || named == operation)
            return true;
        if (named.endsWith(QLatin1Char('*')) && operation.startsWith(named.chopped(1)))
            return true;
    }
    return false;
}

bool matchesPath(const Node &filter, const QString &path)
{
    if (filter.kind != Node::Kind::List || filter.items.size() != 2 || filter.items[1].kind != Node::Kind::String)
        return false;
    const QString kind = filter.items[0].text;
    const QString value = filter.items[1].text;
    if (kind == QLatin1String("literal"))
        return path == value;
    if (kind == QLatin1String("subpath"))
        return path == value || path.startsWith(value == QLatin1String("/") ? value : value + QLatin1Char('/'));
    if (kind == QLatin1String("regex")) {
        static QHash<QString, QRegularExpression> compiled;
        auto found = compiled.find(value);
        if (found == compiled.end())
            found = compiled.insert(value, QRegularExpression(value));
        return found->match(path).hasMatch();
    }
    return false;
}

bool applies(const Rule &rule, const QString &operation, const QString &path)
{
    if (!covers(rule, operation))
        return false;
    if (rule.filters.isEmpty())
        return true;
    for (const Node &filter : rule.filters) {
        if (matchesPath(filter, path))
            return true;
    }
    return false;
}

int decidingRule(const Profile &profile, const QString &operation, const QString &path)
{
    int found = -1;
    for (const Rule &rule : profile.rules) {
        if ((rule.action == QLatin1String("allow") || rule.action == QLatin1String("deny"))
            && applies(rule, operation, path))
            found = rule.index;
    }
    return found;
}

bool allowed(const Profile &profile, const QString &operation, const QString &path)
{
    const int index = decidingRule(profile, operation, path);
    return index >= 0 && profile.rules[index].action == QLatin1String("allow");
}

QString filterText(const Node &filter)
{
    if (filter.kind == Node::Kind::Atom)
        return filter.text;
    if (filter.kind == Node::Kind::String)
        return QLatin1Char('"') + filter.text + QLatin1Char('"');
    QStringList parts;
    for (const Node &item : filter.items)
        parts.append(filterText(item));
    return QLatin1Char('(') + parts.join(QLatin1Char(' ')) + QLatin1Char(')');
}

} // namespace sbpl
