#pragma once

#include "core/backends/LauncherBounds.h"
#include "protocol/BackendInfo.h"
#include "protocol/BackendRef.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMutex>
#include <QSet>
#include <QThreadPool>
#include <QWaitCondition>

#include <functional>
#include <memory>

class QObject;

namespace sandbox {

class ActiveBackend;
class BackendRegistry;
class Launcher;
class SecretStore;
class SettingsStore;
class StopSignal;

// What every registered backend reports about its availability, kept in the registry: the
// serving instance is probed when the backend is active, otherwise its catalog instance,
// configured with the saved settings and secrets first when it is not the one activations
// use. One probe per backend at a time, each within its bound, settled in the engine's
// event thread.
class AvailabilityProbe final
{
    // Its texts keep the translation context the engine catalogue has them in.
    Q_DECLARE_TR_FUNCTIONS(sandbox::Engine)

public:
    struct Context
    {
        BackendRegistry &registry;
        SettingsStore &settings;
        SecretStore &secrets;
        const ActiveBackend &active;
        std::function<LauncherBounds(const BackendRef &)> boundsFor;
        const StopSignal *stop;
        // Lives in the engine's event thread, where every probe is settled.
        QObject *eventContext;
        // The engine: once it is gone, an answer is neither recorded nor told.
        QObject *owner;
        // An answer was recorded.
        std::function<void()> changed;
    };

    explicit AvailabilityProbe(Context context);
    AvailabilityProbe(const AvailabilityProbe &) = delete;
    AvailabilityProbe &operator=(const AvailabilityProbe &) = delete;

    // Probes `ref`. `settingsChanged`: a probe already in flight may have used the old
    // settings, so another follows it.
    void refresh(const BackendRef &ref, bool settingsChanged = false);
    // Until no probe is in flight, the engine stops or `deadline` expires.
    void waitSettled(QDeadlineTimer deadline);
    // Until the configure-and-probe work off the event thread has ended.
    void waitForDone();

private:
    // Configures `catalog` with the saved settings of `ref` (secrets resolved here, inside
    // the engine), then probes it; runs on the probe pool.
    Availability probeWithSavedSettings(const BackendRef &ref, const std::shared_ptr<Launcher> &catalog,
                                        const LauncherBounds &bounds);
    // Probes `launcher` on this thread within the probe bound.
    Availability awaitAvailability(const BackendRef &ref, const std::shared_ptr<Launcher> &launcher,
                                   const LauncherBounds &bounds);

    Context m_context;
    QMutex m_mutex;
    QSet<BackendRef> m_refreshing;
    QSet<BackendRef> m_refreshAgain; // settings changed while a probe of them was in flight
    QWaitCondition m_settled; // with m_mutex: a probe ended
    // Configures and probes catalog instances (not the serving ones), off the event thread:
    // reading secrets and configuring may take a while.
    QThreadPool m_pool;
};

} // namespace sandbox
