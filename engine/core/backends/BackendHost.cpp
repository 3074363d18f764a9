#include "core/backends/BackendHost.h"

#include "core/backends/BackendProxyChannel.h"
#include "core/backends/HostInteractionBroker.h"
#include "core/launcher/SandboxInitLocation.h"
#include "net/CredentialInjector.h"
#include "net/DomainRules.h"
#include "net/FilteringProxy.h"
#include "net/SshAgentService.h"
#include "net/SshClientSetup.h"
#include "net/UpstreamProxy.h"
#include "protocol/RuntimeDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QUuid>

#include <sys/stat.h>
#include <utility>

namespace sandbox {

BackendHost::BackendHost(BackendRef ref, QString stateDirectory, HostInteractionBroker *broker,
                         std::function<void(const BackendRef &)> availabilityChanged, RefusalSink refused)
    : m_ref(std::move(ref))
    , m_stateDirectory(std::move(stateDirectory))
    , m_broker(broker)
    , m_availabilityChanged(std::move(availabilityChanged))
    , m_refused(std::move(refused))
{ }

QString BackendHost::stateDirectory() const
{
    // Left alone when it is as it should be: a change of mode is a change of status, which
    // keeps builtin:auto from recording the plans it builds while it is fresh (PlanRecorder).
    struct stat st = {};
    if (::lstat(QFile::encodeName(m_stateDirectory).constData(), &st) == 0 && S_ISDIR(st.st_mode)
        && (st.st_mode & 07777) == 0700)
        return m_stateDirectory;
    if (QDir().mkpath(m_stateDirectory))
        QFile::setPermissions(m_stateDirectory,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return m_stateDirectory;
}

QFuture<HostInteractionResponse> BackendHost::ask(const HostInteractionRequest &request)
{
    HostInteractionRequest tagged = request;
    tagged.ref = m_ref;
    tagged.hasRef = true;
    // The id is part of what is validated; give it the one the broker would.
    if (tagged.id.isEmpty())
        tagged.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (const Status valid = HostInteractionBroker::validate(tagged); !valid.ok()) {
        QMutexLocker locker(&m_mutex);
        if (!m_rejectedQuestion)
            m_rejectedQuestion = valid.error();
    }
    // The broker refuses an invalid question at once and says so in the log.
    return m_broker->ask(tagged);
}

std::optional<Error> BackendHost::takeRejectedQuestion()
{
    QMutexLocker locker(&m_mutex);
    return std::exchange(m_rejectedQuestion, std::nullopt);
}

void BackendHost::reportActivationNote(const QString &note)
{
    QMutexLocker locker(&m_mutex);
    m_notes.append(note);
}

QStringList BackendHost::takeActivationNotes()
{
    QMutexLocker locker(&m_mutex);
    return std::exchange(m_notes, {});
}

void BackendHost::reportActivationProgress(const QString &message)
{
    // Held while the sink runs: once setProgressSink() returns, the previous sink is done.
    QMutexLocker locker(&m_progressMutex);
    if (m_progressSink)
        m_progressSink(message);
}

void BackendHost::setProgressSink(std::function<void(const QString &)> sink)
{
    QMutexLocker locker(&m_progressMutex);
    m_progressSink = std::move(sink);
}

void BackendHost::notifyAvailabilityChanged()
{
    m_generation.fetchAndAddOrdered(1);
    if (m_availabilityChanged)
        m_availabilityChanged(m_ref);
}

Result<std::shared_ptr<ProxyChannel>>
BackendHost::openProxyChannel(const QStringList &allowedDomains, const QStringList &deniedDomains,
                              const QList<PolicyCredential> &credentials, const QStringList &extraCaCertificates,
                              const std::optional<PolicyUpstreamProxy> &upstreamProxy)
{
    Result<DomainRules> rules = DomainRules::parse(allowedDomains, deniedDomains);
    if (!rules)
        return rules.error();
    // As builtin auto makes its own channels' (AutoLauncher::spawn).
    Result<std::shared_ptr<const UpstreamProxy>> upstream
        = UpstreamProxy::forPolicy(upstreamProxy, extraCaCertificates, m_credentials.get());
    if (!upstream)
        return upstream.error();
    std::shared_ptr<const ChannelCredentials> injected;
    if (!credentials.isEmpty()) {
        if (!m_credentials)
            return Error{ QStringLiteral("policy.credentials"),
                          QCoreApplication::translate("sandbox::BackendHost",
                                                      "This engine offers no credential injection."),
                          {} };
        Result<std::shared_ptr<const ChannelCredentials>> channel = m_credentials->channelFor(
            credentials, extraCaCertificates,
            [sink = m_refused, ref = m_ref](const QString &target, const QString &credential, const QString &message) {
                if (!sink)
                    return;
                Refusal refusal;
                refusal.kind = Refusal::Kind::Credential;
                refusal.what = credential.isEmpty() ? target : credential + QStringLiteral(" → ") + target;
                refusal.rule = QCoreApplication::translate("sandbox::BackendHost", "credential: %1").arg(message);
                refusal.ref = ref;
                sink(refusal);
            });
        if (!channel)
            return channel.error();
        injected = channel.value();
    }
    std::shared_ptr<FilteringProxy> proxy;
    {
        QMutexLocker locker(&m_mutex);
        if (!m_proxy)
            m_proxy = std::make_shared<FilteringProxy>(runtimeDirectory());
        proxy = m_proxy;
    }
    ProxyRefusalListener listener;
    if (m_refused) {
        listener = [sink = m_refused, ref = m_ref](const QString &target, const QString &reason) {
            Refusal refusal;
            refusal.kind = Refusal::Kind::Network;
            refusal.what = target;
            refusal.rule = QCoreApplication::translate("sandbox::BackendHost", "network: %1").arg(reason);
            refusal.ref = ref;
            sink(refusal);
        };
    }
    Result<QString> socket = proxy->openPrivateChannel(rules.value(), std::move(listener), injected, upstream.value());
    if (!socket)
        return socket.error();
    return std::shared_ptr<ProxyChannel>(std::make_shared<BackendProxyChannel>(proxy, socket.value()));
}

Result<LauncherHost::CredentialSandbox> BackendHost::credentialSandbox(const Policy &policy,
                                                                       const QString &bundlePathInSandbox)
{
    if (!m_credentials)
        return LauncherHost::credentialSandbox(policy, bundlePathInSandbox);
    Result<CredentialInjector::SandboxView> view
        = m_credentials->sandboxFor(policy.credentials, policy.extraCaCertificates, bundlePathInSandbox);
    if (!view)
        return view.error();
    return CredentialSandbox{ view.value().environment, view.value().bundlePath };
}

Result<LauncherHost::SshAgentSandbox> BackendHost::openSshAgent(const PolicySshAgent &policy, const QString &command,
                                                                const QString &directory,
                                                                const QString &sandboxDirectory,
                                                                const QString &proxyProgram,
                                                                std::function<void(const Refusal &)> refused)
{
    std::shared_ptr<SshAgentService> agents;
    {
        QMutexLocker locker(&m_mutex);
        if (!m_agents)
            m_agents = std::make_shared<SshAgentService>(runtimeDirectory());
        agents = m_agents;
    }
    // Short, so the socket's path stays within a unix address however deep `directory` is.
    const QString socketName = QStringLiteral("agent-") + QUuid::createUuid().toString(QUuid::Id128).left(8);
    Result<QString> opened = agents->openForCommand(
        policy, command, m_ref, [this](const HostInteractionRequest &question) { return ask(question); },
        [ref = m_ref, refused = std::move(refused)](const Refusal &refusal) {
            Refusal tagged = refusal;
            tagged.ref = ref;
            if (refused)
                refused(tagged);
        },
        QDir(directory).filePath(socketName));
    if (!opened)
        return opened.error();
    SshAgentSandbox sandbox;
    sandbox.socketName = socketName;
    sandbox.lease
        = std::shared_ptr<const void>(nullptr, [agents, path = opened.value()](const void *) { agents->close(path); });
    sandbox.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), sandboxDirectory + QLatin1Char('/') + socketName);
    if (!policy.hosts.isEmpty()) {
        Result<SshClientSetup> ssh
            = SshClientSetup::write(directory, sandboxDirectory, proxyProgram,
                                    QDir::homePath() + QStringLiteral("/.ssh/known_hosts"), policy.proxyRules());
        if (!ssh)
            return ssh.error(); // the lease goes with `sandbox`, and the agent with it
        sandbox.environment.insert(ssh.value().environment);
    }
    return sandbox;
}

std::shared_ptr<CredentialInjector> BackendHost::credentialInjector() const
{
    return m_credentials;
}

void BackendHost::setCredentialInjector(std::shared_ptr<CredentialInjector> injector)
{
    m_credentials = std::move(injector);
}

QStringList BackendHost::engineDirectories() const
{
    return m_engineDirectories;
}

QString BackendHost::runtimeDirectory() const
{
    return m_runtimeDirectory.isEmpty() ? RuntimeDirectory::defaultDirectory() : m_runtimeDirectory;
}

void BackendHost::setEngineDirectories(QStringList directories, QString runtimeDirectory)
{
    m_engineDirectories = std::move(directories);
    m_runtimeDirectory = std::move(runtimeDirectory);
}

QString BackendHost::proxyBridgeProgram() const
{
    return locateSandboxInit();
}

} // namespace sandbox
