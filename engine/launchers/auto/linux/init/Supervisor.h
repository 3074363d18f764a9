#pragma once

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <string>

namespace sandbox::init {

// Tier 1: the host-side process. Creates the namespaces with pid 1 of the sandbox as its
// child, relays signals to it, mirrors its exit. Never returns.
[[noreturn]] void runNamespaced(const InitConfig &config);

// Tier 2: no namespaces. Becomes a child subreaper, starts the confined command in its
// own session, relays signals, and when the command ends kills every descendant left.
// The same for `sandbox-init --gate` in a container (config.inContainer), where confining
// the command is the deny list and the write gate's filter only.
[[noreturn]] void runUnshared(const InitConfig &config);

// `sandbox-init --probe`: prints what this kernel lets a sandbox use.
int probe();

} // namespace sandbox::init
