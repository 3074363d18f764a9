#pragma once

#include "Error.h"

#include <QHash>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace sandbox {

// The source-qualified identity of a backend. Canonical text forms:
//   builtin:<kind>                 e.g. builtin:auto
//   atom-pack:<packId>:<kind>      e.g. atom-pack:acme-tools:cloud
// The canonical text is the key of a backend's settings and secrets.
// kind and packId: [a-z0-9][a-z0-9._-]{0,63}
class BackendRef final
{
public:
    enum class Source { Builtin, AtomPack };

    BackendRef() = default;
    static BackendRef builtin(const QString &kind);
    static BackendRef atomPack(const QString &packId, const QString &kind);

    Source source() const { return m_source; }
    QString packId() const { return m_packId; }
    QString kind() const { return m_kind; }
    bool isBuiltin() const { return m_source == Source::Builtin; }
    bool isValid() const;

    QString toString() const;
    static Result<BackendRef> parse(const QString &text);

    QJsonObject toJson() const;
    static Result<BackendRef> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("ref"));

    static bool isValidIdentifier(const QString &text);

    friend bool operator==(const BackendRef &, const BackendRef &) = default;

private:
    Source m_source = Source::Builtin;
    QString m_packId;
    QString m_kind;
};

inline size_t qHash(const BackendRef &ref, size_t seed = 0)
{
    return qHash(ref.toString(), seed);
}

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::BackendRef)
