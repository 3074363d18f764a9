#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl settings get|set REF`: a backend's settings (secrets only as configured or not).
class SettingsCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::SettingsCommand)

public:
    SettingsCommand();
    bool mayAsk() const override { return true; }
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
