#include "core/backends/ConfinementCheck.h"

namespace sandbox {

QStringList ConfinementCheck::unenforced(const Launcher &launcher, const Policy &policy)
{
    return unenforced(launcher.confinement(policy), policy);
}

QStringList ConfinementCheck::unenforced(const QMap<QString, QString> &enforcedBy, const Policy &policy)
{
    QStringList missing;
    for (const QString &dimension : policy.restrictedDimensions()) {
        if (enforcedBy.value(dimension).trimmed().isEmpty())
            missing.append(dimension);
    }
    return missing;
}

Status ConfinementCheck::check(const Launcher &launcher, const Policy &policy, const QString &where)
{
    const QStringList missing = unenforced(launcher, policy);
    if (missing.isEmpty())
        return {};
    QStringList words;
    for (const QString &dimension : missing)
        words << dimensionInWords(dimension);
    return Error{ where,
                  tr("This backend does not enforce %1, which the sandbox policy restricts, so it does not run "
                     "commands under it (commands never run unconfined). Choose a backend that does, or change "
                     "the policy.")
                      .arg(words.join(QStringLiteral(", "))),
                  {} };
}

QString ConfinementCheck::dimensionInWords(const QString &dimension)
{
    if (dimension == QLatin1String("filesystem"))
        return tr("the filesystem rules");
    if (dimension == QLatin1String("network"))
        return tr("the network mode");
    if (dimension == QLatin1String("allowedDomains"))
        return tr("the allowed domains");
    if (dimension == QLatin1String("hostExecution"))
        return tr("host execution");
    if (dimension == QLatin1String("confinement"))
        return tr("process confinement");
    if (dimension == QLatin1String("credentials"))
        return tr("credential injection");
    if (dimension == QLatin1String("sshAgent"))
        return tr("the filtering SSH agent");
    if (dimension == QLatin1String("upstreamProxy"))
        return tr("the upstream proxy");
    return dimension;
}

} // namespace sandbox
