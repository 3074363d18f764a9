#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl credential set NAME | list [--json] | remove NAME`: the values the engine's
// proxy puts into requests for the policy's credentials. A value is read from stdin (or a
// terminal without echo), never from the command line, and never shown.
class CredentialCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::CredentialCommand)

public:
    CredentialCommand();
    bool mayAsk() const override { return true; }
    int execute(EngineConnection &engine) override;

private:
    int list(EngineConnection &engine) const;
};

} // namespace sandbox
