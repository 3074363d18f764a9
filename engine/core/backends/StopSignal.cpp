#include "core/backends/StopSignal.h"

namespace sandbox {

void StopSignal::stop()
{
    if (m_stopped.fetchAndStoreOrdered(1) == 0)
        emit stopped();
}

} // namespace sandbox
