#include "core/backends/AvailabilityProbe.h"

#include "core/backends/ActiveBackend.h"
#include "core/backends/BackendRegistry.h"
#include "core/backends/FutureWait.h"
#include "core/backends/StopSignal.h"
#include "core/secrets/SecretStore.h"
#include "core/settings/SettingsStore.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox {

AvailabilityProbe::AvailabilityProbe(Context context)
    : m_context(std::move(context))
{
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("sandbox-availability"));
}

Availability AvailabilityProbe::probeWithSavedSettings(const BackendRef &ref, const std::shared_ptr<Launcher> &catalog,
                                                       const LauncherBounds &bounds)
{
    const std::optional<BackendEntry> entry = m_context.registry.entry(ref);
    if (!entry)
        return Availability{ false, tr("No backend %1 is registered.").arg(ref.toString()) };
    const Result<SettingsDocument> document = m_context.settings.load();
    if (!document.ok())
        return Availability{ false, document.error().toString() };
    const Result<SettingsValues> stored
        = SettingsValues::fromJson(document.value().backends.value(ref.toString()), ref.toString());
    if (!stored.ok())
        return Availability{ false, stored.error().toString() };
    if (!BackendRegistry::missingSettings(*entry, document, m_context.secrets).isEmpty()) {
        // Nothing complete to configure it with: what a backend says before it is configured
        // is what is known (presenters name the missing settings), from an instance that was
        // never configured, not from the catalog's earlier settings.
        Result<BackendRegistry::Instance> fresh = m_context.registry.instantiate(ref);
        if (!fresh.ok())
            return Availability{ false, fresh.error().message };
        return awaitAvailability(ref, fresh.value().launcher, bounds);
    }
    if (Status valid = stored.value().validate(entry->descriptor, ref.toString()); !valid.ok())
        return Availability{ false, valid.error().toString() };
    ResolvedSettings resolved;
    resolved.values = stored.value().withDefaults(entry->descriptor);
    for (const FieldSpec &field : std::as_const(entry->descriptor.fields)) {
        if (field.type != FieldSpec::Type::Secret)
            continue;
        Result<std::optional<QString>> secret = m_context.secrets.read(ref, field.id);
        if (!secret.ok() && !field.required) {
            resolved.unreadSecrets.insert(field.id, secret.error().message);
            continue;
        }
        if (!secret.ok())
            return Availability{ false, secret.error().toString() };
        if (secret.value())
            resolved.secrets.insert(field.id, *secret.value());
    }
    const Status configured = awaitLauncherCall(catalog->configure(resolved), bounds.configureMs, m_context.stop,
                                                ref.toString(), QStringLiteral("configure()"));
    resolved.secrets.clear();
    if (!configured.ok())
        return Availability{ false, configured.error().message };
    return awaitAvailability(ref, catalog, bounds);
}

Availability AvailabilityProbe::awaitAvailability(const BackendRef &ref, const std::shared_ptr<Launcher> &launcher,
                                                  const LauncherBounds &bounds)
{
    QFuture<Availability> probed = launcher->isAvailable();
    const QString call = QStringLiteral("availability probe");
    switch (waitForFuture(QFuture<void>(probed), bounds.probeMs, m_context.stop)) {
    case WaitOutcome::Finished:
        break;
    case WaitOutcome::TimedOut:
        probed.cancel();
        return Availability{ false, launcherCallTimedOut(ref.toString(), call, bounds.probeMs).message };
    case WaitOutcome::Stopped:
        probed.cancel();
        return Availability{ false, launcherCallStopped(ref.toString(), call).message };
    }
    if (probed.isCanceled() || probed.resultCount() == 0)
        return Availability{ false, tr("The backend's availability probe ended without a result.") };
    return probed.result();
}

void AvailabilityProbe::refresh(const BackendRef &ref, bool settingsChanged)
{
    {
        // One probe per backend at a time: a notice that arrives while probing (even one
        // the probe itself caused) is covered by the probe in flight; changed settings are
        // probed again once it ends.
        QMutexLocker locker(&m_mutex);
        if (m_refreshing.contains(ref)) {
            if (settingsChanged)
                m_refreshAgain.insert(ref);
            return;
        }
        m_refreshing.insert(ref);
    }
    const ActiveBackend::Snapshot current = m_context.active.current();
    const bool serving = current.ref && *current.ref == ref;
    std::shared_ptr<Launcher> launcher = serving ? current.launcher : m_context.registry.catalog(ref);
    if (!launcher) {
        QMutexLocker locker(&m_mutex);
        m_refreshing.remove(ref);
        return;
    }
    // A catalog instance apart from the activations' is configured with the saved settings
    // before it is probed: what it reports is what activating the backend would meet.
    const bool configureFirst = !serving && !m_context.registry.catalogServesActivations(ref);
    const LauncherBounds bounds = m_context.boundsFor(ref);
    const int boundMs = configureFirst ? bounds.configureMs + bounds.probeMs : bounds.probeMs;
    QPointer<QObject> owner(m_context.owner);
    QObject *eventContext = m_context.eventContext;
    QMetaObject::invokeMethod(
        eventContext, [this, owner, eventContext, launcher, ref, boundMs, configureFirst, bounds] {
            // Whichever comes first, the probe's answer or its bound, settles it.
            auto *watcher = new QFutureWatcher<Availability>(eventContext);
            auto *bound = new QTimer(watcher);
            bound->setSingleShot(true);
            const auto settle = [this, owner, watcher, bound, ref](const Availability &availability) {
                watcher->disconnect();
                bound->stop();
                watcher->deleteLater();
                // Recorded before the probe counts as ended: whoever waits for the probes to
                // settle then lists what they found.
                if (owner)
                    m_context.registry.setAvailability(ref, availability);
                bool again = false;
                {
                    QMutexLocker locker(&m_mutex);
                    m_refreshing.remove(ref);
                    again = m_refreshAgain.remove(ref);
                    m_settled.wakeAll();
                }
                if (!owner)
                    return;
                m_context.changed();
                if (again && !m_context.stop->isStopped())
                    refresh(ref, false);
            };
            QObject::connect(watcher, &QFutureWatcher<Availability>::finished, eventContext, [watcher, settle] {
                const QFuture<Availability> future = watcher->future();
                settle((future.isCanceled() || future.resultCount() == 0)
                           ? Availability{ false, tr("The backend's availability probe ended without a result.") }
                           : future.result());
            });
            QObject::connect(bound, &QTimer::timeout, eventContext, [watcher, settle, ref, boundMs] {
                QFuture<Availability> abandoned = watcher->future();
                abandoned.cancel();
                settle(Availability{
                    false,
                    launcherCallTimedOut(ref.toString(), QStringLiteral("availability probe"), boundMs).message });
            });
            watcher->setFuture(
                configureFirst ? QtConcurrent::run(
                    &m_pool, [this, ref, launcher, bounds] { return probeWithSavedSettings(ref, launcher, bounds); })
                               : launcher->isAvailable());
            bound->start(boundMs);
        });
}

void AvailabilityProbe::waitSettled(QDeadlineTimer deadline)
{
    QMutexLocker locker(&m_mutex);
    while (!m_refreshing.isEmpty() && !m_context.stop->isStopped() && !deadline.hasExpired())
        m_settled.wait(&m_mutex, QDeadlineTimer(qMin<qint64>(deadline.remainingTime(), 100)));
}

void AvailabilityProbe::waitForDone()
{
    m_pool.waitForDone();
}

} // namespace sandbox
