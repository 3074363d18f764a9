#pragma once

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <string>

namespace sandbox::init {

// The Landlock ABI the running kernel offers (0 when Landlock is unavailable).
int landlockAbi();

// Each step returns false and sets `error` when it cannot be applied; the caller then
// refuses to run the command (never unconfined).
bool applyRlimits(const InitConfig &config, std::string &error);
bool dropPrivileges(std::string &error);
bool applyLandlock(const InitConfig &config, std::string &error);
// True when the command's filter hands calls to sandbox-init (user notification): connect()
// with `config.superviseConnect`, chmod and utimes in tier 2 where the kernel offers it,
// the calls the write gate judges (both tiers).
bool superviseNotifications(const InitConfig &config);
// With superviseNotifications(config), `*notifyFd` receives the filter's user-notification
// descriptor (close-on-exec) for ConnectSupervisor.
bool applySeccomp(const InitConfig &config, int *notifyFd, std::string &error);

// Tier 1: the rules that bind the command but not pid 1 (which bridges the proxy over a
// unix socket and answers the write gate), stacked as a second filter in the command's
// process before exec. With the write gate, `*notifyFd` receives its user-notification
// descriptor (close-on-exec) for pid 1.
bool applyCommandFilter(const InitConfig &config, int *notifyFd, std::string &error);

// All of the above, in the order that keeps each step possible; in a container
// (config.inContainer, tier 1's rules) only the seccomp deny list and the command's filter.
bool confine(const InitConfig &config, int *notifyFd, std::string &error);

} // namespace sandbox::init
