#include "BackendRef.h"

#include "JsonReader.h"
#include "ProtocolText.h"

#include <QCoreApplication>

namespace sandbox {

namespace {

const QString builtinPrefix = QStringLiteral("builtin");
const QString atomPackPrefix = QStringLiteral("atom-pack");

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::BackendRef", text);
}

QString identifierRule()
{
    return QStringLiteral("[a-z0-9][a-z0-9._-]{0,63}");
}

} // namespace

BackendRef BackendRef::builtin(const QString &kind)
{
    BackendRef ref;
    ref.m_source = Source::Builtin;
    ref.m_kind = kind;
    return ref;
}

BackendRef BackendRef::atomPack(const QString &packId, const QString &kind)
{
    BackendRef ref;
    ref.m_source = Source::AtomPack;
    ref.m_packId = packId;
    ref.m_kind = kind;
    return ref;
}

bool BackendRef::isValidIdentifier(const QString &text)
{
    if (text.isEmpty() || text.size() > 64)
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        const bool alnum = (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9');
        if (alnum)
            continue;
        if (i > 0 && (c == u'.' || c == u'_' || c == u'-'))
            continue;
        return false;
    }
    return true;
}

bool BackendRef::isValid() const
{
    if (!isValidIdentifier(m_kind))
        return false;
    if (m_source == Source::AtomPack)
        return isValidIdentifier(m_packId);
    return m_source == Source::Builtin && m_packId.isEmpty();
}

QString BackendRef::toString() const
{
    if (m_source == Source::AtomPack)
        return atomPackPrefix + QLatin1Char(':') + m_packId + QLatin1Char(':') + m_kind;
    return builtinPrefix + QLatin1Char(':') + m_kind;
}

Result<BackendRef> BackendRef::parse(const QString &text)
{
    const QString where = QStringLiteral("ref");
    const QString forms = QStringLiteral("builtin:<kind> or atom-pack:<packId>:<kind>");
    if (text.size() > 200)
        return Error{ where, tr("%1 is not a backend reference: too long").arg(quotedForMessage(text)), {} };
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() == 2 && parts.at(0) == builtinPrefix) {
        if (!isValidIdentifier(parts.at(1)))
            return Error{ where,
                          tr("%1: kind %2 must match %3")
                              .arg(quotedForMessage(text), quotedForMessage(parts.at(1)), identifierRule()),
                          {} };
        return builtin(parts.at(1));
    }
    if (parts.size() == 3 && parts.at(0) == atomPackPrefix) {
        if (!isValidIdentifier(parts.at(1)))
            return Error{ where,
                          tr("%1: pack id %2 must match %3")
                              .arg(quotedForMessage(text), quotedForMessage(parts.at(1)), identifierRule()),
                          {} };
        if (!isValidIdentifier(parts.at(2)))
            return Error{ where,
                          tr("%1: kind %2 must match %3")
                              .arg(quotedForMessage(text), quotedForMessage(parts.at(2)), identifierRule()),
                          {} };
        return atomPack(parts.at(1), parts.at(2));
    }
    return Error{ where, tr("%1 is not a backend reference; expected %2").arg(quotedForMessage(text), forms), {} };
}

QJsonObject BackendRef::toJson() const
{
    if (m_source == Source::AtomPack)
        return { { QStringLiteral("source"), atomPackPrefix },
                 { QStringLiteral("packId"), m_packId },
                 { QStringLiteral("kind"), m_kind } };
    return { { QStringLiteral("source"), builtinPrefix }, { QStringLiteral("kind"), m_kind } };
}

Result<BackendRef> BackendRef::fromJson(const QJsonValue &value, const QString &path)
{
    // The canonical text is accepted too: clients (sandboxctl) naturally write "builtin:auto".
    if (value.isString()) {
        Result<BackendRef> parsed = parse(value.toString());
        if (!parsed)
            return Error{ path, parsed.error().message, {} };
        return parsed;
    }
    JsonReader reader(value, path);
    const QString source = reader.requireString(QStringLiteral("source"));
    if (!reader.ok())
        return reader.error();
    if (source == builtinPrefix) {
        reader.rejectUnknownKeys({ QStringLiteral("source"), QStringLiteral("kind") });
    } else if (source == atomPackPrefix) {
        reader.rejectUnknownKeys({ QStringLiteral("source"), QStringLiteral("packId"), QStringLiteral("kind") });
    } else {
        reader.fail(QStringLiteral("source"),
                    tr("unknown source %1; expected \"builtin\" or \"atom-pack\"").arg(quotedForMessage(source)));
    }
    const QString packId = source == atomPackPrefix ? reader.requireString(QStringLiteral("packId")) : QString();
    const QString kind = reader.requireString(QStringLiteral("kind"));
    if (!reader.ok())
        return reader.error();
    if (source == atomPackPrefix && !isValidIdentifier(packId))
        reader.fail(QStringLiteral("packId"), tr("%1 must match %2").arg(quotedForMessage(packId), identifierRule()));
    if (!isValidIdentifier(kind))
        reader.fail(QStringLiteral("kind"), tr("%1 must match %2").arg(quotedForMessage(kind), identifierRule()));
    if (!reader.ok())
        return reader.error();
    return source == atomPackPrefix ? atomPack(packId, kind) : builtin(kind);
}

} // namespace sandbox
