#include "TestPack.h"

namespace sandbox::test {

TestPack::TestPack(QString id, QString publisher, QStringList kinds, std::shared_ptr<FaultPlan> plan)
    : m_id(std::move(id))
    , m_publisher(std::move(publisher))
    , m_kinds(std::move(kinds))
    , m_plan(std::move(plan))
{ }

QList<std::shared_ptr<Launcher>> TestPack::createLaunchers()
{
    QList<std::shared_ptr<Launcher>> launchers;
    for (const QString &kind : std::as_const(m_kinds))
        launchers.append(std::make_shared<FaultInjectingLauncher>(kind, m_plan));
    return launchers;
}

} // namespace sandbox::test
