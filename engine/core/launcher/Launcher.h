#pragma once

#include "core/launcher/ProxyChannel.h"
#include "core/launcher/SandboxProcess.h"
#include "protocol/BackendDescriptor.h"
#include "protocol/BackendInfo.h"
#include "protocol/Error.h"
#include "protocol/HostInteraction.h"
#include "protocol/Policy.h"
#include "protocol/Refusal.h"
#include "protocol/SettingsValues.h"
#include "protocol/SpawnRequest.h"

#include <QCoreApplication>
#include <QFuture>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace sandbox {

class CredentialInjector;

// What the engine offers a launcher: a per-backend state directory, Host Interaction,
// a way to say availability changed, and the engine's allowed-domains filtering proxy with
// the bridge that brings it into a sandbox's own network namespace. Thread-safe.
class LauncherHost
{
public:
    virtual ~LauncherHost() = default;
    // Owner-only directory for this backend's state (created on demand).
    virtual QString stateDirectory() const = 0;
    // Asks the attached presenter (Studio, CLI, ...) a question; resolves when answered
    // or refused (accepted=false) when no presenter can answer.
    virtual QFuture<HostInteractionResponse> ask(const HostInteractionRequest &request) = 0;
    virtual void notifyAvailabilityChanged() = 0;
    // A sentence about how prepare() went that the user should see (a cached baseline
    // restored, or why not): the activation's prepare event carries it.
    virtual void reportActivationNote(const QString &note) { Q_UNUSED(note) }
    // What prepare() is doing right now (a helper download's progress): presenters see it at
    // once, as a further "started" event of the activation's prepare step.
    virtual void reportActivationProgress(const QString &message) { Q_UNUSED(message) }

    // A new channel of the engine's filtering proxy enforcing `allowedDomains` and
    // `deniedDomains` (Policy's syntax; a denied entry wins). An Error names the bad entry,
    // or says the engine has no proxy to offer.
    // With `credentials`, the channel terminates TLS toward their hosts and puts their values
    // in (trusting the system's authorities and `extraCaCertificates` toward the real hosts),
    // and reports every placeholder that goes elsewhere.
    // With `upstreamProxy`, every connection the channel allows is a CONNECT through that
    // proxy (TLS to it trusting the system's authorities and `extraCaCertificates` when its
    // URL is https; its credential read from the engine's secret storage when a connection
    // needs it), never a direct one; the proxy's refusals are reported like the rules'.
    virtual Result<std::shared_ptr<ProxyChannel>>
    openProxyChannel(const QStringList &allowedDomains, const QStringList &deniedDomains,
                     const QList<PolicyCredential> &credentials = {}, const QStringList &extraCaCertificates = {},
                     const std::optional<PolicyUpstreamProxy> &upstreamProxy = std::nullopt)
    {
        Q_UNUSED(allowedDomains)
        Q_UNUSED(deniedDomains)
        Q_UNUSED(credentials)
        Q_UNUSED(extraCaCertificates)
        Q_UNUSED(upstreamProxy)
        return Error{ QStringLiteral("policy.network"),
                      QCoreApplication::translate("sandbox::LauncherHost", "This engine offers no filtering proxy."),
                      {} };
    }
    // What a sandbox whose policy has credentials is given: `environment` holds each
    // credential's placeholder under its variable and the certificate bundle (the system's
    // authorities, the engine's, the policy's extra ones) under the variables common clients
    // read, naming the bundle as `bundlePathInSandbox` (empty: its path on the host);
    // `bundlePath` is the bundle on the host, which the launcher makes readable there.
    struct CredentialSandbox
    {
        QMap<QString, QString> environment;
        QString bundlePath;
    };
    virtual Result<CredentialSandbox> credentialSandbox(const Policy &policy, const QString &bundlePathInSandbox)
    {
        Q_UNUSED(policy)
        Q_UNUSED(bundlePathInSandbox)
        return Error{ QStringLiteral("policy.credentials"),
                      QCoreApplication::translate("sandbox::LauncherHost",
                                                  "This engine offers no credential injection."),
                      {} };
    }
    // A filtering SSH agent (policy.sshAgent) for one command, `command`, placed in a folder
    // the launcher hands to its sandbox: `directory` on the host (owner-only, the launcher's;
    // it stays), seen there as `sandboxDirectory`. The agent listens in it, and with the
    // policy's hosts the SSH client's configuration is written there as well, its ProxyCommand
    // being `proxyProgram` (this engine's proxy bridge program as the sandbox sees it; the
    // policy's hosts must be among the sandbox's allowed domains, PolicySshAgent::proxyRules()).
    // Confirmations are asked through ask(); `refused` is told of each of the agent's refusals,
    // on any thread. An Error says why no agent can be offered (no SSH_AUTH_SOCK where the
    // engine runs, say).
    struct SshAgentSandbox
    {
        QString socketName; // the agent's socket, in `directory`
        QMap<QString, QString> environment; // SSH_AUTH_SOCK and the SSH client's variables
        std::shared_ptr<const void> lease; // the agent serves while a copy of this lives
    };
    virtual Result<SshAgentSandbox> openSshAgent(const PolicySshAgent &policy, const QString &command,
                                                 const QString &directory, const QString &sandboxDirectory,
                                                 const QString &proxyProgram,
                                                 std::function<void(const Refusal &)> refused)
    {
        Q_UNUSED(policy)
        Q_UNUSED(command)
        Q_UNUSED(directory)
        Q_UNUSED(sandboxDirectory)
        Q_UNUSED(proxyProgram)
        Q_UNUSED(refused)
        return Error{ QStringLiteral("policy.sshAgent"),
                      QCoreApplication::translate("sandbox::LauncherHost", "This engine offers no SSH agent."),
                      {} };
    }
    // The engine's credential injection, for a launcher that runs a filtering proxy of its
    // own (the built-in ones); null when the engine has none.
    virtual std::shared_ptr<CredentialInjector> credentialInjector() const { return nullptr; }
    // The engine's statically linked proxy bridge program (it needs no library, so it runs
    // in any Linux root filesystem). `PROGRAM --proxy-bridge PORT SOCKET` listens on
    // 127.0.0.1:PORT in its network namespace and relays every connection to the unix
    // socket SOCKET until it is killed, reaping orphans when it is pid 1;
    // `PROGRAM --proxy-bridge-wait PORT` returns 0 once 127.0.0.1:PORT accepts connections
    // (1 after 10 seconds); `PROGRAM --hold` does nothing until it is killed, reaping
    // orphans when it is pid 1 (a container's first process that needs nothing of the
    // image); `PROGRAM --gate [--guard DIR]... [--read-only PATH]... [--status FIFO] --
    // COMMAND...` runs COMMAND in the container it is in under the write gate (guarding the
    // repositories under each DIR) and the seccomp deny list, writing its status lines and
    // refusals to FIFO. Empty when the engine has none.
    virtual QString proxyBridgeProgram() const { return {}; }

    // The engine's own directories (configuration, state, runtime directory): a sandbox that
    // could write there could loosen every command after it. Empty when the host has none.
    virtual QStringList engineDirectories() const { return {}; }
    // The engine's runtime directory (owner-only, never the shared /tmp), where a launcher
    // puts its rendezvous points, such as its filtering proxy's channel sockets. Empty when
    // the host has none.
    virtual QString runtimeDirectory() const { return {}; }
};

// A sandbox backend. The engine calls configure/prepare/isAvailable/disposeIdle from its
// activation worker thread and spawn() from a thread with an event loop; each returns
// without blocking on slow work (a QFuture, or a SandboxProcess that starts asynchronously).
// Futures may be cancelled; a launcher should stop work it can stop.
class Launcher
{
public:
    virtual ~Launcher() = default;

    virtual QString kind() const = 0;
    virtual BackendDescriptor descriptor() const = 0;

    // Called once before any other call, from the engine.
    virtual void attach(LauncherHost *host) { m_host = host; }

    // Settings already validated against descriptor(); secrets resolved.
    virtual QFuture<Status> configure(const ResolvedSettings &settings) = 0;
    // Acquire what spawning needs (probe kernel features, pull an image, boot a VM ...).
    virtual QFuture<Status> prepare() = 0;
    virtual QFuture<Availability> isAvailable() = 0;
    // Starts `request.argv` confined by `policy` (the effective policy for this spawn).
    // Immediate errors (policy cannot be enforced, bad request) come back as an Error.
    virtual Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) = 0;
    // Release idle resources (no process of this launcher is running when called).
    virtual QFuture<Status> disposeIdle() = 0;

    // Whether spawn() can give a command a terminal of its own (SpawnRequest::terminal):
    // empty when it can, otherwise why not, in a sentence for the user. The engine refuses a
    // request for a terminal with this reason before anything runs.
    virtual QString terminalRefusal() const
    {
        return QCoreApplication::translate("sandbox::Launcher", "This backend cannot give a command a terminal.");
    }

    // Part of the contract, as data: what enforces each policy dimension
    // (BackendDescriptor::enforcementDimensions()) when this launcher spawns under `policy`,
    // as this instance is now configured and prepared. A dimension missing (or empty) is
    // not enforced. The engine activates, restores and spawns through a launcher only when
    // it enforces every dimension the policy restricts (Policy::restrictedDimensions()).
    // By default the descriptor's enforcement claims.
    virtual QMap<QString, QString> confinement(const Policy &) const { return descriptor().enforcement; }

protected:
    LauncherHost *host() const { return m_host; }

private:
    LauncherHost *m_host = nullptr;
};

} // namespace sandbox
