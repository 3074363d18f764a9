#pragma once

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <string>

// The seccomp-bpf filters sandbox-init loads: the deny list every command gets, and the
// rules that hand calls to sandbox-init's supervisors (connect, the write gate, metadata).
namespace sandbox::init {

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

// The name of `nr` when it is on the deny list every command gets (refused whatever its
// arguments); empty when it is not. In a VM guest (InitConfig::inGuest) these calls are
// handed to sandbox-init, which refuses and reports each.
std::string deniedCallName(int nr);

} // namespace sandbox::init
