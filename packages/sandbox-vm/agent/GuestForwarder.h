#pragma once

#include <string>

namespace sandbox::guest {

// Starts the network forwarder `program` (network allowlist: the kernel command line holds
// sandbox.net=proxy) and waits until it listens, up to `waitMs`. Empty when it does;
// otherwise what went wrong (the guest then has no way out at all).
std::string startForwarder(const char *program, int waitMs);

} // namespace sandbox::guest
