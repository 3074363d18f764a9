#pragma once

#include "AtomPack.h"
#include "PackStateStore.h"
#include "protocol/BackendInfo.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QMutex>

#include <functional>
#include <memory>

namespace sandbox {

class BackendRegistry;
class SecretStore;
class SettingsStore;

// The installed atom packs: installing one registers its backends, enabling and disabling
// it makes them activatable or not, removing it unregisters them. What the engine knows
// about every pack (also a removed one, so its settings can return with the same identity)
// is kept in packs.json. Every public method is thread-safe.
class PackManager final
{
    Q_DECLARE_TR_FUNCTIONS(PackManager)

public:
    struct Context
    {
        BackendRegistry &registry;
        SettingsStore &settings;
        SecretStore &secrets;
        std::function<void(const BackendRef &)> refreshAvailability;
        std::function<void(const QString &)> addWarning;
        std::function<void()> backendsChanged;
    };
    // Leaves the pack's active backend (if one is) before the pack is disabled or
    // removed; `action` names the operation for the error it returns when it cannot.
    using FallBack = std::function<Status(const QString &packId, const QString &action)>;

    // Reads packs.json; a file that cannot be read is reported through addWarning.
    PackManager(Context context, const QString &configDirectory);

    Status install(std::shared_ptr<AtomPack> pack);
    QList<PackInfo> packs() const;
    Status setEnabled(const QString &packId, bool enabled);
    // Disables (remove = false) or removes the pack, after `fallBack` left its backend.
    Status leave(const QString &packId, bool remove, const FallBack &fallBack);

    QStringList warnings() const;

private:
    Status adoptSettings(const QString &packId, const QString &publisher, const PackRecord *previous);

    Context m_context;
    PackStateStore m_store;
    mutable QMutex m_mutex;
    QHash<QString, std::shared_ptr<AtomPack>> m_packs;
    QMap<QString, PackRecord> m_records;
};

} // namespace sandbox
