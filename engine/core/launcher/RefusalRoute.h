#pragma once

#include "core/launcher/SandboxProcess.h"
#include "protocol/Refusal.h"

#include <QMutex>

#include <memory>

namespace sandbox {

// Carries refusals seen on another thread (a proxy channel's) to the SandboxProcess they
// belong to, which emits them as refused() in its own thread. A refusal seen before the
// process is set, or after it is gone, is dropped: no command can be named for it.
class RefusalRoute final
{
public:
    void setProcess(const std::shared_ptr<SandboxProcess> &process);
    void deliver(const Refusal &refusal);

private:
    QMutex m_mutex;
    std::weak_ptr<SandboxProcess> m_process;
};

} // namespace sandbox
