#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl kill ID`: ends a sandboxed process and everything in its sandbox.
class KillCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::KillCommand)

public:
    KillCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
