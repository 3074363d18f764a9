#pragma once

#include <QLatin1String>
#include <QList>

namespace sandbox {

// The local protocol's vocabulary, in one table: every method a presenter can call and
// every notification the server pushes. Client, server, docs and tests use these names.
inline constexpr int ProtocolVersion = 1;

namespace Method {
inline constexpr QLatin1String Hello{ "hello" };
inline constexpr QLatin1String BackendsList{ "backends.list" };
inline constexpr QLatin1String BackendsDescribe{ "backends.describe" };
inline constexpr QLatin1String BackendsActivate{ "backends.activate" };
inline constexpr QLatin1String SettingsGet{ "settings.get" };
inline constexpr QLatin1String SettingsUpdate{ "settings.update" };
inline constexpr QLatin1String SecretsReplace{ "secrets.replace" };
inline constexpr QLatin1String SecretsRemove{ "secrets.remove" };
inline constexpr QLatin1String PolicyGet{ "policy.get" };
inline constexpr QLatin1String PolicySet{ "policy.set" };
inline constexpr QLatin1String CredentialsList{ "credentials.list" };
inline constexpr QLatin1String CredentialsSet{ "credentials.set" };
inline constexpr QLatin1String CredentialsRemove{ "credentials.remove" };
inline constexpr QLatin1String CredentialsRotateAuthority{ "credentials.rotateAuthority" };
inline constexpr QLatin1String ProcessSpawn{ "process.spawn" };
inline constexpr QLatin1String ProcessWrite{ "process.write" };
inline constexpr QLatin1String ProcessCloseStdin{ "process.closeStdin" };
inline constexpr QLatin1String ProcessKill{ "process.kill" };
inline constexpr QLatin1String ProcessResize{ "process.resize" };
inline constexpr QLatin1String ProcessList{ "process.list" };
inline constexpr QLatin1String PacksList{ "packs.list" };
inline constexpr QLatin1String PacksInstall{ "packs.install" };
inline constexpr QLatin1String PacksEnable{ "packs.enable" };
inline constexpr QLatin1String PacksDisable{ "packs.disable" };
inline constexpr QLatin1String PacksRemove{ "packs.remove" };
inline constexpr QLatin1String InteractionAnswer{ "interaction.answer" };
inline constexpr QLatin1String EngineStatus{ "engine.status" };
inline constexpr QLatin1String RefusalsList{ "refusals.list" };
inline constexpr QLatin1String RefusalsSubscribe{ "refusals.subscribe" };
} // namespace Method

namespace Notification {
inline constexpr QLatin1String ActivationEvent{ "activation.event" };
inline constexpr QLatin1String ActivationFinished{ "activation.finished" };
inline constexpr QLatin1String CleanupWarning{ "cleanup.warning" };
inline constexpr QLatin1String InteractionRequest{ "interaction.request" };
// { id }: the question no longer waits for an answer (answered, timed out or refused).
inline constexpr QLatin1String InteractionSettled{ "interaction.settled" };
inline constexpr QLatin1String BackendsChanged{ "backends.changed" };
inline constexpr QLatin1String ActiveBackendChanged{ "backends.activeChanged" };
inline constexpr QLatin1String PolicyChanged{ "policy.changed" };
// To every client: a credential's value was stored or removed, by whichever client; {} (no
// name, never a value): presenters read credentials.list again.
inline constexpr QLatin1String CredentialsChanged{ "credentials.changed" };
inline constexpr QLatin1String ProcessStarted{ "process.started" };
inline constexpr QLatin1String ProcessFailedToStart{ "process.failedToStart" };
inline constexpr QLatin1String ProcessOutput{ "process.output" };
inline constexpr QLatin1String ProcessExited{ "process.exited" };
// To every client: a process in the engine's table started or ended, whoever spawned it.
inline constexpr QLatin1String ProcessesChanged{ "processes.changed" };
// To the clients that subscribed (refusals.subscribe): the sandbox refused something.
inline constexpr QLatin1String RefusalReported{ "refusals.reported" };
// To every client, before the engine ends the processes it runs because it is stopping
// (its host quits): {}. Their ends follow, as process.exited.
inline constexpr QLatin1String EngineStopping{ "engine.stopping" };
} // namespace Notification

struct ProtocolEntry
{
    QLatin1String name;
    QLatin1String shape; // params -> result, for --help and docs
};

const QList<ProtocolEntry> &protocolMethods();
const QList<ProtocolEntry> &protocolNotifications();

} // namespace sandbox
