#pragma once

#include "core/launcher/Launcher.h"

#include <QMutex>

namespace sandbox::test {

// A launcher of the GUI test pack. It runs real host processes and behaves as its
// settings and Behaviour say: a slow prepare, a failure at a chosen step, a cleanup that
// fails once, a question asked through Host Interaction while preparing, notes about how
// each command started.
class TestLauncher final : public Launcher
{
public:
    struct Behaviour
    {
        bool disposeFailsOnce = false;
        bool asksWhilePreparing = false;
        QString unavailableReason; // non-empty: isAvailable() always says no, with this reason
        QStringList startNotes; // each process notes these, one by one, once it has started
        // Non-empty: the id of a string setting naming the runtime's socket; available only
        // once configured with a path that exists (as a container runtime at its endpoint).
        QString runtimeSetting;
        // Each command's sandbox comes up this long after spawn() (as a container's or VM's).
        int startDelayMs = 0;
    };

    TestLauncher(QString kind, BackendDescriptor descriptor);
    TestLauncher(QString kind, BackendDescriptor descriptor, Behaviour behaviour);

    QString kind() const override { return m_kind; }
    BackendDescriptor descriptor() const override { return m_descriptor; }
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;

private:
    QString m_kind;
    BackendDescriptor m_descriptor;
    Behaviour m_behaviour;
    mutable QMutex m_mutex;
    ResolvedSettings m_settings;
    bool m_configured = false;
    int m_disposeCalls = 0;
};

} // namespace sandbox::test
