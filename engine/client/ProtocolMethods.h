#pragma once

#include "client/ProtocolNames.h"

#include <QLatin1String>
#include <QList>

namespace sandbox {

// The local protocol's vocabulary, in one table: every method a presenter can call and
// every notification the server pushes. Client, server, docs and tests use these names,
// which are ProtocolNames.h's (plain C++, for the run front) as QLatin1String.

namespace Method {
inline constexpr QLatin1String Hello{ MethodName::Hello };
inline constexpr QLatin1String BackendsList{ MethodName::BackendsList };
inline constexpr QLatin1String BackendsDescribe{ MethodName::BackendsDescribe };
inline constexpr QLatin1String BackendsActivate{ MethodName::BackendsActivate };
inline constexpr QLatin1String SettingsGet{ MethodName::SettingsGet };
inline constexpr QLatin1String SettingsUpdate{ MethodName::SettingsUpdate };
inline constexpr QLatin1String SecretsReplace{ MethodName::SecretsReplace };
inline constexpr QLatin1String SecretsRemove{ MethodName::SecretsRemove };
inline constexpr QLatin1String PolicyGet{ MethodName::PolicyGet };
inline constexpr QLatin1String PolicySet{ MethodName::PolicySet };
inline constexpr QLatin1String CredentialsList{ MethodName::CredentialsList };
inline constexpr QLatin1String CredentialsSet{ MethodName::CredentialsSet };
inline constexpr QLatin1String CredentialsRemove{ MethodName::CredentialsRemove };
inline constexpr QLatin1String CredentialsRotateAuthority{ MethodName::CredentialsRotateAuthority };
inline constexpr QLatin1String ProcessSpawn{ MethodName::ProcessSpawn };
inline constexpr QLatin1String ProcessWrite{ MethodName::ProcessWrite };
inline constexpr QLatin1String ProcessCloseStdin{ MethodName::ProcessCloseStdin };
inline constexpr QLatin1String ProcessKill{ MethodName::ProcessKill };
inline constexpr QLatin1String ProcessResize{ MethodName::ProcessResize };
inline constexpr QLatin1String ProcessList{ MethodName::ProcessList };
inline constexpr QLatin1String PacksList{ MethodName::PacksList };
inline constexpr QLatin1String PacksInstall{ MethodName::PacksInstall };
inline constexpr QLatin1String PacksEnable{ MethodName::PacksEnable };
inline constexpr QLatin1String PacksDisable{ MethodName::PacksDisable };
inline constexpr QLatin1String PacksRemove{ MethodName::PacksRemove };
inline constexpr QLatin1String InteractionAnswer{ MethodName::InteractionAnswer };
inline constexpr QLatin1String EngineStatus{ MethodName::EngineStatus };
inline constexpr QLatin1String RefusalsList{ MethodName::RefusalsList };
inline constexpr QLatin1String RefusalsSubscribe{ MethodName::RefusalsSubscribe };
} // namespace Method

namespace Notification {
inline constexpr QLatin1String ActivationEvent{ NotificationName::ActivationEvent };
inline constexpr QLatin1String ActivationFinished{ NotificationName::ActivationFinished };
inline constexpr QLatin1String CleanupWarning{ NotificationName::CleanupWarning };
inline constexpr QLatin1String InteractionRequest{ NotificationName::InteractionRequest };
// { id }: the question no longer waits for an answer (answered, timed out or refused).
inline constexpr QLatin1String InteractionSettled{ NotificationName::InteractionSettled };
inline constexpr QLatin1String BackendsChanged{ NotificationName::BackendsChanged };
inline constexpr QLatin1String ActiveBackendChanged{ NotificationName::ActiveBackendChanged };
inline constexpr QLatin1String PolicyChanged{ NotificationName::PolicyChanged };
// To every client: a credential's value was stored or removed, by whichever client; {} (no
// name, never a value): presenters read credentials.list again.
inline constexpr QLatin1String CredentialsChanged{ NotificationName::CredentialsChanged };
inline constexpr QLatin1String ProcessStarted{ NotificationName::ProcessStarted };
inline constexpr QLatin1String ProcessFailedToStart{ NotificationName::ProcessFailedToStart };
inline constexpr QLatin1String ProcessOutput{ NotificationName::ProcessOutput };
inline constexpr QLatin1String ProcessExited{ NotificationName::ProcessExited };
// To every client: a process in the engine's table started or ended, whoever spawned it.
inline constexpr QLatin1String ProcessesChanged{ NotificationName::ProcessesChanged };
// To the clients that subscribed (refusals.subscribe): the sandbox refused something.
inline constexpr QLatin1String RefusalReported{ NotificationName::RefusalReported };
// To every client, before the engine ends the processes it runs because it is stopping
// (its host quits): {}. Their ends follow, as process.exited.
inline constexpr QLatin1String EngineStopping{ NotificationName::EngineStopping };
} // namespace Notification

struct ProtocolEntry
{
    QLatin1String name;
    QLatin1String shape; // params -> result, for --help and docs
};

const QList<ProtocolEntry> &protocolMethods();
const QList<ProtocolEntry> &protocolNotifications();

} // namespace sandbox
