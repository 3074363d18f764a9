#pragma once

#include <cstddef>
#include <cstdint>

// The local protocol's names and limits in plain C++ (no Qt), for the server and every
// client: ProtocolMethods.h gives the server and the Qt client these names as QLatin1String,
// and sandboxctl's run front (app/sandboxctl/front/DaemonRun), which loads no Qt, uses them
// as they are.
namespace sandbox {

inline constexpr int ProtocolVersion = 1;

// The largest message payload (a frame is a 4-byte big-endian length, then the payload).
inline constexpr std::uint32_t MaxPayloadBytes = 8 * 1024 * 1024;
// Standard input goes to a process in pieces of at most this many bytes (process.write).
inline constexpr std::size_t StdinChunkBytes = 1024 * 1024;

// JSON-RPC 2.0 error codes used by the local protocol.
namespace RpcErrorCode {
inline constexpr int ParseError = -32700;
inline constexpr int InvalidRequest = -32600;
inline constexpr int MethodNotFound = -32601;
inline constexpr int InvalidParams = -32602;
inline constexpr int InternalError = -32603;
inline constexpr int EngineError = -32000; // the engine refused; data is a sandbox::Error
inline constexpr int VersionMismatch = -32001; // hello with a protocol version we do not speak
inline constexpr int HelloRequired = -32002; // a request before the hello handshake
inline constexpr int TooLarge = -32003; // a message over the size limit
inline constexpr int PeerRefused = -32004; // the peer is another user
} // namespace RpcErrorCode

namespace MethodName {
inline constexpr char Hello[] = "hello";
inline constexpr char BackendsList[] = "backends.list";
inline constexpr char BackendsDescribe[] = "backends.describe";
inline constexpr char BackendsActivate[] = "backends.activate";
inline constexpr char SettingsGet[] = "settings.get";
inline constexpr char SettingsUpdate[] = "settings.update";
inline constexpr char SecretsReplace[] = "secrets.replace";
inline constexpr char SecretsRemove[] = "secrets.remove";
inline constexpr char PolicyGet[] = "policy.get";
inline constexpr char PolicySet[] = "policy.set";
inline constexpr char CredentialsList[] = "credentials.list";
inline constexpr char CredentialsSet[] = "credentials.set";
inline constexpr char CredentialsRemove[] = "credentials.remove";
inline constexpr char CredentialsRotateAuthority[] = "credentials.rotateAuthority";
inline constexpr char ProcessSpawn[] = "process.spawn";
inline constexpr char ProcessWrite[] = "process.write";
inline constexpr char ProcessCloseStdin[] = "process.closeStdin";
inline constexpr char ProcessKill[] = "process.kill";
inline constexpr char ProcessResize[] = "process.resize";
inline constexpr char ProcessList[] = "process.list";
inline constexpr char PacksList[] = "packs.list";
inline constexpr char PacksInstall[] = "packs.install";
inline constexpr char PacksEnable[] = "packs.enable";
inline constexpr char PacksDisable[] = "packs.disable";
inline constexpr char PacksRemove[] = "packs.remove";
inline constexpr char InteractionAnswer[] = "interaction.answer";
inline constexpr char EngineStatus[] = "engine.status";
inline constexpr char RefusalsList[] = "refusals.list";
inline constexpr char RefusalsSubscribe[] = "refusals.subscribe";
} // namespace MethodName

namespace NotificationName {
inline constexpr char ActivationEvent[] = "activation.event";
inline constexpr char ActivationFinished[] = "activation.finished";
inline constexpr char CleanupWarning[] = "cleanup.warning";
inline constexpr char InteractionRequest[] = "interaction.request";
// { id }: the question no longer waits for an answer (answered, timed out or refused).
inline constexpr char InteractionSettled[] = "interaction.settled";
inline constexpr char BackendsChanged[] = "backends.changed";
inline constexpr char ActiveBackendChanged[] = "backends.activeChanged";
inline constexpr char PolicyChanged[] = "policy.changed";
// To every client: a credential's value was stored or removed, by whichever client; {} (no
// name, never a value): presenters read credentials.list again.
inline constexpr char CredentialsChanged[] = "credentials.changed";
inline constexpr char ProcessStarted[] = "process.started";
inline constexpr char ProcessFailedToStart[] = "process.failedToStart";
inline constexpr char ProcessOutput[] = "process.output";
inline constexpr char ProcessExited[] = "process.exited";
// To every client: a process in the engine's table started or ended, whoever spawned it.
inline constexpr char ProcessesChanged[] = "processes.changed";
// To the clients that subscribed (refusals.subscribe): the sandbox refused something.
inline constexpr char RefusalReported[] = "refusals.reported";
// To every client, before the engine ends the processes it runs because it is stopping
// (its host quits): {}. Their ends follow, as process.exited.
inline constexpr char EngineStopping[] = "engine.stopping";
} // namespace NotificationName

} // namespace sandbox
