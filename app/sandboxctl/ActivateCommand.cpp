#include "ActivateCommand.h"

#include "ActivationReport.h"
#include "EngineConnection.h"
#include "client/Client.h"

#include <algorithm>

namespace sandbox {

ActivateCommand::ActivateCommand()
    : Command(QStringLiteral("activate"), QStringLiteral("activate REF"),
              tr("Activate a backend, printing each step of the activation; fails when the activation fails."))
{ }

int ActivateCommand::execute(EngineConnection &engine)
{
    if (arguments().size() != 1)
        return usageError(tr("expects one backend reference"));
    const Result<BackendRef> ref = BackendRef::parse(arguments().constFirst());
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    // An unknown backend is named as such at once, before any activation step is shown.
    const Result<QList<BackendInfo>> backends = EngineConnection::await(engine.client().backends());
    if (!backends.ok())
        return failWith(backends.error());
    if (std::none_of(backends.value().cbegin(), backends.value().cend(),
                     [&](const BackendInfo &info) { return info.ref == ref.value(); }))
        return fail(tr("no such backend %1 (sandboxctl backends lists them)").arg(ref.value().toString()));
    return ActivationReport::activate(engine, ref.value(), std::nullopt, {});
}

} // namespace sandbox
