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
    // Two runs at once without an engine owner each run to their own end.
    bool hostsPrivately() const override { return true; }
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
