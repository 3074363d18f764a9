#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl run -- CMD...`: CMD in the active backend, its streams and exit status passed through.
class RunCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::RunCommand)

public:
    RunCommand();
    bool mayAsk() const override { return true; }
    int errorStatus() const override { return RunError; }
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
