#include "BackendsCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "client/Client.h"

namespace sandbox {

BackendsCommand::BackendsCommand()
    : Command(QStringLiteral("backends"), QStringLiteral("backends [--json]"), tr("List the sandbox backends."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the list as JSON")));
}

int BackendsCommand::execute(EngineConnection &engine)
{
    if (!arguments().isEmpty())
        return usageError(tr("unexpected argument"));
    const Result<QList<BackendInfo>> list = EngineConnection::await(engine.client().backends());
    if (!list.ok())
        return failWith(list.error());
    Listing::print(
        list.value(), isSet(QStringLiteral("json")), { tr("REF"), tr("NAME"), tr("SOURCE"), tr("STATE") },
        [](const BackendInfo &info) {
            // What would stop an activation, before anyone tries it.
            // The policy's refusal first: it holds whatever the backend's availability.
            const QString state = info.active ? tr("active")
                : !info.unenforced.isEmpty()
                ? tr("not under this policy: does not enforce %1").arg(info.unenforced.join(QStringLiteral(", ")))
                : !info.availability.available ? tr("unavailable: %1").arg(info.availability.reason)
                : !info.missingSettings.isEmpty()
                ? tr("needs settings: %1").arg(info.missingSettings.join(QStringLiteral(", ")))
                : tr("available");
            return QStringList{ info.ref.toString(), info.descriptor.name, info.sourceLabel, state };
        });
    return 0;
}

} // namespace sandbox
