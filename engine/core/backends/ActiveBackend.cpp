#include "core/backends/ActiveBackend.h"

#include "core/processes/ProcessTable.h"

namespace sandbox {

ActiveBackend::Snapshot ActiveBackend::current() const
{
    QMutexLocker locker(&m_mutex);
    return m_current;
}

std::optional<BackendRef> ActiveBackend::ref() const
{
    QMutexLocker locker(&m_mutex);
    return m_current.ref;
}

ActiveBackend::Snapshot ActiveBackend::swap(Snapshot next)
{
    QMutexLocker locker(&m_mutex);
    std::swap(m_current, next);
    return next;
}

ActiveBackend::Snapshot ActiveBackend::pinCurrent(ProcessTable &table) const
{
    QMutexLocker locker(&m_mutex);
    if (m_current.launcher)
        table.pin(m_current.launcher.get());
    return m_current;
}

} // namespace sandbox
