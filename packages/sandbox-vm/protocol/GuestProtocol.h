#pragma once

#include <cstdint>

// The exec agent's wire protocol on its channel (a virtio-serial port named kPortName,
// or a vsock stream). Every frame: u32 little-endian length of what follows, u8 type,
// u32 little-endian command id, payload. Commands are identified by the host's ids.
namespace sandbox::guest {

constexpr const char *kPortName = "sandbox.agent";
constexpr uint32_t kVsockPort = 1024;
constexpr uint32_t kMaxFrame = 1 << 20;
constexpr uint32_t kHeaderSize = 4 + 1 + 4;

// A command's SSH agent (Spawn flag "agent"): the guest agent listens, before the command
// runs, on a unix socket in kAgentDirectory followed by the command's id (a folder of that
// command's, 0700), and relays each connection a process of the command's own session makes
// to the host, which connects it to the command's filtering agent. Per connection each side
// sends at most kAgentWindow bytes of AgentData the other has not credited (written on to
// its end); a peer that sends more loses the connection, a malformed frame ends the channel.
constexpr const char *kAgentDirectory = "/run/sandbox-studio/agent-";
constexpr uint32_t kAgentMaxPayload = 16 * 1024;
constexpr uint32_t kAgentWindow = 64 * 1024;
constexpr uint32_t kAgentMaxConnections = 16;
constexpr uint32_t kAgentMaxFiles = 8;
// At most this many guarded roots and as many read-only paths for a command's write gate.
constexpr uint32_t kMaxGatePaths = 256;
constexpr uint32_t kAgentMaxFileSize = 256 * 1024;

enum FrameType : uint8_t {
    // host -> guest
    // payload: NUL-terminated strings: cwd, flags (space-separated words: "gate", "agent"),
    // argc, argv..., envc, env...; with "gate" then guardc, the write gate's guarded roots,
    // readonlyc, its read-only paths (the command runs under sandbox-init --gate --guest);
    // with "agent" then the agent socket's name, filec and filec pairs of a file name and its
    // content, written into the agent's folder (the SSH client's configuration). Names are
    // plain file names.
    Spawn = 1,
    Stdin = 2, // payload: bytes for the command's stdin
    StdinEof = 3, // close the command's stdin
    Signal = 4, // payload: u32 signal number, delivered to the command's process group
    // Once, in a guest restored from a baseline: find the hot-added 9p devices and apply the
    // payload (the /.sandbox/layout format). Answered with Exited (status 0) or SpawnFailed.
    Attach = 5,
    // Both ways, for a command's agent connection: payload u32 connection id (the guest's), then
    AgentData = 6, // the connection's bytes (at most kAgentMaxPayload)
    AgentClose = 7, // the connection is gone (the sender forgets it); no reply
    AgentCredit = 8, // u32: bytes of AgentData the sender has written on to its end
    // guest -> host
    Ready = 64, // id 0; payload: agent version text
    Started = 65, // payload: u32 guest pid
    Stdout = 66,
    Stderr = 67,
    Exited = 68, // payload: i32 exit code, u8 signaled, i32 signal
    SpawnFailed = 69, // payload: message
    Refusal = 70, // payload: "<syscall name>\t<command>"; the guest's write gate refused a denied call
    Log = 71, // id 0; payload: a message about the guest itself (a mount that failed ...)
    AgentOpen = 72, // payload: u32 connection id; a process of the command's session connected
    AgentEof = 73, // payload: u32 connection id; the guest's client will send nothing more
    // payload: "<pid>\t<program>\t<socket path>"; a process outside a command's session
    // connected to that command's agent socket and was turned away. The id is the command
    // whose session the process is in, else the socket's command.
    AgentRefused = 74,
    // payload: "<kind> <what>", a refused line of sandbox-init's status channel (StatusChannel.h)
    // but for kind call (sent as Refusal): the command's write gate refused a write or a connect.
    GateRefusal = 75,
};

} // namespace sandbox::guest
