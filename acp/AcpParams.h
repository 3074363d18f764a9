#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

// What the ACP bridge's files share: the prefix of the ids of its own requests to the
// editor, and how a served method reads its params.
namespace sandbox::acpparams {

inline const QString ourIdPrefix = QStringLiteral("sandbox-acp/");

// Reads one optional member of `params`; an error message naming it when it has the wrong type.
struct ParamReader
{
    const QJsonObject &params;
    QString method;
    QString problem;

    QString string(const QString &key, bool required);
    std::optional<qint64> integer(const QString &key);
    QString absolutePath(const QString &key, bool required);
};

} // namespace sandbox::acpparams
