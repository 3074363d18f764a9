#pragma once

#include "Command.h"

namespace sandbox {

struct Refusal;

// `sandboxctl events`: what the sandbox refused recently (which command, what, the rule),
// and with --follow each refusal as it happens.
class EventsCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::EventsCommand)

public:
    EventsCommand();
    int execute(EngineConnection &engine) override;

private:
    static QStringList row(const Refusal &refusal);
    static QStringList header();
};

} // namespace sandbox
