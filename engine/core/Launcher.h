#pragma once

#include "SandboxProcess.h"
#include "protocol/BackendDescriptor.h"
#include "protocol/BackendInfo.h"
#include "protocol/Error.h"
#include "protocol/HostInteraction.h"
#include "protocol/Policy.h"
#include "protocol/SettingsValues.h"
#include "protocol/SpawnRequest.h"

#include <QFuture>
#include <QString>

#include <memory>

namespace sandbox {

// What the engine offers a launcher: a per-backend state directory, Host Interaction,
// and a way to say availability changed. Thread-safe.
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
