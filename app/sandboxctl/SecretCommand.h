#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl secret set|remove REF FIELD`: a secret, read from stdin or a terminal without echo.
class SecretCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::SecretCommand)

public:
    SecretCommand();
    bool mayAsk() const override { return true; }
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
