#include "VmLauncher.h"
#include "VmLauncherCommon.h"
#include "VmMachine.h"
#include "VmProcess.h"
#include "launchers/vm/drivers/UserNetwork.h"
#include "launchers/vm/guest/GuestRequest.h"

#include <QDir>
#include <QFile>
#include <QMutexLocker>
#include <QTemporaryDir>

namespace sandbox {

using namespace vmlauncher;

Result<std::shared_ptr<SandboxProcess>> VmLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    {
        QMutexLocker lock(&m_mutex);
        if (!m_prepared)
            return Error{ kWhere, tr("the VM backend has not been prepared; nothing was run"), {} };
    }
    if (policy.network == Policy::NetworkMode::Full) {
        QString unsupported;
        {
            QMutexLocker lock(&m_mutex);
            const Availability support = m_driver->userNetworkSupport();
            if (!support.available)
                unsupported = support.reason;
        }
        if (!unsupported.isEmpty())
            return Error{
                kWhere,
                tr("network \"full\" is unavailable in the VM backend here: %1; nothing was run").arg(unsupported),
                {}
            };
        if (const Result<UserNetwork::Addresses> addresses
            = UserNetwork::fromPolicy(policy.allowedDomains, policy.deniedDomains);
            !addresses.ok())
            return addresses.error();
    }
    // SSH goes only through the filtering proxy, to the agent's hosts: without the allowlist
    // mode the guest has no way to it (none) or a way around it (full).
    if (policy.sshAgent && !policy.sshAgent->hosts.isEmpty() && policy.network != Policy::NetworkMode::Allowlist)
        return Error{ QStringLiteral("policy.sshAgent.hosts"),
                      tr("SSH connections to the agent's hosts go through the filtering proxy, which serves the "
                         "network mode \"allowlist\" only; set that mode (with or without allowed domains). Nothing "
                         "was run."),
                      {} };
    if (policy.sshAgent && !host())
        return Error{ QStringLiteral("policy.sshAgent"), tr("This engine offers no SSH agent; nothing was run."), {} };
    if (GuestRequest::hasNul(request))
        return Error{ kWhere, tr("the command, its environment or its directory contains a NUL character"), {} };
    const Result<GuestLayout> computed
        = GuestLayout::fromPolicy(policy, request.effectiveWorkspace(), QDir::homePath());
    if (!computed.ok())
        return computed.error();
    GuestLayout layout = computed.value();
    const bool proxied = policy.network == Policy::NetworkMode::Allowlist;
    if (proxied || policy.network == Policy::NetworkMode::Full) {
        layout.proxied = proxied;
        layout.userNetwork = !proxied;
        layout.allowedDomains = policy.allowedDomains;
        layout.deniedDomains = policy.deniedDomains;
        // The proxy lets SSH reach the agent's hosts too: they are part of the VM's rules.
        if (proxied && policy.sshAgent)
            layout.allowedDomains += policy.sshAgent->proxyRules();
    }
    // Credentials and an upstream proxy need network allowlist (Policy::collectProblems):
    // they are the proxy channel's, and with credentials the guest trusts the engine's
    // certificate authority through a bundle in its initramfs.
    QMap<QString, QString> engineEnvironment;
    layout.sshAgent = policy.sshAgent;
    if (proxied) {
        layout.credentials = policy.credentials;
        layout.extraCaCertificates = policy.extraCaCertificates;
        layout.upstreamProxy = policy.upstreamProxy;
    }
    if (proxied && !policy.credentials.isEmpty()) {
        if (!host())
            return Error{ QStringLiteral("policy.credentials"),
                          tr("This engine offers no credential injection; nothing was run."),
                          {} };
        const Result<LauncherHost::CredentialSandbox> view
            = host()->credentialSandbox(policy, QString::fromLatin1(GuestLayout::kCaBundle));
        if (!view.ok())
            return view.error();
        layout.caBundle = view.value().bundlePath;
        engineEnvironment = view.value().environment;
    }
    Result<std::shared_ptr<VmMachine>> machine = machineFor(layout, false);
    if (!machine.ok())
        return machine.error();
    quint32 id;
    {
        QMutexLocker lock(&m_mutex);
        id = m_nextId++;
    }
    auto process = std::make_shared<VmProcess>(machine.value(), id);
    // The VM serving this layout shares nothing writable that the layout does not.
    const GuestRequest::Gate gate = GuestRequest::Gate::fromLayout(layout);
    if (!policy.sshAgent) {
        process->begin(GuestRequest::spawnPayload(request, gate, proxied, engineEnvironment), process);
        return std::shared_ptr<SandboxProcess>(process);
    }
    Result<GuestRequest::Agent> agent = openAgent(*policy.sshAgent, request, id, process);
    if (!agent.ok())
        return agent.error();
    process->begin(GuestRequest::spawnPayload(request, gate, proxied, engineEnvironment, &agent.value()), process);
    return std::shared_ptr<SandboxProcess>(process);
}

Result<GuestRequest::Agent> VmLauncher::openAgent(const PolicySshAgent &policy, const SpawnRequest &request, quint32 id,
                                                  const std::shared_ptr<VmProcess> &process)
{
    // The command's filtering agent and SSH configuration, in an owner-only folder of the
    // engine's (short: the socket's path must fit a unix address); the guest gets a copy of the
    // configuration, and its agent socket is relayed to the one here.
    LauncherHost *launcherHost = host();
    const QString runtimeBase
        = !launcherHost->runtimeDirectory().isEmpty() ? launcherHost->runtimeDirectory() : QDir::tempPath();
    QTemporaryDir folder(runtimeBase + QStringLiteral("/sandbox-vm-agent-XXXXXX"));
    if (!folder.isValid())
        return Error{
            QStringLiteral("policy.sshAgent"),
            tr("cannot create a folder for the command's SSH agent under %1; nothing was run").arg(runtimeBase),
            {}
        };
    const std::weak_ptr<VmProcess> weak = process;
    Result<LauncherHost::SshAgentSandbox> opened = launcherHost->openSshAgent(
        policy, request.argv.join(QLatin1Char(' ')), folder.path(), GuestRequest::agentFolder(id),
        QString::fromLatin1(kGuestAgentProgram), [weak](const Refusal &refusal) {
            if (const std::shared_ptr<VmProcess> alive = weak.lock()) {
                VmProcess *target = alive.get();
                QMetaObject::invokeMethod(
                    target,
                    [weak, refusal] {
                        if (const std::shared_ptr<VmProcess> still = weak.lock())
                            emit still->refused(refusal);
                    },
                    Qt::QueuedConnection);
            }
        });
    if (!opened.ok())
        return opened.error();
    GuestRequest::Agent agent;
    agent.socketName = opened.value().socketName;
    agent.environment = opened.value().environment;
    const QStringList names = QDir(folder.path()).entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : names) {
        QFile file(QDir(folder.path()).filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            return Error{
                file.fileName(),
                tr("cannot read the command's SSH configuration: %1; nothing was run").arg(file.errorString()),
                {}
            };
        agent.files.append({ name, file.readAll() });
        if (agent.files.last().second.contains('\0'))
            return Error{ file.fileName(), tr("the command's SSH configuration holds a NUL; nothing was run"), {} };
    }
    folder.setAutoRemove(false);
    process->setAgent(QDir(folder.path()).filePath(agent.socketName), opened.value().lease, folder.path());
    return agent;
}

} // namespace sandbox
