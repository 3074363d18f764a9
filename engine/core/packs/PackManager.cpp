#include "core/packs/PackManager.h"

#include "core/backends/BackendRegistry.h"
#include "core/packs/PackArchive.h"
#include "core/packs/PackFolder.h"
#include "core/secrets/SecretStore.h"
#include "core/settings/SettingsStore.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>

namespace sandbox {

namespace {

// A descriptor crosses the engine boundary as data: it must survive its own encoding.
Status checkDescriptor(const BackendDescriptor &descriptor, const QString &path)
{
    if (Status valid = descriptor.validate(path); !valid.ok())
        return valid;
    Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(descriptor.toJson(), path);
    if (!decoded.ok())
        return decoded.error();
    return {};
}

Status copyFile(const QString &from, const QString &to)
{
    QFile source(from);
    if (!source.copy(to))
        return Error{ from,
                      PackManager::tr("cannot copy %1 into the pack folder: %2").arg(from, source.errorString()),
                      {} };
    QFile::setPermissions(to,
                          QFileInfo(from).isExecutable() ? QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                                         : QFile::ReadOwner | QFile::WriteOwner);
    return {};
}

} // namespace

PackManager::PackManager(Context context, const QString &configDirectory, const QString &packsDirectory)
    : m_context(std::move(context))
    , m_store(configDirectory)
    , m_packsDirectory(packsDirectory)
{
    Result<QMap<QString, PackRecord>> records = m_store.load();
    if (records.ok())
        m_records = records.value();
    else
        m_context.addWarning(records.error().toString());
}

QStringList PackManager::warnings() const
{
    return m_store.warnings();
}

Status PackManager::install(std::shared_ptr<AtomPack> pack, Origin origin, const std::optional<PackManifest> &manifest)
{
    if (!pack)
        return Error{ QStringLiteral("pack"), tr("No pack was given."), {} };
    const QString id = pack->id();
    if (!BackendRef::isValidIdentifier(id))
        return Error{ QStringLiteral("pack.id"), tr("\"%1\" is not a valid pack id.").arg(id), {} };
    const QString publisher = pack->publisher().trimmed();
    if (publisher.isEmpty() || publisher.contains(QLatin1Char('/')))
        return Error{ id, tr("The pack must name its publisher (without \"/\")."), {} };

    QMutexLocker locker(&m_mutex);
    if (m_packs.contains(id))
        return Error{ id, tr("A pack with this id is already installed. Remove it first."), {} };
    const std::optional<PackRecord> previous
        = m_records.contains(id) ? std::optional<PackRecord>(m_records.value(id)) : std::nullopt;
    // A pack the user removed stays removed until it is installed again on purpose.
    if (origin == Origin::Discovered && previous && !previous->installed)
        return {};

    const QList<std::shared_ptr<Launcher>> launchers = pack->createLaunchers();
    if (launchers.isEmpty())
        return Error{ id, tr("The pack contributes no backend."), {} };
    QStringList secretFields;
    QStringList refused;
    QList<BackendRef> added;
    auto rollback = [&] { m_context.registry.removePack(id); };
    for (const std::shared_ptr<Launcher> &launcher : launchers) {
        if (!launcher) {
            rollback();
            return Error{ id, tr("The pack returned an empty launcher."), {} };
        }
        const QString kind = launcher->kind();
        if (!BackendRef::isValidIdentifier(kind)) {
            rollback();
            return Error{ id, tr("\"%1\" is not a valid backend kind.").arg(kind), {} };
        }
        const BackendRef ref = BackendRef::atomPack(id, kind);
        if (const QString problem = PackManifest::builtinKindProblem(kind); !problem.isEmpty()) {
            refused.append(tr("%1 was refused: %2.").arg(ref.toString(), problem));
            continue;
        }
        if (manifest && !manifest->kinds.contains(kind)) {
            refused.append(tr("%1 was refused: its manifest does not declare the kind %2.").arg(ref.toString(), kind));
            continue;
        }
        if (Status valid = checkDescriptor(launcher->descriptor(), ref.toString() + QStringLiteral(".descriptor"));
            !valid.ok()) {
            refused.append(
                tr("%1 was refused: its descriptor is not valid (%2).").arg(ref.toString(), valid.error().toString()));
            continue;
        }
        std::weak_ptr<AtomPack> weakPack = pack;
        const QString where = ref.toString() + QStringLiteral(".descriptor");
        LauncherFactory factory = [weakPack, kind, where]() -> std::shared_ptr<Launcher> {
            std::shared_ptr<AtomPack> owner = weakPack.lock();
            if (!owner)
                return nullptr;
            for (const std::shared_ptr<Launcher> &made : owner->createLaunchers()) {
                // Every instance's descriptor is checked again before the engine uses it.
                if (made && made->kind() == kind && checkDescriptor(made->descriptor(), where).ok())
                    return made;
            }
            return nullptr;
        };
        if (Status status = m_context.registry.add(ref, pack->name(), id, launcher, std::move(factory)); !status.ok()) {
            rollback();
            return status;
        }
        added.append(ref);
        for (const FieldSpec &field : launcher->descriptor().fields) {
            if (field.type == FieldSpec::Type::Secret)
                secretFields.append(kind + QLatin1Char('/') + field.id);
        }
    }
    if (manifest) {
        for (const QString &kind : manifest->kinds) {
            bool made = false;
            for (const std::shared_ptr<Launcher> &launcher : launchers)
                made = made || launcher->kind() == kind;
            if (!made)
                refused.append(tr("%1 is declared by the manifest, but the plugin does not provide it.")
                                   .arg(BackendRef::atomPack(id, kind).toString()));
        }
    }
    if (added.isEmpty()) {
        return Error{ id,
                      tr("The pack contributes no backend the engine accepts: %1").arg(refused.join(QLatin1Char(' '))),
                      {} };
    }

    if (Status status = adoptSettings(id, publisher, previous ? &*previous : nullptr); !status.ok()) {
        rollback();
        return status;
    }
    PackRecord record;
    record.publisher = publisher;
    record.name = pack->name();
    record.version = pack->version();
    record.enabled = (previous && previous->publisher == publisher) ? previous->enabled : true;
    record.installed = true;
    record.secretFields = secretFields;
    QMap<QString, PackRecord> records = m_records;
    records.insert(id, record);
    if (Status status = save(records); !status.ok()) {
        rollback();
        return status;
    }
    m_records = records;
    m_packs.insert(id, pack);
    m_refused.insert(id, refused);
    if (manifest)
        m_descriptions.insert(id, manifest->description);
    m_context.registry.setPackEnabled(id, record.enabled);
    locker.unlock();

    for (const QString &reason : std::as_const(refused))
        m_context.addWarning(reason);
    for (const BackendRef &ref : std::as_const(added))
        m_context.refreshAvailability(ref);
    m_context.backendsChanged();
    return {};
}

QString PackManager::folderOf(const QString &packId) const
{
    return QDir(m_packsDirectory).filePath(packId);
}

Result<PackInfo> PackManager::installFrom(const QString &path)
{
    const QFileInfo source(path);
    if (!source.exists())
        return Error{ path, tr("%1 does not exist.").arg(path), {} };
    if (!source.isDir() && !PackArchive::looksLikeArchive(path))
        return Error{ path, tr("%1 is neither a pack folder nor a .tar.gz of one.").arg(path), {} };
    if (!QDir().mkpath(m_packsDirectory))
        return Error{ m_packsDirectory, tr("cannot create the packs folder %1").arg(m_packsDirectory), {} };
    QFile::setPermissions(m_packsDirectory, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

    QTemporaryDir staging(QDir(m_packsDirectory).filePath(QStringLiteral(".staging-XXXXXX")));
    if (!staging.isValid())
        return Error{ m_packsDirectory, tr("cannot create a staging folder: %1").arg(staging.errorString()), {} };
    QString folder = source.absoluteFilePath();
    if (!source.isDir()) {
        const QString unpacked = staging.filePath(QStringLiteral("unpacked"));
        QDir().mkpath(unpacked);
        Result<QString> root = PackArchive(folder).unpack(unpacked);
        if (!root.ok())
            return root.error();
        folder = root.value();
    }
    Result<PackManifest> manifest = PackFolder(folder).readManifest();
    if (!manifest.ok())
        return manifest.error();
    const PackManifest &m = manifest.value();
    {
        QMutexLocker locker(&m_mutex);
        if (m_packs.contains(m.id))
            return Error{ m.id, tr("A pack with the id \"%1\" is already installed. Remove it first.").arg(m.id), {} };
    }
    const QFileInfo plugin(QDir(folder).filePath(m.plugin));
    if (plugin.isSymLink() || !plugin.isFile())
        return Error{ QStringLiteral("pack.json.plugin"),
                      tr("the plugin %1 named by the manifest is not a file in the pack's folder").arg(m.plugin),
                      {} };

    // Only what the manifest names is installed: the manifest and the plugin.
    const QString prepared = staging.filePath(QStringLiteral("pack"));
    QDir().mkpath(prepared);
    for (const QString &name : { QString::fromLatin1(PackFolder::manifestFileName), m.plugin }) {
        if (Status copied = copyFile(QDir(folder).filePath(name), QDir(prepared).filePath(name)); !copied.ok())
            return copied.error();
    }
    const QString target = folderOf(m.id);
    QDir(target).removeRecursively(); // what a removed pack left behind
    if (!QDir().rename(prepared, target))
        return Error{ target, tr("cannot move the pack into %1").arg(target), {} };

    auto discard = [&] { QDir(target).removeRecursively(); };
    const PackFolder installed(target);
    Result<std::shared_ptr<AtomPack>> pack = installed.load(m);
    if (!pack.ok()) {
        discard();
        return pack.error();
    }
    if (Status status = install(pack.value(), Origin::Installed, m); !status.ok()) {
        discard();
        return status.error();
    }
    QMutexLocker locker(&m_mutex);
    return infoLocked(m.id);
}

void PackManager::loadInstalled()
{
    QMap<QString, PackRecord> records;
    {
        QMutexLocker locker(&m_mutex);
        records = m_records;
    }
    for (auto it = records.cbegin(); it != records.cend(); ++it) {
        const PackFolder folder(folderOf(it.key()));
        if (!it.value().installed || !QFileInfo(folder.path()).isDir())
            continue;
        Result<PackManifest> manifest = folder.readManifest();
        Result<std::shared_ptr<AtomPack>> pack
            = manifest.ok() ? folder.load(manifest.value()) : Result<std::shared_ptr<AtomPack>>(manifest.error());
        const Status installed
            = pack.ok() ? install(pack.value(), Origin::Installed, manifest.value()) : Status(pack.error());
        if (!installed.ok())
            m_context.addWarning(
                tr("The installed pack \"%1\" could not be loaded: %2").arg(it.key(), installed.error().toString()));
    }
}

PackInfo PackManager::infoLocked(const QString &packId) const
{
    const PackRecord record = m_records.value(packId);
    PackInfo info;
    info.id = packId;
    info.publisher = record.publisher;
    info.name = record.name;
    info.version = record.version;
    info.enabled = record.enabled;
    info.description = m_descriptions.value(packId);
    info.refused = m_refused.value(packId);
    for (const BackendEntry &entry : m_context.registry.entries()) {
        if (entry.packId == packId)
            info.backends.append(entry.ref);
    }
    return info;
}

Status PackManager::save(const QMap<QString, PackRecord> &records)
{
    if (Status saved = m_store.save(records); !saved.ok())
        return Error{ saved.error().where, tr("The pack state could not be saved: %1").arg(saved.error().message), {} };
    return {};
}

QList<PackInfo> PackManager::packs() const
{
    QMutexLocker locker(&m_mutex);
    QList<PackInfo> list;
    for (auto it = m_packs.begin(); it != m_packs.end(); ++it)
        list.append(infoLocked(it.key()));
    std::sort(list.begin(), list.end(), [](const PackInfo &a, const PackInfo &b) { return a.id < b.id; });
    return list;
}

Status PackManager::leave(const QString &packId, bool remove, const FallBack &fallBack)
{
    QMap<QString, PackRecord> before;
    {
        QMutexLocker locker(&m_mutex);
        if (!m_packs.contains(packId))
            return Error{ packId, tr("No pack \"%1\" is installed.").arg(packId), {} };
        before = m_records;
        // The new state is saved first: when it cannot be, nothing has changed yet, and
        // the runtime never leaves the pack's backend for an operation that is refused.
        QMap<QString, PackRecord> records = m_records;
        if (remove)
            records[packId].installed = false;
        else
            records[packId].enabled = false;
        if (Status saved = save(records); !saved.ok())
            return Error{ packId,
                          tr("Cannot %1 the pack: %2 Nothing was changed.")
                              .arg(remove ? tr("remove") : tr("disable"), saved.error().message),
                          {} };
        m_records = records;
    }
    if (Status status = fallBack(packId, remove ? tr("remove") : tr("disable")); !status.ok()) {
        QMutexLocker locker(&m_mutex);
        if (Status restored = save(before); !restored.ok()) {
            m_context.addWarning(tr("The pack \"%1\" stays as it was, but its state could not be saved again (%2); "
                                    "it may be %3 at the next start.")
                                     .arg(packId, restored.error().message, remove ? tr("missing") : tr("disabled")));
        }
        m_records = before;
        return status;
    }

    QMutexLocker locker(&m_mutex);
    if (remove) {
        m_packs.remove(packId);
        m_refused.remove(packId);
        m_descriptions.remove(packId);
        m_context.registry.removePack(packId);
        const QString folder = folderOf(packId);
        if (QFileInfo(folder).isDir() && !QDir(folder).removeRecursively())
            m_context.addWarning(
                tr("The files of the removed pack \"%1\" could not all be deleted from %2.").arg(packId, folder));
    } else {
        m_context.registry.setPackEnabled(packId, false);
    }
    locker.unlock();
    m_context.backendsChanged();
    return {};
}

Status PackManager::setEnabled(const QString &packId, bool enabled)
{
    QMutexLocker locker(&m_mutex);
    if (!m_packs.contains(packId))
        return Error{ packId, tr("No pack \"%1\" is installed.").arg(packId), {} };
    QMap<QString, PackRecord> records = m_records;
    records[packId].enabled = enabled;
    if (Status saved = save(records); !saved.ok())
        return saved;
    m_records = records;
    m_context.registry.setPackEnabled(packId, enabled);
    locker.unlock();
    for (const BackendEntry &entry : m_context.registry.entries()) {
        if (entry.packId == packId)
            m_context.refreshAvailability(entry.ref);
    }
    m_context.backendsChanged();
    return {};
}

Status PackManager::adoptSettings(const QString &packId, const QString &publisher, const PackRecord *previous)
{
    // Same identity (or a first install): the settings under its refs are its own.
    if (previous && previous->publisher == publisher)
        return {};
    const QString prefix = QStringLiteral("atom-pack:") + packId + QLatin1Char(':');
    const QString newIdentity = publisher + QLatin1Char('/') + packId;

    if (previous) {
        // Another publisher's pack takes over this id: its secrets must never reach the
        // newcomer. They cannot be moved without exposing them, so they are removed.
        for (const QString &secret : previous->secretFields) {
            const QString kind = secret.section(QLatin1Char('/'), 0, 0);
            const QString field = secret.section(QLatin1Char('/'), 1);
            if (Status removed = m_context.secrets.remove(BackendRef::atomPack(packId, kind), field); !removed.ok())
                return removed;
        }
    }
    const QString oldIdentity = previous ? previous->publisher + QLatin1Char('/') + packId : QString();
    bool movedAway = false;
    Status status = m_context.settings.update([&](SettingsDocument &document) -> Status {
        movedAway = false;
        QMap<QString, QJsonObject> theirs;
        for (auto it = document.backends.begin(); it != document.backends.end();) {
            if (it.key().startsWith(prefix)) {
                theirs.insert(it.key(), it.value());
                it = document.backends.erase(it);
            } else {
                ++it;
            }
        }
        if (!theirs.isEmpty() && !oldIdentity.isEmpty()) {
            document.retained.insert(oldIdentity, theirs);
            movedAway = true;
        } else if (!theirs.isEmpty()) {
            // Settings of an unknown identity: keep them, but not under the newcomer's refs.
            document.retained.insert(QStringLiteral("unknown/") + packId, theirs);
            movedAway = true;
        }
        const QMap<QString, QJsonObject> mine = document.retained.take(newIdentity);
        for (auto it = mine.begin(); it != mine.end(); ++it)
            document.backends.insert(it.key(), it.value());
        if (document.active && document.active->toString().startsWith(prefix))
            document.active.reset();
        return {};
    });
    if (status.ok() && movedAway && previous) {
        m_context.addWarning(tr("The pack \"%1\" is now provided by %2 instead of %3. The settings of the earlier "
                                "pack were set aside and its secrets were removed.")
                                 .arg(packId, publisher, previous->publisher));
    }
    return status;
}

} // namespace sandbox
