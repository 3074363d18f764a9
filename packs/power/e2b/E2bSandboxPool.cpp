#include "E2bSandboxPool.h"

namespace sandbox::power {

E2bSandboxPool::E2bSandboxPool(E2bApi api)
    : m_api(std::move(api))
{ }

Result<E2bSandbox> E2bSandboxPool::sandboxFor(bool internet)
{
    QMutexLocker locker(&m_mutex);
    if (const auto it = m_sandboxes.constFind(internet); it != m_sandboxes.cend())
        return *it;
    Result<E2bSandbox> created = m_api.create(internet);
    if (created.ok())
        m_sandboxes.insert(internet, created.value());
    return created;
}

Status E2bSandboxPool::killAll()
{
    QMutexLocker locker(&m_mutex);
    Status status;
    for (auto it = m_sandboxes.cbegin(); it != m_sandboxes.cend(); ++it) {
        const Status killed = m_api.kill(it->id);
        if (!killed.ok() && status.ok())
            status = killed;
    }
    m_sandboxes.clear();
    return status;
}

} // namespace sandbox::power
