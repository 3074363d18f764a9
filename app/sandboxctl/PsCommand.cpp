#include "PsCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "server/Client.h"

namespace sandbox {

PsCommand::PsCommand()
    : Command(QStringLiteral("ps"), QStringLiteral("ps [--json]"), tr("List sandboxed processes and their backends."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the list as JSON")));
}

int PsCommand::execute(EngineConnection &engine)
{
    if (!arguments().isEmpty())
        return usageError(tr("unexpected argument"));
    const Result<QList<ProcessInfo>> list = EngineConnection::await(engine.client().processes());
    if (!list.ok())
        return failWith(list.error());
    Listing::print(list.value(), isSet(QStringLiteral("json")),
                   { tr("ID"), tr("PID"), tr("BACKEND"), tr("STATE"), tr("STARTED"), tr("COMMAND") },
                   [](const ProcessInfo &info) {
                       return QStringList{ QString::number(info.id),
                                           QString::number(info.pid),
                                           info.owner.toString(),
                                           info.running ? tr("running") : tr("exited %1").arg(info.exit.shellStatus()),
                                           info.startedAt,
                                           info.argv.join(QLatin1Char(' ')) };
                   });
    return 0;
}

} // namespace sandbox
