#pragma once

#include "core/launcher/Launcher.h"
#include "core/packs/LauncherApiDigest.h"

#include <QList>
#include <QString>
#include <QtPlugin>

#include <memory>

namespace sandbox {

// An installable pack that contributes launchers. Its stable identity is (id, publisher):
// reinstalling a pack with the same identity restores the settings it had.
class AtomPack
{
public:
    virtual ~AtomPack() = default;
    virtual QString id() const = 0; // [a-z0-9][a-z0-9._-]*, part of every BackendRef it contributes
    virtual QString publisher() const = 0;
    virtual QString name() const = 0;
    virtual QString version() const = 0;
    // New launcher instances, one per kind this pack contributes.
    virtual QList<std::shared_ptr<Launcher>> createLaunchers() = 0;
};

} // namespace sandbox

Q_DECLARE_INTERFACE(sandbox::AtomPack, SandboxAtomPack_iid)
