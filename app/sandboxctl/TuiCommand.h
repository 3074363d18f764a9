#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl tui`: the full-screen terminal presenter (TerminalUi) of the same engine.
class TuiCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::TuiCommand)

public:
    TuiCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
