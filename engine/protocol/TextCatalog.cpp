#include "TextCatalog.h"

#include <QIODevice>
#include <QMutexLocker>
#include <QXmlStreamReader>

#include <algorithm>

namespace sandbox {

namespace {

constexpr int maxDepth = 3; // arguments of arguments of arguments
constexpr qsizetype maxCached = 4096; // distinct texts remembered
constexpr int minLetters = 2; // "%1: %2" says nothing about which text it was
constexpr int maxSplits = 64; // places a joined text is tried apart at

struct Placeholder
{
    qsizetype position = 0;
    qsizetype length = 0;
    int number = 0;
};

constexpr int countPlaceholder = 100; // %n of a text translated with a count

// %1..%99 and %L1..%L99, as QString::arg() reads them, and %n.
QList<Placeholder> placeholders(const QString &text)
{
    QList<Placeholder> found;
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != QLatin1Char('%'))
            continue;
        if (text.at(i + 1) == QLatin1Char('n')) {
            found.append(Placeholder{ i, 2, countPlaceholder });
            ++i;
            continue;
        }
        qsizetype j = i + 1;
        if (text.at(j) == QLatin1Char('L'))
            ++j;
        int number = 0;
        qsizetype digits = 0;
        while (j < text.size() && text.at(j).isDigit() && digits < 2) {
            number = number * 10 + text.at(j).digitValue();
            ++j;
            ++digits;
        }
        if (digits == 0 || number == 0)
            continue;
        found.append(Placeholder{ i, j - i, number });
        i = j - 1;
    }
    return found;
}

// Puts args[n-1] where the translation says %n, in one pass (an argument that itself
// contains "%2" is not substituted again).
QString substitute(const QString &translation, const QHash<int, QString> &args)
{
    QString result;
    qsizetype from = 0;
    for (const Placeholder &p : placeholders(translation)) {
        result += QStringView(translation).mid(from, p.position - from);
        result += args.contains(p.number) ? args.value(p.number) : translation.mid(p.position, p.length);
        from = p.position + p.length;
    }
    result += QStringView(translation).mid(from);
    return result;
}

} // namespace

TextCatalog::TextCatalog(const QList<Entry> &entries)
{
    for (const Entry &entry : entries) {
        if (entry.translation.isEmpty())
            continue;
        ++m_size;
        const QList<Placeholder> marks = placeholders(entry.source);
        if (marks.isEmpty()) {
            if (!m_exact.contains(entry.source))
                m_exact.insert(entry.source, entry.translation);
            continue;
        }
        QString expression = QStringLiteral("^");
        QHash<int, int> groupOf; // placeholder number -> capture group
        QString longest;
        int letters = 0;
        qsizetype from = 0;
        const auto literal = [&](qsizetype to) {
            const QString part = entry.source.mid(from, to - from);
            expression += QRegularExpression::escape(part);
            letters += int(std::count_if(part.cbegin(), part.cend(), [](QChar c) { return c.isLetter(); }));
            if (part.size() > longest.size())
                longest = part;
        };
        for (const Placeholder &p : marks) {
            literal(p.position);
            if (groupOf.contains(p.number)) {
                expression += QStringLiteral("\\g{%1}").arg(groupOf.value(p.number));
            } else {
                groupOf.insert(p.number, int(groupOf.size()) + 1);
                expression += QStringLiteral("(.*?)");
            }
            from = p.position + p.length;
        }
        literal(entry.source.size());
        expression += QLatin1Char('$');
        if (letters < minLetters)
            continue;
        Pattern pattern;
        pattern.expression = QRegularExpression(expression, QRegularExpression::DotMatchesEverythingOption);
        pattern.longestLiteral = longest;
        pattern.translation = entry.translation;
        pattern.literalLength = letters;
        // The capture groups are numbered in order of first appearance; the translation
        // names placeholders, so remember which group each number is.
        QHash<int, QString> marker;
        for (auto it = groupOf.cbegin(); it != groupOf.cend(); ++it)
            marker.insert(it.key(), QStringLiteral("%") + QString::number(it.value()));
        pattern.translation = substitute(entry.translation, marker);
        if (!pattern.expression.isValid())
            continue;
        pattern.expression.optimize();
        m_patterns.append(pattern);
    }
    std::stable_sort(m_patterns.begin(), m_patterns.end(),
                     [](const Pattern &a, const Pattern &b) { return a.literalLength > b.literalLength; });
}

std::shared_ptr<TextCatalog> TextCatalog::fromTs(QIODevice &ts, QString *error)
{
    QList<Entry> entries;
    QXmlStreamReader xml(&ts);
    QString context;
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QStringLiteral("type")).toString();
            QString text;
            QStringList forms; // a count's singular and plural forms
            while (!xml.atEnd()
                   && !(xml.readNext() == QXmlStreamReader::EndElement && xml.name() == QLatin1String("translation"))) {
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                    forms.append(xml.readElementText());
                else if (xml.isCharacters())
                    text += xml.text();
            }
            if (!type.isEmpty())
                continue;
            if (forms.size() >= 2 && source.contains(QLatin1String("%n"))) {
                // One is the singular in every language this catalogue is for.
                const QString one = QStringLiteral("1");
                entries.append(Entry{ context, QString(source).replace(QLatin1String("%n"), one),
                                      QString(forms.first()).replace(QLatin1String("%n"), one) });
                entries.append(Entry{ context, source, forms.at(1) });
            } else if (forms.isEmpty() && !text.isEmpty()) {
                entries.append(Entry{ context, source, text });
            }
        }
    }
    if (xml.hasError()) {
        if (error)
            *error = QStringLiteral("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
        return nullptr;
    }
    return std::make_shared<TextCatalog>(entries);
}

QString TextCatalog::translate(const QString &text) const
{
    if (text.isEmpty())
        return text;
    {
        QMutexLocker locker(&m_cacheMutex);
        if (const auto cached = m_cache.constFind(text); cached != m_cache.constEnd())
            return cached.value();
    }
    const QString result = recognise(text, 0, true).value_or(text);
    QMutexLocker locker(&m_cacheMutex);
    if (m_cache.size() >= maxCached)
        m_cache.clear();
    m_cache.insert(text, result);
    return result;
}

std::optional<QString> TextCatalog::recognise(const QString &text, int depth, bool joined) const
{
    if (text.isEmpty())
        return std::nullopt;
    if (const auto exact = m_exact.constFind(text); exact != m_exact.constEnd())
        return exact.value();
    for (const Pattern &pattern : m_patterns) {
        if (!text.contains(pattern.longestLiteral))
            continue;
        const QRegularExpressionMatch match = pattern.expression.match(text);
        if (!match.hasMatch())
            continue;
        QHash<int, QString> args;
        for (int group = 1; group <= match.lastCapturedIndex(); ++group) {
            const QString arg = match.captured(group);
            args.insert(group, depth < maxDepth ? recognise(arg, depth + 1, true).value_or(arg) : arg);
        }
        return substitute(pattern.translation, args);
    }
    // An error said with where it happened ("builtin:auto.tier: message", as
    // Error::toString() writes it): the place is a name, the message is translated.
    if (const qsizetype colon = text.indexOf(QLatin1String(": ")); colon > 0 && depth < maxDepth) {
        const QStringView where = QStringView(text).left(colon);
        if (std::none_of(where.begin(), where.end(), [](QChar c) { return c.isSpace(); })) {
            if (const std::optional<QString> message = recognise(text.mid(colon + 2), depth + 1, true))
                return where.toString() + QStringLiteral(": ") + *message;
        }
    }
    // Texts joined one after the other ("First sentence. " + "second one"): split after a
    // sentence or clause where the head is one whole text, and recognise the rest.
    if (!joined || depth >= maxDepth)
        return std::nullopt;
    int tried = 0;
    for (qsizetype at = 0; at + 2 < text.size() && tried < maxSplits; ++at) {
        const QChar c = text.at(at);
        if ((c != QLatin1Char('.') && c != QLatin1Char(';')) || text.at(at + 1) != QLatin1Char(' '))
            continue;
        ++tried;
        const std::optional<QString> head = recognise(text.left(at + 2), depth + 1, false);
        if (!head)
            continue;
        if (const std::optional<QString> tail = recognise(text.mid(at + 2), depth + 1, true))
            return *head + *tail;
    }
    return std::nullopt;
}

void TextCatalog::translate(Error &error) const
{
    error.message = translate(error.message);
    for (Error &detail : error.details)
        translate(detail);
}

void TextCatalog::translate(BackendDescriptor &descriptor) const
{
    descriptor.name = translate(descriptor.name);
    descriptor.description = translate(descriptor.description);
    for (FieldSpec &field : descriptor.fields) {
        field.label = translate(field.label);
        field.description = translate(field.description);
        for (SelectOption &option : field.options)
            option.label = translate(option.label);
    }
    for (QString &claim : descriptor.enforcement)
        claim = translate(claim);
    descriptor.refusals = translate(descriptor.refusals);
}

void TextCatalog::translate(BackendInfo &info) const
{
    translate(info.descriptor);
    info.availability.reason = translate(info.availability.reason);
    info.sourceLabel = translate(info.sourceLabel);
}

void TextCatalog::translate(PackInfo &pack) const
{
    pack.description = translate(pack.description);
    for (QString &refusal : pack.refused)
        refusal = translate(refusal);
}

void TextCatalog::translate(ActivationEvent &event) const
{
    event.message = translate(event.message);
}

void TextCatalog::translate(ActivationResult &result) const
{
    translate(result.error);
}

void TextCatalog::translate(CleanupWarning &warning) const
{
    warning.message = translate(warning.message);
}

void TextCatalog::translate(HostInteractionRequest &request) const
{
    request.title = translate(request.title);
    request.message = translate(request.message);
    for (SelectOption &option : request.options)
        option.label = translate(option.label);
}

} // namespace sandbox
