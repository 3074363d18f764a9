#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl backends`: every registered backend and its state.
class BackendsCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::BackendsCommand)

public:
    BackendsCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
