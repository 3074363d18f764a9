#pragma once

#include "Command.h"

namespace sandbox {

// `sandboxctl describe REF`: a backend's descriptor.
class DescribeCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::DescribeCommand)

public:
    DescribeCommand();
    int execute(EngineConnection &engine) override;
};

} // namespace sandbox
