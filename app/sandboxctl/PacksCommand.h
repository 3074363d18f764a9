#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl packs list|install|enable|disable|remove`: atom packs.
class PacksCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::PacksCommand)

public:
    PacksCommand();
    bool mayAsk() const override { return true; }
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
