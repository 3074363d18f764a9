#pragma once

#include "core/launcher/Launcher.h"
#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QStringList>

namespace sandbox {

// "Never unconfined" as code: whether a launcher enforces every policy dimension a policy
// restricts. The engine asks before it makes a backend active (activation, swap-back,
// restore, a pack's fallback) and before every spawn.
class ConfinementCheck final
{
    // Its texts keep the translation context the engine catalogue has them in.
    Q_DECLARE_TR_FUNCTIONS(Confinement)

public:
    // The dimensions `policy` restricts that `launcher` does not enforce.
    static QStringList unenforced(const Launcher &launcher, const Policy &policy);
    // The same for a backend's claims (dimension -> what enforces it; empty: nothing).
    static QStringList unenforced(const QMap<QString, QString> &enforcedBy, const Policy &policy);
    // A policy dimension in words ("the network mode").
    static QString dimensionInWords(const QString &dimension);
    // An error naming `where` and the missing dimensions, or success.
    static Status check(const Launcher &launcher, const Policy &policy, const QString &where);
};

} // namespace sandbox
