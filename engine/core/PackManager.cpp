#include "PackManager.h"

#include "BackendRegistry.h"
#include "SecretStore.h"
#include "SettingsStore.h"

#include <algorithm>

namespace sandbox {

PackManager::PackManager(Context context, const QString &configDirectory)
    : m_context(std::move(context))
    , m_store(configDirectory)
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

Status PackManager::install(std::shared_ptr<AtomPack> pack)
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

    const QList<std::shared_ptr<Launcher>> launchers = pack->createLaunchers();
    if (launchers.isEmpty())
        return Error{ id, tr("The pack contributes no backend."), {} };
    QStringList secretFields;
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
        std::weak_ptr<AtomPack> weakPack = pack;
        LauncherFactory factory = [weakPack, kind]() -> std::shared_ptr<Launcher> {
            std::shared_ptr<AtomPack> owner = weakPack.lock();
            if (!owner)
                return nullptr;
            for (const std::shared_ptr<Launcher> &made : owner->createLaunchers()) {
                if (made && made->kind() == kind)
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

    const std::optional<PackRecord> previous
        = m_records.contains(id) ? std::optional<PackRecord>(m_records.value(id)) : std::nullopt;
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
    if (Status status = m_store.save(records); !status.ok()) {
        rollback();
        return status;
    }
    m_records = records;
    m_packs.insert(id, pack);
    m_context.registry.setPackEnabled(id, record.enabled);
    locker.unlock();

    for (const BackendRef &ref : std::as_const(added))
        m_context.refreshAvailability(ref);
    m_context.backendsChanged();
    return {};
}

QList<PackInfo> PackManager::packs() const
{
    QMutexLocker locker(&m_mutex);
    const QList<BackendEntry> entries = m_context.registry.entries();
    QList<PackInfo> list;
    for (auto it = m_packs.begin(); it != m_packs.end(); ++it) {
        const PackRecord record = m_records.value(it.key());
        PackInfo info;
        info.id = it.key();
        info.publisher = record.publisher;
        info.name = record.name;
        info.version = record.version;
        info.enabled = record.enabled;
        for (const BackendEntry &entry : entries) {
            if (entry.packId == it.key())
                info.backends.append(entry.ref);
        }
        list.append(info);
    }
    std::sort(list.begin(), list.end(), [](const PackInfo &a, const PackInfo &b) { return a.id < b.id; });
    return list;
}

Status PackManager::leave(const QString &packId, bool remove, const FallBack &fallBack)
{
    {
        QMutexLocker locker(&m_mutex);
        if (!m_packs.contains(packId))
            return Error{ packId, tr("No pack \"%1\" is installed.").arg(packId), {} };
    }
    if (Status status = fallBack(packId, remove ? tr("remove") : tr("disable")); !status.ok())
        return status;

    QMutexLocker locker(&m_mutex);
    QMap<QString, PackRecord> records = m_records;
    PackRecord &record = records[packId];
    if (remove)
        record.installed = false;
    else
        record.enabled = false;
    if (Status saved = m_store.save(records); !saved.ok())
        return saved;
    m_records = records;
    if (remove) {
        m_packs.remove(packId);
        m_context.registry.removePack(packId);
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
    if (Status saved = m_store.save(records); !saved.ok())
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
