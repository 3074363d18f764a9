#pragma once

#include "FaultInjectingLauncher.h"
#include "core/packs/AtomPack.h"

namespace sandbox::test {

// An atom pack whose launchers are FaultInjectingLaunchers of the given kinds.
class TestPack final : public AtomPack
{
public:
    TestPack(QString id, QString publisher, QStringList kinds, std::shared_ptr<FaultPlan> plan);

    QString id() const override { return m_id; }
    QString publisher() const override { return m_publisher; }
    QString name() const override { return QStringLiteral("Test pack ") + m_id; }
    QString version() const override { return QStringLiteral("1.0.0"); }
    QList<std::shared_ptr<Launcher>> createLaunchers() override;

private:
    QString m_id;
    QString m_publisher;
    QStringList m_kinds;
    std::shared_ptr<FaultPlan> m_plan;
};

} // namespace sandbox::test
