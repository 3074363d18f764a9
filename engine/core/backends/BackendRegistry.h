#pragma once

#include "core/backends/ActiveBackend.h"
#include "core/backends/BackendHost.h"
#include "core/launcher/Launcher.h"
#include "core/settings/SettingsDocument.h"
#include "protocol/BackendInfo.h"
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QList>
#include <QMutex>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

class CredentialInjector;
class HostInteractionBroker;
class SecretStore;

using LauncherFactory = std::function<std::shared_ptr<Launcher>()>;

// One backend the engine knows: where it comes from and how to make launchers for it.
struct BackendEntry
{
    BackendRef ref;
    BackendDescriptor descriptor;
    QString sourceLabel;
    QString packId; // empty for built-ins
    bool enabled = true;
    Availability availability;
};

// The backends the engine can list and activate, keyed by source-qualified ref. Every
// activation gets a fresh launcher instance from the backend's factory (with its own
// LauncherHost), so the instance that is serving is never touched by a candidate's
// configure()/prepare(). A backend registered as a single instance reuses that instance.
class BackendRegistry final
{
    Q_DECLARE_TR_FUNCTIONS(BackendRegistry)

public:
    struct Instance
    {
        std::shared_ptr<Launcher> launcher;
        BackendHost *host = nullptr;
    };

    BackendRegistry(QString stateRoot, HostInteractionBroker *broker,
                    std::function<void(const BackendRef &)> availabilityChanged, BackendHost::RefusalSink refused = {});

    // What every host this registry makes offers as the engine's own directories and runtime
    // directory (LauncherHost::engineDirectories, runtimeDirectory). Set before any add().
    void setEngineDirectories(QStringList directories, QString runtimeDirectory);
    // The engine's credential injection, offered to every launcher's host made after this.
    void setCredentialInjector(std::shared_ptr<CredentialInjector> injector);

    // `catalog` answers descriptor() and availability for listing; `factory` (may be
    // empty: then `catalog` itself is used for every activation) makes activation instances.
    Status add(const BackendRef &ref, const QString &sourceLabel, const QString &packId,
               std::shared_ptr<Launcher> catalog, LauncherFactory factory);
    void removePack(const QString &packId);
    void setPackEnabled(const QString &packId, bool enabled);

    std::optional<BackendEntry> entry(const BackendRef &ref) const;
    QList<BackendEntry> entries() const;
    // Every backend as clients list it, in registration order: the `active` one with what its
    // serving instance claims now, each with what would stop its activation under `policy`
    // (dimensions left unenforced, the required settings unset in `settings` and `secrets`),
    // a backend of a disabled pack listed as unavailable.
    QList<BackendInfo> list(const ActiveBackend::Snapshot &active, const Policy &policy,
                            const Result<SettingsDocument> &settings, SecretStore &secrets) const;
    // The required fields of `entry` without a value (nor a default) in `settings`, or for
    // a secret, in `secrets`; none when the settings cannot be read (activation says so).
    static QStringList missingSettings(const BackendEntry &entry, const Result<SettingsDocument> &settings,
                                       SecretStore &secrets);
    std::shared_ptr<Launcher> catalog(const BackendRef &ref) const;
    // True when the backend's catalog instance serves its activations too (registered
    // without a factory): configuring it is then an activation's business alone.
    bool catalogServesActivations(const BackendRef &ref) const;
    // Records what a probe reported; a reason that is not short plain text is replaced.
    void setAvailability(const BackendRef &ref, const Availability &availability);
    static Availability checkedAvailability(const BackendRef &ref, const Availability &availability);

    Result<Instance> instantiate(const BackendRef &ref);

    QString stateDirectoryFor(const BackendRef &ref) const;

private:
    struct Slot
    {
        BackendEntry entry;
        std::shared_ptr<Launcher> catalog;
        std::shared_ptr<BackendHost> catalogHost;
        LauncherFactory factory;
    };

    std::unique_ptr<BackendHost> makeHost(const BackendRef &ref) const;

    QString m_stateRoot;
    QStringList m_engineDirectories;
    QString m_runtimeDirectory;
    std::shared_ptr<CredentialInjector> m_credentials;
    HostInteractionBroker *m_broker;
    std::function<void(const BackendRef &)> m_availabilityChanged;
    BackendHost::RefusalSink m_refused;
    mutable QMutex m_mutex;
    QList<Slot> m_slots; // registration order is listing order
};

} // namespace sandbox
