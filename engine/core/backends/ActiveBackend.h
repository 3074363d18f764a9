#pragma once

#include "core/launcher/Launcher.h"
#include "protocol/BackendRef.h"

#include <QMutex>

#include <memory>
#include <optional>

namespace sandbox {

class ProcessTable;

// The active launcher slot. The pointer changes only under the mutex, so a spawn sees
// the old launcher or the new one, never a half-made state.
class ActiveBackend final
{
public:
    struct Snapshot
    {
        std::optional<BackendRef> ref;
        std::shared_ptr<Launcher> launcher;
    };

    Snapshot current() const;
    std::optional<BackendRef> ref() const;
    // Installs `next`, returns what was active.
    Snapshot swap(Snapshot next);
    // Copies the active launcher and pins it in `table` in one step, so a swap right
    // after cannot dispose the launcher before the spawn is recorded. Unpin when done.
    Snapshot pinCurrent(ProcessTable &table) const;

private:
    mutable QMutex m_mutex;
    Snapshot m_current;
};

} // namespace sandbox
