#include "StatusCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"
#include "common/EngineProvider.h"

namespace sandbox {

StatusCommand::StatusCommand()
    : Command(QStringLiteral("status"), QStringLiteral("status [--json]"),
              tr("Show the engine: active backend, warnings, processes, who hosts it."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the status as JSON")));
}

int StatusCommand::execute(EngineConnection &engine)
{
    if (!arguments().isEmpty())
        return usageError(tr("unexpected argument"));
    const Result<QJsonObject> status = EngineConnection::await(engine.client().status());
    if (!status.ok())
        return failWith(status.error());
    QJsonObject s = status.value();
    s.insert(QStringLiteral("embedded"), engine.provider().isOwner());
    s.insert(QStringLiteral("socket"), engine.provider().socketPath());
    if (isSet(QStringLiteral("json"))) {
        Listing::printJson(s);
        return 0;
    }
    const QJsonObject server = s.value(QStringLiteral("server")).toObject();
    const Result<BackendRef> active = BackendRef::fromJson(s.value(QStringLiteral("active")), QStringLiteral("active"));
    QString text;
    text += tr("engine:          pid %1, version %2, protocol %3, %4\n")
                .arg(Listing::text(server.value(QStringLiteral("pid"))),
                     Listing::text(server.value(QStringLiteral("version"))),
                     Listing::text(server.value(QStringLiteral("protocolVersion"))),
                     engine.provider().isOwner() ? tr("embedded in this command")
                                                 : tr("serving %1").arg(engine.provider().socketPath()));
    text += tr("active backend:  %1\n").arg(active.ok() ? active.value().toString() : tr("none"));
    text += tr("processes:       %1 running\n").arg(Listing::text(s.value(QStringLiteral("processes"))));
    text += tr("clients:         %1\n").arg(Listing::text(s.value(QStringLiteral("clients"))));
    const QJsonArray warnings = s.value(QStringLiteral("warnings")).toArray();
    for (const QJsonValue &warning : warnings)
        text += tr("warning:         %1\n").arg(warning.toString());
    Terminal::out(text);
    return 0;
}

} // namespace sandbox
