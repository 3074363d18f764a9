#pragma once

#include "ActivationEvent.h"
#include "BackendInfo.h"
#include "HostInteraction.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QRegularExpression>
#include <QString>

#include <memory>
#include <optional>

class QIODevice;

namespace sandbox {

// How a presenter shows the engine's texts in its own language. The engine speaks its
// source language (English) on the protocol whatever locale the engine's process has, so one
// daemon serves clients in different languages; each presenter translates what it receives
// with its catalogue of the engine's source texts (translations/sandbox-engine_<lang>.ts).
//
// A text the engine composed from a source text with %1..%9 arguments is recognised by that
// source text's pattern; its arguments are translated the same way (they are often texts
// themselves) and put into the translation; texts joined after one another (at ". " or
// "; ") are recognised part by part. A text no entry matches is shown as received:
// a pack's own texts stay as the pack wrote them unless the catalogue has them.
class TextCatalog final
{
public:
    struct Entry
    {
        QString context;
        QString source;
        QString translation;
    };

    explicit TextCatalog(const QList<Entry> &entries);

    // Reads the finished translations of a Qt Linguist .ts file; nullptr with `error` set
    // when the file cannot be read.
    static std::shared_ptr<TextCatalog> fromTs(QIODevice &ts, QString *error = nullptr);

    qsizetype size() const { return m_size; } // entries with a translation
    // `text` in the catalogue's language, or `text` itself when no entry matches.
    QString translate(const QString &text) const;

    void translate(Error &error) const;
    void translate(BackendDescriptor &descriptor) const;
    void translate(BackendInfo &info) const;
    void translate(PackInfo &pack) const;
    void translate(ActivationEvent &event) const;
    void translate(ActivationResult &result) const;
    void translate(CleanupWarning &warning) const;
    void translate(HostInteractionRequest &request) const;

private:
    struct Pattern
    {
        QRegularExpression expression;
        QString longestLiteral; // a text the pattern matches contains it
        QString translation;
        int literalLength = 0;
    };

    // The translation when some entry matches `text` (or, when `joined`, a sequence of them).
    std::optional<QString> recognise(const QString &text, int depth, bool joined) const;

    qsizetype m_size = 0;
    QHash<QString, QString> m_exact;
    QList<Pattern> m_patterns; // most literal text first: the most specific match wins
    mutable QMutex m_cacheMutex;
    mutable QHash<QString, QString> m_cache;
};

} // namespace sandbox
