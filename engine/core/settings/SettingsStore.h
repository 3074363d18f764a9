#pragma once

#include "core/settings/SettingsDocument.h"
#include "protocol/Error.h"

#include <QStringList>

#include <functional>

namespace sandbox {

// Where backend settings and the active selection are kept. The engine validates values
// against each backend's schema before they reach a store; a store keeps what it is given.
class SettingsStore
{
public:
    virtual ~SettingsStore() = default;

    // The current document; an absent file gives an empty document.
    virtual Result<SettingsDocument> load() = 0;
    // Reads, changes and writes the document as one step that no other process or thread
    // can interleave with. When `change` returns an error nothing is written. `change` may
    // be called more than once (on a first look without the lock), so whatever it reports
    // must come from the document it is given last.
    virtual Status update(const std::function<Status(SettingsDocument &)> &change) = 0;
    // Things a user must be told (a corrupt file was backed up, ...).
    virtual QStringList warnings() const = 0;
};

} // namespace sandbox
