#include "ActivateCommand.h"

#include "ActivationReport.h"

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
    return ActivationReport::activate(engine, ref.value(), std::nullopt, {});
}

} // namespace sandbox
