#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl ps`: sandboxed processes and their backends.
class PsCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::PsCommand)

public:
    PsCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
