#pragma once

#include "core/packs/AtomPack.h"

#include <QObject>

namespace sandbox::test {

// An atom pack plugin for the pack-format tests (id "manifest-test", version 1.0.0). It
// offers three kinds, two of which the engine must refuse:
//   alpha   a valid backend that prepares and is available (it runs no commands)
//   vm      a built-in kind, never accepted from a pack
//   marked  a descriptor whose name carries markup
class ManifestTestPack final : public QObject, public AtomPack
{
    Q_OBJECT
#ifdef SANDBOX_TEST_OTHER_LAUNCHER_API
    // Built as another version of the engine would build it: another launcher API digest.
    Q_PLUGIN_METADATA(IID "dev.sandbox-studio.AtomPack/1/0000000000000000")
#else
    Q_PLUGIN_METADATA(IID SandboxAtomPack_iid)
#endif
    Q_INTERFACES(sandbox::AtomPack)

public:
    QString id() const override
    {
        return QStringLiteral("manifest-test");
    }
    QString publisher() const override
    {
        return QStringLiteral("Sandbox Studio tests");
    }
    QString name() const override
    {
        return QStringLiteral("Manifest test pack");
    }
    QString version() const override
    {
        return QStringLiteral("1.0.0");
    }
    QList<std::shared_ptr<Launcher>> createLaunchers() override;
};

} // namespace sandbox::test
