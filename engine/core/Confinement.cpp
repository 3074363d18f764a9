#include "Confinement.h"

namespace sandbox {

QStringList Confinement::unenforced(const Launcher &launcher, const Policy &policy)
{
    const QMap<QString, QString> enforcedBy = launcher.confinement(policy);
    QStringList missing;
    for (const QString &dimension : policy.restrictedDimensions()) {
        if (enforcedBy.value(dimension).trimmed().isEmpty())
            missing.append(dimension);
    }
    return missing;
}

Status Confinement::check(const Launcher &launcher, const Policy &policy, const QString &where)
{
    const QStringList missing = unenforced(launcher, policy);
    if (missing.isEmpty())
        return {};
    return Error{ where,
                  tr("This backend does not enforce %1, which the sandbox policy restricts, so it does not run "
                     "commands under it (commands never run unconfined). Choose a backend that does, or change "
                     "the policy.")
                      .arg(missing.join(QStringLiteral(", "))),
                  {} };
}

} // namespace sandbox
