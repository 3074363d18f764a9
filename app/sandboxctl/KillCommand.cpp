#include "KillCommand.h"

#include "EngineConnection.h"
#include "Terminal.h"
#include "client/Client.h"

namespace sandbox {

KillCommand::KillCommand()
    : Command(QStringLiteral("kill"), QStringLiteral("kill ID"),
              tr("Kill a sandboxed process (everything in its sandbox)."))
{ }

int KillCommand::execute(EngineConnection &engine)
{
    bool ok = false;
    const quint64 id = arguments().value(0).toULongLong(&ok);
    if (arguments().size() != 1 || !ok || id == 0)
        return usageError(tr("expects one process ID (see sandboxctl ps)"));
    const Status status = EngineConnection::await(engine.client().kill(id));
    if (!status.ok())
        return failWith(status.error());
    Terminal::out(tr("killed process %1\n").arg(id));
    return 0;
}

} // namespace sandbox
