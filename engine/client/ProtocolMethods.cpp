#include "client/ProtocolMethods.h"

namespace sandbox {

const QList<ProtocolEntry> &protocolMethods()
{
    static const QList<ProtocolEntry> table{
        { Method::Hello,
          QLatin1String("handshake: {protocolVersion, client} -> {protocolVersion, server, version, pid}") },
        { Method::BackendsList, QLatin1String("-> {backends: [BackendInfo]}") },
        { Method::BackendsDescribe, QLatin1String("{ref} -> {backend: BackendInfo}") },
        { Method::BackendsActivate,
          QLatin1String("{ref, values?, secrets?: [SecretUpdate]} -> ActivationResult; streams activation.event") },
        { Method::SettingsGet, QLatin1String("{ref} -> SettingsView (secrets only as {configured})") },
        { Method::SettingsUpdate, QLatin1String("{ref, values, secrets?: [SecretUpdate]} -> {}") },
        { Method::SecretsReplace, QLatin1String("{ref, field, value} -> {}") },
        { Method::SecretsRemove, QLatin1String("{ref, field} -> {}") },
        { Method::PolicyGet, QLatin1String("-> {policy}") },
        { Method::PolicySet, QLatin1String("{policy} -> {}") },
        { Method::CredentialsList,
          QLatin1String("-> {credentials: [{name, configured, inPolicy, hosts, env?}]} (never a value)") },
        { Method::CredentialsSet, QLatin1String("{name, value} -> {}") },
        { Method::CredentialsRemove, QLatin1String("{name} -> {}") },
        { Method::CredentialsRotateAuthority,
          QLatin1String("-> {certificate (PEM)} (a new engine certificate authority; never its key)") },
        { Method::ProcessSpawn,
          QLatin1String("{request: SpawnRequest} -> {processId}; streams process.* notifications") },
        { Method::ProcessWrite, QLatin1String("{processId, data (base64)} -> {}") },
        { Method::ProcessCloseStdin, QLatin1String("{processId} -> {}") },
        { Method::ProcessKill, QLatin1String("{processId} -> {}") },
        { Method::ProcessResize,
          QLatin1String("{processId, rows, columns} -> {} (a command spawned with a terminal)") },
        { Method::ProcessList, QLatin1String("-> {processes: [ProcessInfo]} (each with its owning backend)") },
        { Method::PacksList, QLatin1String("-> {packs: [PackInfo]}") },
        { Method::PacksInstall, QLatin1String("{path} -> {pack: PackInfo}") },
        { Method::PacksEnable, QLatin1String("{packId} -> {}") },
        { Method::PacksDisable, QLatin1String("{packId} -> {}") },
        { Method::PacksRemove, QLatin1String("{packId} -> {}") },
        { Method::InteractionAnswer, QLatin1String("{answer: HostInteractionResponse} -> {}") },
        { Method::EngineStatus,
          QLatin1String("-> {active, warnings, processes, server: {version, pid, protocolVersion}}") },
        { Method::RefusalsList, QLatin1String("-> {refusals: [Refusal]} (the recent ones, oldest first)") },
        { Method::RefusalsSubscribe,
          QLatin1String("-> {refusals: [Refusal]} (the recent ones); then streams refusals.reported") },
    };
    return table;
}

const QList<ProtocolEntry> &protocolNotifications()
{
    static const QList<ProtocolEntry> table{
        { Notification::ActivationEvent, QLatin1String("{event: ActivationEvent}") },
        { Notification::ActivationFinished, QLatin1String("{result: ActivationResult}") },
        { Notification::CleanupWarning, QLatin1String("{warning: CleanupWarning}") },
        { Notification::InteractionRequest, QLatin1String("{request: HostInteractionRequest}") },
        { Notification::BackendsChanged, QLatin1String("{} (registry or availability changed)") },
        { Notification::ActiveBackendChanged, QLatin1String("{ref}") },
        { Notification::PolicyChanged, QLatin1String("{policy}") },
        { Notification::CredentialsChanged,
          QLatin1String("{} (a credential's value was stored or removed; read credentials.list)") },
        { Notification::ProcessStarted, QLatin1String("{processId, info: ProcessInfo}") },
        { Notification::ProcessFailedToStart, QLatin1String("{processId, error}") },
        { Notification::ProcessOutput, QLatin1String("{processId, stream: stdout|stderr, data (base64)}") },
        { Notification::ProcessExited, QLatin1String("{processId, exit: ExitStatus}") },
        { Notification::ProcessesChanged,
          QLatin1String("{process: ProcessInfo} (to every client: any process started or ended)") },
        { Notification::RefusalReported, QLatin1String("{refusal: Refusal} (to clients that subscribed)") },
    };
    return table;
}

} // namespace sandbox
