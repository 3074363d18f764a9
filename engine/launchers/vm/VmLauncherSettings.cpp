#include "VmLauncher.h"
#include "VmLauncherCommon.h"

#include <QFileInfo>
#include <QMutexLocker>

namespace sandbox {

using namespace vmlauncher;

QFuture<Status> VmLauncher::configure(const ResolvedSettings &resolved)
{
    // The descriptor's defaults for what is not given (the engine gives them all; a direct
    // caller may not): they are written there only.
    const QMap<QString, QJsonValue> values = resolved.values.withDefaults(descriptor()).values;
    Settings settings;
    settings.driver = values.value(QStringLiteral("driver")).toString();
    settings.memoryMb = values.value(QStringLiteral("memoryMb")).toInt();
    settings.cpus = values.value(QStringLiteral("cpus")).toInt();
    settings.kernel = values.value(QStringLiteral("kernel")).toString();
    settings.initramfs = values.value(QStringLiteral("initramfs")).toString();
    settings.baselineEnabled = values.value(QStringLiteral("baselineEnabled")).toBool();
    settings.baselineMaxInactiveArtifacts = values.value(QStringLiteral("baselineMaxInactiveArtifacts")).toInt();
    settings.baselineMaxBytes = qint64(values.value(QStringLiteral("baselineMaxBytes")).toDouble());
    const QString source = values.value(QStringLiteral("helperSource")).toString();
    settings.helperSource = QUrl(source.isEmpty() ? defaultHelperSource() : source, QUrl::StrictMode);

    const QStringList drivers
        = { QStringLiteral("auto"), QStringLiteral("qemu"), QStringLiteral("vfkit"), QStringLiteral("hyperv") };
    if (!drivers.contains(settings.driver))
        return ready(
            Status(Error{ kWhere + QStringLiteral(".driver"),
                          tr("unknown driver \"%1\" (expected auto, qemu, vfkit or hyperv)").arg(settings.driver),
                          {} }));
    const QStringList schemes = { QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("file") };
    if (!settings.helperSource.isValid() || !schemes.contains(settings.helperSource.scheme()))
        return ready(Status(Error{ kWhere + QStringLiteral(".helperSource"),
                                   tr("\"%1\" is not an http, https or file URL").arg(source),
                                   {} }));
    for (const auto &[id, path] : { std::pair{ QStringLiteral("kernel"), settings.kernel },
                                    std::pair{ QStringLiteral("initramfs"), settings.initramfs } }) {
        if (!path.isEmpty() && !QFileInfo(path).isFile())
            return ready(Status(Error{ kWhere + QLatin1Char('.') + id, tr("%1 is not a file").arg(path), {} }));
    }
    QMutexLocker lock(&m_mutex);
    m_settings = settings;
    m_prepared = false;
    return ready(Status::success());
}

} // namespace sandbox
