#pragma once

#include "E2bSandboxPool.h"
#include "E2bSettings.h"
#include "core/Launcher.h"

#include <QCoreApplication>
#include <QMutex>

#include <memory>

namespace sandbox::power {

// atom-pack:power-pack:e2b — commands run in an E2B sandbox, a cloud VM reached over
// E2B's REST control plane and its envd process service (Connect protocol). prepare()
// checks the API key and creates the sandbox the activation keeps; every command is a
// process in it; disposeIdle() kills every sandbox this launcher created.
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
    mutable QMutex m_mutex;
    E2bSettings m_settings;
    bool m_configured = false;
    Error m_settingsError;
    std::shared_ptr<E2bSandboxPool> m_pool;
};

} // namespace sandbox::power
