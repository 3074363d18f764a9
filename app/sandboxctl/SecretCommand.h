#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl secret set|remove REF FIELD`: a secret, read from stdin or a terminal without
// echo; `sandboxctl secret storage`: whether secrets may be stored in plain text.
class SecretCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::SecretCommand)

public:
    SecretCommand();
    bool mayAsk() const override { return true; }
    bool needsEngine() const override;
    int execute(EngineConnection &engine) override;

private:
    // `secret storage [keychain|plaintext]`: the user's secret storage choice.
    int storage(const EngineConnection &engine) const;
};

} // namespace sandbox
