#include "EngineFiles.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace sandbox {

void EngineFiles::keepReadOnly(Policy &policy, const QString &workspace, const QStringList &directories)
{
    const auto expand = [&](const QString &path) -> QString {
        if (path.startsWith(QLatin1String("${workspace}")))
            return workspace + path.mid(int(qstrlen("${workspace}")));
        if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
            return QDir::homePath() + path.mid(1);
        return path;
    };
    const auto overlaps
        = [](const QString &a, const QString &b) { return Policy::isInside(a, b) || Policy::isInside(b, a); };
    for (const QString &directory : directories) {
        if (directory.isEmpty())
            continue;
        QStringList names{ QDir::cleanPath(directory) };
        const QString canonical = QFileInfo(directory).canonicalFilePath();
        if (!canonical.isEmpty() && !names.contains(canonical))
            names.append(canonical);
        for (const QString &name : std::as_const(names)) {
            const bool reached
                = std::any_of(policy.writable.cbegin(), policy.writable.cend(),
                              [&](const QString &path) { return overlaps(QDir::cleanPath(expand(path)), name); });
            if (reached && !policy.readOnly.contains(name))
                policy.readOnly.append(name);
        }
    }
}

} // namespace sandbox
