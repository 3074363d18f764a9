#include "PsCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "client/Client.h"

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
    if (isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const ProcessInfo &info : list.value())
            array.append(info.toJson()); // with "notes" as the engine sent them
        Listing::printJson(array);
        return 0;
    }
    // What the backend noted about how a command's sandbox started (a restored VM, or why
    // it booted) goes on its own lines under the command.
    QList<QStringList> rows;
    QList<QStringList> notes;
    for (const ProcessInfo &info : list.value()) {
        rows.append({ QString::number(info.id), QString::number(info.pid), info.owner.toString(),
                      info.running ? tr("running") : tr("exited %1").arg(info.exit.shellStatus()), info.startedAt,
                      info.argv.join(QLatin1Char(' ')) });
        notes.append(info.notes);
    }
    Listing::printTable({ tr("ID"), tr("PID"), tr("BACKEND"), tr("STATE"), tr("STARTED"), tr("COMMAND") }, rows, notes);
    return 0;
}

} // namespace sandbox
