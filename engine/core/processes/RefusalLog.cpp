#include "core/processes/RefusalLog.h"

#include <QDateTime>

namespace sandbox {

RefusalLog::RefusalLog(qsizetype capacity)
    : m_capacity(qMax<qsizetype>(1, capacity))
{ }

Refusal RefusalLog::record(Refusal refusal)
{
    // What reaches here may come from inside a sandbox (a domain a command asked for, a
    // guest's report): bounded and cleaned so every client can decode it.
    refusal.what
        = Refusal::cleanText(refusal.what.isEmpty() ? QStringLiteral("?") : refusal.what, Refusal::maxWhatLength);
    refusal.rule
        = Refusal::cleanText(refusal.rule.isEmpty() ? QStringLiteral("?") : refusal.rule, Refusal::maxRuleLength);
    refusal.command = Refusal::cleanText(refusal.command, Refusal::maxCommandLength);
    refusal.backendName = Refusal::cleanText(refusal.backendName, Refusal::maxNameLength);
    if (refusal.timeMs <= 0)
        refusal.timeMs = QDateTime::currentMSecsSinceEpoch();
    QMutexLocker locker(&m_mutex);
    refusal.id = m_nextId++;
    m_recent.append(refusal);
    if (m_recent.size() > m_capacity)
        m_recent.remove(0, m_recent.size() - m_capacity);
    return refusal;
}

QList<Refusal> RefusalLog::recent() const
{
    QMutexLocker locker(&m_mutex);
    return m_recent;
}

} // namespace sandbox
