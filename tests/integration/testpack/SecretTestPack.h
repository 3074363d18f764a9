#pragma once

#include "core/packs/AtomPack.h"

#include <QObject>

namespace sandbox::test {

// An atom pack plugin for the daemon tests, loaded from $SANDBOX_PACK_PATH like any pack:
//   keyed   a required secret (apiKey) that configure() insists on, and a plain setting
//   asking  asks a Host Interaction question (id "confirm-setup") while preparing and
//           prepares only when it is accepted
//   naming  asks a text question (id "name-setup") while preparing and prepares only
//           when answered with a name starting with "ok-"
// Neither runs commands: spawning is refused.
class SecretTestPack final : public QObject, public AtomPack
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID SandboxAtomPack_iid)
    Q_INTERFACES(sandbox::AtomPack)

public:
    QString id() const override { return QStringLiteral("test-secrets"); }
    QString publisher() const override { return QStringLiteral("Sandbox Studio tests"); }
    QString name() const override { return QStringLiteral("Secret test pack"); }
    QString version() const override { return QStringLiteral("1.0"); }
    QList<std::shared_ptr<Launcher>> createLaunchers() override;
};

} // namespace sandbox::test
