#pragma once

#include "core/launcher/Launcher.h"

#include <QAtomicInteger>
#include <QMutex>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

class FilteringProxy;
class SshAgentService;
class HostInteractionBroker;

// The LauncherHost of one launcher instance: its backend's state directory, Host
// Interaction tagged with the backend's ref, availability change notices, and private
// channels of a filtering proxy of its own (started on first use).
class BackendHost final : public LauncherHost
{
public:
    using RefusalSink = std::function<void(const Refusal &)>;

    // `refused` publishes what this instance's proxy channels refuse (as the backend's, not
    // one command's: a channel opened here may serve several).
    BackendHost(BackendRef ref, QString stateDirectory, HostInteractionBroker *broker,
                std::function<void(const BackendRef &)> availabilityChanged, RefusalSink refused = {});

    QString stateDirectory() const override;
    QFuture<HostInteractionResponse> ask(const HostInteractionRequest &request) override;
    void notifyAvailabilityChanged() override;
    void reportActivationNote(const QString &note) override;
    // The notes reported since the last call, in order, and forgets them.
    QStringList takeActivationNotes();
    void reportActivationProgress(const QString &message) override;
    // Where progress goes while an activation prepares this instance (empty: nowhere).
    void setProgressSink(std::function<void(const QString &)> sink);
    Result<std::shared_ptr<ProxyChannel>>
    openProxyChannel(const QStringList &allowedDomains, const QStringList &deniedDomains,
                     const QList<PolicyCredential> &credentials = {}, const QStringList &extraCaCertificates = {},
                     const std::optional<PolicyUpstreamProxy> &upstreamProxy = std::nullopt) override;
    Result<CredentialSandbox> credentialSandbox(const Policy &policy, const QString &bundlePathInSandbox) override;
    Result<SshAgentSandbox> openSshAgent(const PolicySshAgent &policy, const QString &command, const QString &directory,
                                         const QString &sandboxDirectory, const QString &proxyProgram,
                                         std::function<void(const Refusal &)> refused) override;
    std::shared_ptr<CredentialInjector> credentialInjector() const override;
    // Set once, before the launcher is attached.
    void setCredentialInjector(std::shared_ptr<CredentialInjector> injector);
    QString proxyBridgeProgram() const override;
    QStringList engineDirectories() const override;
    QString runtimeDirectory() const override;
    // Set once, before the launcher is attached.
    void setEngineDirectories(QStringList directories, QString runtimeDirectory);

    // How many times this instance said its availability changed; the activation
    // transaction compares it between the probe and the swap.
    quint64 availabilityGeneration() const { return m_generation.loadAcquire(); }

    // The first question this instance asked that presenters cannot show (refused without
    // being shown), and forgets it. The activation transaction fails with it: the launcher
    // went on as if the user had declined, which nobody did.
    std::optional<Error> takeRejectedQuestion();

private:
    BackendRef m_ref;
    QString m_stateDirectory;
    HostInteractionBroker *m_broker;
    std::function<void(const BackendRef &)> m_availabilityChanged;
    RefusalSink m_refused;
    QAtomicInteger<quint64> m_generation = 0;
    QMutex m_mutex; // ask() may be called from any thread
    std::optional<Error> m_rejectedQuestion;
    QStringList m_notes;
    QMutex m_progressMutex;
    std::function<void(const QString &)> m_progressSink; // guarded by m_progressMutex
    std::shared_ptr<FilteringProxy> m_proxy; // guarded by m_mutex
    std::shared_ptr<SshAgentService> m_agents; // guarded by m_mutex
    QStringList m_engineDirectories;
    QString m_runtimeDirectory;
    std::shared_ptr<CredentialInjector> m_credentials;
};

} // namespace sandbox
