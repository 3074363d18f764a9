#pragma once

#include "E2bSandboxPool.h"
#include "E2bSettings.h"
#include "core/launcher/Launcher.h"

#include <QCoreApplication>
#include <QMutex>
#include <QObject>
#include <QThreadPool>

#include <memory>

namespace sandbox::power {

// atom-pack:power-pack:e2b — commands run in an E2B sandbox, a cloud VM reached over
// E2B's REST control plane and its envd process service (Connect protocol). prepare()
// checks the API key and creates the sandbox the activation keeps; every command is a
// process in it; disposeIdle() kills every sandbox this launcher created, as do new
// settings (once the commands still running on the old ones end) and the launcher's end
// (within E2bSandboxPool::killBoundMs). A key E2B refuses on any call makes the backend
// unavailable until it is configured again.
class E2bLauncher final : public Launcher
{
    Q_DECLARE_TR_FUNCTIONS(E2bLauncher)

public:
    E2bLauncher();
    ~E2bLauncher() override;

    QString kind() const override { return QStringLiteral("e2b"); }
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

private:
    std::shared_ptr<E2bSandboxPool> newPool(const E2bSettings &settings);
    void keyRefused();
    // Kills the sandboxes of the current settings (the engine stops): within the bound,
    // and a warning in the log names any left.
    void killSandboxes();

    struct KeyListener
    {
        QMutex mutex;
        E2bLauncher *launcher = nullptr;
    };

    mutable QMutex m_mutex;
    bool m_keyRefused = false;
    E2bSettings m_settings;
    bool m_configured = false;
    Error m_settingsError;
    std::shared_ptr<E2bSandboxPool> m_pool;
    std::shared_ptr<KeyListener> m_keyListener;
    std::unique_ptr<QObject> m_quitWatch;
    // The launcher's own work (prepare, probes, disposal), never the application's shared
    // pool: what is still queued when the launcher goes is dropped, and nothing of it
    // starts while the application is being torn down (its network calls would never end).
    QThreadPool m_work;
};

} // namespace sandbox::power
