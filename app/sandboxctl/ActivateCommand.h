#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl activate REF`: an activation, step by step.
class ActivateCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::ActivateCommand)

public:
    ActivateCommand();
    bool mayAsk() const override { return true; }
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
