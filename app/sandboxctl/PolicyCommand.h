#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl policy show|set`: the sandbox policy.
class PolicyCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::PolicyCommand)

public:
    PolicyCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
