#include "core/backends/BackendRegistry.h"

#include "core/backends/ConfinementCheck.h"
#include "core/secrets/SecretStore.h"
#include "protocol/JsonReader.h"

#include <QDir>

namespace sandbox {

namespace {

constexpr qsizetype maxSourceLabelLength = 200; // as BackendInfo reads it

} // namespace

BackendRegistry::BackendRegistry(QString stateRoot, HostInteractionBroker *broker,
                                 std::function<void(const BackendRef &)> availabilityChanged,
                                 BackendHost::RefusalSink refused)
    : m_stateRoot(std::move(stateRoot))
    , m_broker(broker)
    , m_availabilityChanged(std::move(availabilityChanged))
    , m_refused(std::move(refused))
{ }

QString BackendRegistry::stateDirectoryFor(const BackendRef &ref) const
{
    // ':' cannot appear in a kind or pack id, so this mapping keeps refs apart.
    QString name = ref.toString();
    name.replace(QLatin1Char(':'), QLatin1Char('_'));
    return QDir(m_stateRoot).filePath(QStringLiteral("backends/") + name);
}

std::unique_ptr<BackendHost> BackendRegistry::makeHost(const BackendRef &ref) const
{
    auto host = std::make_unique<BackendHost>(ref, stateDirectoryFor(ref), m_broker, m_availabilityChanged, m_refused);
    host->setEngineDirectories(m_engineDirectories, m_runtimeDirectory);
    host->setCredentialInjector(m_credentials);
    return host;
}

void BackendRegistry::setCredentialInjector(std::shared_ptr<CredentialInjector> injector)
{
    m_credentials = std::move(injector);
}

void BackendRegistry::setEngineDirectories(QStringList directories, QString runtimeDirectory)
{
    m_engineDirectories = std::move(directories);
    m_runtimeDirectory = std::move(runtimeDirectory);
}

Status BackendRegistry::add(const BackendRef &ref, const QString &sourceLabel, const QString &packId,
                            std::shared_ptr<Launcher> catalog, LauncherFactory factory)
{
    if (!ref.isValid())
        return Error{ ref.toString(), tr("not a valid backend reference"), {} };
    if (!catalog)
        return Error{ ref.toString(), tr("no launcher was given"), {} };
    if (catalog->kind() != ref.kind())
        return Error{ ref.toString(),
                      tr("the launcher's kind \"%1\" does not match the reference").arg(catalog->kind()),
                      {} };
    // Attached before its descriptor is asked for (Launcher's contract): describing may
    // use the backend's state directory.
    std::unique_ptr<BackendHost> catalogHost = makeHost(ref);
    catalog->attach(catalogHost.get());
    const BackendDescriptor descriptor = catalog->descriptor();
    if (Status valid = descriptor.validate(ref.toString() + QStringLiteral(".descriptor")); !valid.ok())
        return valid;
    if (sourceLabel.trimmed().isEmpty() || !JsonReader::plainTextProblem(sourceLabel).isEmpty()
        || sourceLabel.size() > maxSourceLabelLength)
        return Error{ ref.toString(), tr("the name of its source must be short plain text"), {} };

    Slot slot;
    slot.entry.ref = ref;
    slot.entry.descriptor = descriptor;
    slot.entry.sourceLabel = sourceLabel;
    slot.entry.packId = packId;
    slot.entry.availability = Availability{ false, tr("Not checked yet.") };
    slot.catalog = std::move(catalog);
    slot.catalogHost = std::move(catalogHost);
    slot.factory = std::move(factory);

    QMutexLocker locker(&m_mutex);
    for (const Slot &existing : std::as_const(m_slots)) {
        if (existing.entry.ref == ref)
            return Error{ ref.toString(), tr("a backend with this reference is already registered"), {} };
    }
    m_slots.append(std::move(slot));
    return {};
}

void BackendRegistry::removePack(const QString &packId)
{
    QMutexLocker locker(&m_mutex);
    m_slots.removeIf([&](const Slot &slot) { return !slot.entry.packId.isEmpty() && slot.entry.packId == packId; });
}

void BackendRegistry::setPackEnabled(const QString &packId, bool enabled)
{
    QMutexLocker locker(&m_mutex);
    for (Slot &slot : m_slots) {
        if (!slot.entry.packId.isEmpty() && slot.entry.packId == packId)
            slot.entry.enabled = enabled;
    }
}

std::optional<BackendEntry> BackendRegistry::entry(const BackendRef &ref) const
{
    QMutexLocker locker(&m_mutex);
    for (const Slot &slot : m_slots) {
        if (slot.entry.ref == ref)
            return slot.entry;
    }
    return std::nullopt;
}

QList<BackendEntry> BackendRegistry::entries() const
{
    QMutexLocker locker(&m_mutex);
    QList<BackendEntry> list;
    for (const Slot &slot : m_slots)
        list.append(slot.entry);
    return list;
}

std::shared_ptr<Launcher> BackendRegistry::catalog(const BackendRef &ref) const
{
    QMutexLocker locker(&m_mutex);
    for (const Slot &slot : m_slots) {
        if (slot.entry.ref == ref)
            return slot.catalog;
    }
    return nullptr;
}

bool BackendRegistry::catalogServesActivations(const BackendRef &ref) const
{
    QMutexLocker locker(&m_mutex);
    for (const Slot &slot : m_slots) {
        if (slot.entry.ref == ref)
            return !slot.factory;
    }
    return false;
}

Availability BackendRegistry::checkedAvailability(const BackendRef &ref, const Availability &availability)
{
    // What a launcher says enters the engine here; clients decode it with the same codec, so
    // text they would refuse (markup, control characters, too long) never reaches them.
    if (Availability::fromJson(availability.toJson(), ref.toString() + QStringLiteral(".availability")).ok())
        return availability;
    return Availability{ availability.available,
                         tr("The backend's availability reason is not shown: it is not plain text or is too long.") };
}

void BackendRegistry::setAvailability(const BackendRef &ref, const Availability &reported)
{
    const Availability availability = checkedAvailability(ref, reported);
    QMutexLocker locker(&m_mutex);
    for (Slot &slot : m_slots) {
        if (slot.entry.ref == ref)
            slot.entry.availability = availability;
    }
}

Result<BackendRegistry::Instance> BackendRegistry::instantiate(const BackendRef &ref)
{
    LauncherFactory factory;
    std::shared_ptr<Launcher> catalog;
    BackendHost *catalogHost = nullptr;
    {
        QMutexLocker locker(&m_mutex);
        for (const Slot &slot : m_slots) {
            if (slot.entry.ref == ref) {
                factory = slot.factory;
                catalog = slot.catalog;
                catalogHost = slot.catalogHost.get();
            }
        }
    }
    if (!catalog)
        return Error{ ref.toString(), tr("No backend %1 is registered.").arg(ref.toString()), {} };
    if (!factory)
        return Instance{ catalog, catalogHost };

    std::shared_ptr<Launcher> launcher = factory();
    if (!launcher || launcher->kind() != ref.kind())
        return Error{ ref.toString(),
                      tr("The backend's provider did not create a launcher of kind \"%1\".").arg(ref.kind()),
                      {} };

    // The host lives exactly as long as the launcher that points to it: the holder
    // destroys the launcher first, then its host.
    struct Holder
    {
        std::unique_ptr<BackendHost> host;
        std::shared_ptr<Launcher> launcher;
    };
    auto holder = std::make_shared<Holder>();
    holder->host = makeHost(ref);
    holder->launcher = std::move(launcher);
    holder->launcher->attach(holder->host.get());
    return Instance{ std::shared_ptr<Launcher>(holder, holder->launcher.get()), holder->host.get() };
}

QList<BackendInfo> BackendRegistry::list(const ActiveBackend::Snapshot &active, const Policy &policy,
                                         const Result<SettingsDocument> &settings, SecretStore &secrets) const
{
    const std::optional<BackendRef> activeRef = active.ref;
    QList<BackendInfo> list;
    for (const BackendEntry &entry : entries()) {
        BackendInfo info;
        info.ref = entry.ref;
        info.descriptor = entry.descriptor;
        if (activeRef && *activeRef == entry.ref && active.launcher) {
            // The serving instance knows what it enforces after preparing (e.g. which
            // sandbox tier it chose); the schema stays the registered one.
            // What it says now enters the engine here: a claim clients would refuse (markup,
            // control characters) is withheld, never replaced by another tier's claim.
            const BackendDescriptor serving = active.launcher->descriptor();
            if (serving.fields == entry.descriptor.fields) {
                info.descriptor.enforcement.clear();
                for (auto it = serving.enforcement.cbegin(); it != serving.enforcement.cend(); ++it) {
                    if (!BackendDescriptor::enforcementDimensions().contains(it.key()))
                        continue;
                    const bool plain
                        = !it.value().trimmed().isEmpty() && JsonReader::plainTextProblem(it.value()).isEmpty();
                    info.descriptor.enforcement.insert(
                        it.key(),
                        plain ? it.value()
                              : QCoreApplication::translate("sandbox::Engine",
                                                            "(not shown: the backend's claim is not plain text)"));
                }
                if (JsonReader::plainTextProblem(serving.refusals).isEmpty())
                    info.descriptor.refusals = serving.refusals;
            }
        }
        info.availability = entry.availability;
        info.active = activeRef && *activeRef == entry.ref;
        info.sourceLabel = entry.sourceLabel;
        // What would stop an activation now, said before anyone tries: claims that leave a
        // restricted dimension unenforced, and required settings that are not set.
        info.unenforced = ConfinementCheck::unenforced(
            info.active && active.launcher ? active.launcher->confinement(policy) : info.descriptor.enforcement,
            policy);
        info.missingSettings = missingSettings(entry, settings, secrets);
        if (!entry.enabled) {
            // Listed so the user sees it, but it cannot be activated until its pack is enabled.
            info.availability = Availability{ false,
                                              QCoreApplication::translate(
                                                  "sandbox::Engine",
                                                  "Its pack \"%1\" is disabled. Enable the pack to use this backend.")
                                                  .arg(entry.sourceLabel) };
        }
        list.append(info);
    }
    return list;
}

QStringList BackendRegistry::missingSettings(const BackendEntry &entry, const Result<SettingsDocument> &settings,
                                             SecretStore &secrets)
{
    if (!settings.ok())
        return {}; // the settings cannot be read: activation says so itself
    const Result<SettingsValues> stored
        = SettingsValues::fromJson(settings.value().backends.value(entry.ref.toString()), entry.ref.toString());
    const SettingsValues values = stored.ok() ? stored.value().withDefaults(entry.descriptor) : SettingsValues();
    QStringList missing;
    for (const FieldSpec &field : entry.descriptor.fields) {
        if (!field.required)
            continue;
        if (field.type == FieldSpec::Type::Secret) {
            const Result<bool> configured = secrets.isConfigured(entry.ref, field.id);
            if (configured.ok() && !configured.value())
                missing << field.id;
        } else {
            const QJsonValue value = values.values.value(field.id);
            if (value.isUndefined() || value.isNull() || (value.isString() && value.toString().trimmed().isEmpty()))
                missing << field.id;
        }
    }
    return missing;
}

} // namespace sandbox
