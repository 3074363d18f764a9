#pragma once

#include "core/packs/AtomPack.h"
#include "core/packs/PackManifest.h"
#include "core/packs/PackStateStore.h"
#include "protocol/BackendInfo.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QMutex>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

class BackendRegistry;
class SecretStore;
class SettingsStore;

// The installed atom packs: installing one registers its backends, enabling and disabling
// it makes them activatable or not, removing it unregisters them. What the engine knows
// about every pack (also a removed one, so its settings can return with the same identity)
// is kept in packs.json; the packs installed from a folder or archive are copied under
// `packsDirectory`, one folder per pack id. Every public method is thread-safe.
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

    // How a pack object came to be installed.
    enum class Origin {
        Given, // handed to the engine (tests, an embedding program)
        Discovered, // found on the plugin search path: a pack the user removed stays removed
        Installed, // loaded from its folder under packsDirectory
    };

    // Reads packs.json; a file that cannot be read is reported through addWarning.
    PackManager(Context context, const QString &configDirectory, const QString &packsDirectory);

    // Registers the backends of `pack`. With a manifest, the plugin must contribute exactly
    // the kinds it declares. A backend that is built-in, undeclared or whose descriptor is
    // not valid is refused (listed in PackInfo::refused), the others are installed.
    Status install(std::shared_ptr<AtomPack> pack, Origin origin = Origin::Given,
                   const std::optional<PackManifest> &manifest = std::nullopt);
    // Installs a pack from a folder or a .tar.gz of one: validated, copied under
    // packsDirectory, loaded and registered. Nothing is left behind when it fails.
    Result<PackInfo> installFrom(const QString &path);
    // Loads every pack installed under packsDirectory (at start-up). Failures are warnings.
    void loadInstalled();
    QList<PackInfo> packs() const;
    Status setEnabled(const QString &packId, bool enabled);
    // Disables (remove = false) or removes the pack, after `fallBack` left its backend.
    Status leave(const QString &packId, bool remove, const FallBack &fallBack);

    QStringList warnings() const;

private:
    Status adoptSettings(const QString &packId, const QString &publisher, const PackRecord *previous);
    Status save(const QMap<QString, PackRecord> &records);
    PackInfo infoLocked(const QString &packId) const;
    QString folderOf(const QString &packId) const;

    Context m_context;
    PackStateStore m_store;
    QString m_packsDirectory;
    mutable QMutex m_mutex;
    QHash<QString, std::shared_ptr<AtomPack>> m_packs;
    QMap<QString, PackRecord> m_records;
    QHash<QString, QString> m_descriptions;
    QHash<QString, QStringList> m_refused;
};

} // namespace sandbox
