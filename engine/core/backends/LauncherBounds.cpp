#include "core/backends/LauncherBounds.h"

namespace sandbox {

LauncherBounds LauncherBounds::defaults()
{
    // Generous for real work (a VM boot under emulation, an image import), finite always.
    return LauncherBounds{ 30 * 1000, 300 * 1000, 30 * 1000, 60 * 1000, 60 * 1000 };
}

LauncherBounds LauncherBounds::resolve(const BackendDescriptor &descriptor, const LauncherBounds &overrides)
{
    LauncherBounds bounds = defaults();
    const auto apply = [&](const QString &call, int overrideMs, int *bound) {
        const int stated = descriptor.timeouts.value(call);
        if (stated >= 1 && stated <= BackendDescriptor::maxTimeoutSeconds)
            *bound = stated * 1000;
        if (overrideMs > 0)
            *bound = overrideMs;
    };
    apply(QStringLiteral("configure"), overrides.configureMs, &bounds.configureMs);
    apply(QStringLiteral("prepare"), overrides.prepareMs, &bounds.prepareMs);
    apply(QStringLiteral("probe"), overrides.probeMs, &bounds.probeMs);
    apply(QStringLiteral("spawn"), overrides.spawnMs, &bounds.spawnMs);
    apply(QStringLiteral("dispose"), overrides.disposeMs, &bounds.disposeMs);
    return bounds;
}

QString LauncherBounds::seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 6);
}

} // namespace sandbox
