#pragma once

#include "Launcher.h"

#include <QAtomicInteger>

#include <functional>

namespace sandbox {

class HostInteractionBroker;

// The LauncherHost of one launcher instance: its backend's state directory, Host
// Interaction tagged with the backend's ref, and availability change notices.
class BackendHost final : public LauncherHost
{
public:
    BackendHost(BackendRef ref, QString stateDirectory, HostInteractionBroker *broker,
                std::function<void(const BackendRef &)> availabilityChanged);

    QString stateDirectory() const override;
    QFuture<HostInteractionResponse> ask(const HostInteractionRequest &request) override;
    void notifyAvailabilityChanged() override;

    // How many times this instance said its availability changed; the activation
    // transaction compares it between the probe and the swap.
    quint64 availabilityGeneration() const { return m_generation.loadAcquire(); }

private:
    BackendRef m_ref;
    QString m_stateDirectory;
    HostInteractionBroker *m_broker;
    std::function<void(const BackendRef &)> m_availabilityChanged;
    QAtomicInteger<quint64> m_generation = 0;
};

} // namespace sandbox
