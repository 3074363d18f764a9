#pragma once

#include "protocol/Refusal.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace sandbox {

// What a `refused <kind> <what>` line of sandbox-init's status channel means to a user
// (init/StatusChannel.h), for every backend that runs sandbox-init: the auto backend, a
// container's and a VM guest's write gate. `what` came from the command and is only ever
// data. Nothing for a kind it does not know.
class SandboxInitRefusal final
{
    Q_DECLARE_TR_FUNCTIONS(SandboxInitRefusal)

public:
    static std::optional<Refusal> fromStatus(const QString &kind, const QString &what);
};

} // namespace sandbox
