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

enum FrameType : uint8_t {
    // host -> guest
    Spawn = 1, // payload: NUL-terminated strings: cwd, flags ("observe" or ""), argc, argv..., envc, env...
    Stdin = 2, // payload: bytes for the command's stdin
    StdinEof = 3, // close the command's stdin
    Signal = 4, // payload: u32 signal number, delivered to the command's process group
    // Once, in a guest restored from a baseline: find the hot-added 9p devices and apply the
    // payload (the /.sandbox/layout format). Answered with Exited (status 0) or SpawnFailed.
    Attach = 5,
    // guest -> host
    Ready = 64, // id 0; payload: agent version text
    Started = 65, // payload: u32 guest pid
    Stdout = 66,
    Stderr = 67,
    Exited = 68, // payload: i32 exit code, u8 signaled, i32 signal
    SpawnFailed = 69, // payload: message
    Refusal = 70, // payload: "<syscall name>\t<command>"; the seccomp observer refused a call
    Log = 71, // id 0; payload: a message about the guest itself (a mount that failed ...)
};

} // namespace sandbox::guest
