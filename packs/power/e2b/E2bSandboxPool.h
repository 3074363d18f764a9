#pragma once

#include "E2bApi.h"

#include <QMap>
#include <QMutex>

namespace sandbox::power {

// The sandboxes of one activation: at most one without internet access and one with it,
// created on first use and reused by every later command. Thread-safe; concurrent callers
// wanting the same sandbox wait for the one creation.
class E2bSandboxPool final
{
public:
    explicit E2bSandboxPool(E2bApi api);

    const E2bApi &api() const { return m_api; }

    // The sandbox for commands with (or without) internet access, created when missing.
    Result<E2bSandbox> sandboxFor(bool internet);
    // Kills every sandbox this pool created.
    Status killAll();

private:
    E2bApi m_api;
    QMutex m_mutex;
    QMap<bool, E2bSandbox> m_sandboxes;
};

} // namespace sandbox::power
