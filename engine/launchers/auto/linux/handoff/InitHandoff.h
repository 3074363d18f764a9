#pragma once

#include <csignal>
#include <spawn.h>
#include <string_view>
#include <sys/types.h>

// How a command is handed to sandbox-init, the same from the engine (LinuxSandboxProcess)
// and from the run front (a recorded plan): sandbox-init alone in its environment
// (SANDBOX_INIT=1), at "/", its configuration (InitConfigFormat) in a sealed memory file
// on fd 3 and its status channel (StatusChannel.h) on fd 4; ended by kEndSignal, which
// takes the whole sandbox down, and SIGKILL kKillFallbackMs later if it is still there
// (its pid 1 and command die with it through PR_SET_PDEATHSIG). Plain C++, no Qt.
namespace sandbox::init {

constexpr int kConfigFd = 3;
constexpr int kStatusFd = 4;
inline constexpr char kEnvironmentName[] = "SANDBOX_INIT";
inline constexpr char kEnvironmentValue[] = "1";
inline constexpr char kEnvironmentEntry[] = "SANDBOX_INIT=1";
inline constexpr char kWorkingDirectory[] = "/";
constexpr int kEndSignal = SIGUSR1;
constexpr int kKillFallbackMs = 2000;

// A sealed (no more writes, no resizing) close-on-exec memory file holding `configuration`,
// positioned at its start; -1 with errno set when it cannot be made.
int sealedConfiguration(std::string_view configuration);

// In the child between fork and exec, async-signal-safe: `configFd` and `statusFd` onto
// kConfigFd and kStatusFd (inheritable there, whatever numbers they had). False on failure.
bool placeDescriptors(int configFd, int statusFd);

// The same for posix_spawn: `configFd` and `statusFd` onto kConfigFd and kStatusFd, and the
// working directory.
void addPlacement(posix_spawn_file_actions_t &actions, int configFd, int statusFd);

// Asks sandbox-init to end the sandbox (every process of it killed and reaped).
void askToEnd(pid_t initPid);
// The fallback, kKillFallbackMs after askToEnd() when sandbox-init is still there.
void forceEnd(pid_t initPid);

} // namespace sandbox::init
