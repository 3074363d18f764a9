#pragma once

#include "core/packs/AtomPack.h"

#include <QObject>

namespace sandbox::power {

// The Power Pack, the pack this project publishes: contributes docker and e2b. It never provides
// a built-in kind (auto, vm).
class PowerPack final : public QObject, public AtomPack
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID SandboxAtomPack_iid)
    Q_INTERFACES(sandbox::AtomPack)

public:
    QString id() const override { return QStringLiteral("power-pack"); }
    QString publisher() const override { return QStringLiteral("Sandbox Studio"); }
    QString name() const override { return QStringLiteral("Power Pack"); }
    QString version() const override { return QStringLiteral(POWER_PACK_VERSION); }
    QList<std::shared_ptr<Launcher>> createLaunchers() override;
};

} // namespace sandbox::power
