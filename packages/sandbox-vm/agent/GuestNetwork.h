#pragma once

#include <string>

namespace sandbox::guest {

// Network "full": brings up loopback and the NIC on QEMU's user-mode network (waiting up
// to `waitMs` for it to appear), its default route through QEMU's gateway, and
// /etc/resolv.conf naming the DNS forwarder (UserNetworkProtocol.h). Returns what failed,
// empty when the guest is wired.
std::string configureUserNetwork(int waitMs);

} // namespace sandbox::guest
