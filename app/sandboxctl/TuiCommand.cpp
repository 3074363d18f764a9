#include "TuiCommand.h"

#include "EngineConnection.h"
#include "TerminalUi.h"

#include <unistd.h>

namespace sandbox {

TuiCommand::TuiCommand()
    : Command(QStringLiteral("tui"), QStringLiteral("tui"),
              tr("Full-screen terminal view: backends and their state, activation with step progress, the "
                 "policy, running processes, and Host Interaction questions answered on screen."))
{ }

int TuiCommand::execute(EngineConnection &engine)
{
    if (!arguments().isEmpty())
        return usageError(tr("unexpected argument"));
    if (!::isatty(STDIN_FILENO) || !::isatty(STDOUT_FILENO))
        return fail(tr("tui needs a terminal on stdin and stdout"));
    TerminalUi ui(engine.client(), Failure);
    const Result<int> ended = ui.run();
    return ended.ok() ? ended.value() : fail(ended.error().message);
}

} // namespace sandbox
