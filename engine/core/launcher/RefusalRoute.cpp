#include "core/launcher/RefusalRoute.h"

#include <QMetaObject>

namespace sandbox {

void RefusalRoute::setProcess(const std::shared_ptr<SandboxProcess> &process)
{
    QMutexLocker locker(&m_mutex);
    m_process = process;
}

void RefusalRoute::deliver(const Refusal &refusal)
{
    std::shared_ptr<SandboxProcess> process;
    {
        QMutexLocker locker(&m_mutex);
        process = m_process.lock();
    }
    if (!process)
        return;
    // Queued to the process's thread; holding it in the call keeps it alive until delivered.
    QMetaObject::invokeMethod(
        process.get(), [process, refusal] { emit process->refused(refusal); }, Qt::QueuedConnection);
}

} // namespace sandbox
