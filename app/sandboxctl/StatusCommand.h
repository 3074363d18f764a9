#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl status`: the engine, its active backend, warnings and host.
class StatusCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::StatusCommand)

public:
    StatusCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
