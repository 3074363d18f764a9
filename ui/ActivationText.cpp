#include "ActivationText.h"

namespace sandbox {

QString ActivationText::stepTitle(ActivationStep step)
{
    switch (step) {
    case ActivationStep::Validate:
        return tr("Validate settings");
    case ActivationStep::ResolveSecrets:
        return tr("Resolve secrets");
    case ActivationStep::Prepare:
        return tr("Configure and prepare");
    case ActivationStep::Probe:
        return tr("Probe availability");
    case ActivationStep::Swap:
        return tr("Switch the active backend");
    case ActivationStep::Persist:
        return tr("Save settings and selection");
    case ActivationStep::Cleanup:
        return tr("Clean up the previous backend");
    }
    return {};
}

QString ActivationText::failureSummary(const ActivationResult &result, const QString &candidateName,
                                       const QString &activeName)
{
    const QString reason = result.error.message.isEmpty() ? result.error.toString() : result.error.message;
    const QString failed = result.failedStep
        ? tr("Activating “%1” failed at step “%2”: %3").arg(candidateName, stepTitle(*result.failedStep), reason)
        : tr("Activating “%1” failed: %2").arg(candidateName, reason);
    const QString still
        = activeName.isEmpty() ? tr("No backend is active.") : tr("“%1” is still the active backend.").arg(activeName);
    return failed + QLatin1Char('\n') + still;
}

} // namespace sandbox
