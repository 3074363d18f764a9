#include "core/launcher/SandboxInitLocation.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

namespace sandbox {

QString locateSandboxInit()
{
    const QString overridePath = qEnvironmentVariable("SANDBOX_INIT_PATH");
    if (!overridePath.isEmpty())
        return overridePath;
    const QString appDir = QCoreApplication::applicationDirPath();
    const QStringList candidates = { appDir + QStringLiteral("/sandbox-init"),
                                     appDir + QStringLiteral("/../libexec/sandbox-studio/sandbox-init") };
    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.canonicalFilePath();
    }
    return {};
}

} // namespace sandbox
