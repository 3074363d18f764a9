#pragma once

#include "core/packs/AtomPack.h"
#include "protocol/BackendRef.h"

namespace sandbox::test {

// The atom pack the GUI tests install through Engine::installPack. Its launchers:
//   every-field  descriptor with every field type (string, number, boolean, select, secret)
//   plain        no settings; each command notes two sentences about how it started
//   slow         prepare() takes `prepareMs`
//   failing      fails at the step named by its `failAt` setting (configure/prepare/probe)
//   leaky        disposeIdle() fails once, so leaving it produces a cleanup warning
//   interactive  asks a Host Interaction question (kind from its `question` setting) while preparing
//   runtime      available only once configured with a `socket` setting naming an existing path
//   remote       always unavailable (its reason starts with its raw ref); long claims, a byte-size field
class TestPack final : public AtomPack
{
public:
    static QString packId() { return QStringLiteral("gui-test"); }
    static BackendRef ref(const QString &kind) { return BackendRef::atomPack(packId(), kind); }

    QString id() const override { return packId(); }
    QString publisher() const override { return QStringLiteral("Sandbox Studio tests"); }
    QString name() const override { return QStringLiteral("GUI test pack"); }
    QString version() const override { return QStringLiteral("1.0"); }
    QList<std::shared_ptr<Launcher>> createLaunchers() override;
};

} // namespace sandbox::test
