#include "GuestRequest.h"
#include "UserNetwork.h"
#include "VmLauncher.h"
#include "VmLauncherCommon.h"
#include "VmMachine.h"
#include "VmProcess.h"

#include <QDir>
#include <QMutexLocker>

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
    }
    // Credentials and an upstream proxy need network allowlist (Policy::collectProblems):
    // they are the proxy channel's, and with credentials the guest trusts the engine's
    // certificate authority through a bundle in its initramfs.
    QMap<QString, QString> engineEnvironment;
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
    process->begin(GuestRequest::spawnPayload(request, proxied, engineEnvironment), process);
    return std::shared_ptr<SandboxProcess>(process);
}

} // namespace sandbox
