#pragma once

#include "protocol/BackendRef.h"
#include "protocol/SettingsValues.h"

#include <QCoreApplication>
#include <QList>

#include <optional>

namespace sandbox {

class EngineConnection;

// Activations and settings changes as sandboxctl reports them: each step of the
// activation as it happens, then the outcome and what stays active on failure.
class ActivationReport final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::ActivationReport)

public:
    // Activates `ref` (optionally with new settings/secrets), printing each step.
    static int activate(EngineConnection &engine, const BackendRef &ref, const std::optional<SettingsValues> &candidate,
                        const QList<SecretUpdate> &secrets);
    // Stores new settings; the active backend's through an activation, so the running
    // backend and the stored settings never disagree.
    static int applySettings(EngineConnection &engine, const BackendRef &ref, const SettingsValues &values,
                             const QList<SecretUpdate> &secrets);
};

} // namespace sandbox
