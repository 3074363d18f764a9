#include "NeverStartingProcess.h"

namespace sandbox::test {

void NeverStartingProcess::kill()
{
    if (!m_running)
        return;
    m_running = false;
    m_status = ExitStatus{ 0, true, 9, false };
    QMetaObject::invokeMethod(
        this, [this] { emit finished(m_status); }, Qt::QueuedConnection);
}

} // namespace sandbox::test
