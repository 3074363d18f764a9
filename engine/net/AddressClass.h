#pragma once

#include <QHostAddress>
#include <QString>

namespace sandbox {

// Classifies a target address: anything that is not an ordinary public unicast address
// (loopback, private, carrier-grade NAT, link-local, multicast, broadcast, unspecified,
// reserved, unique-local, IPv4-mapped/compatible forms of those) is "internal" and may
// only be reached when the policy names that host exactly.
class AddressClass final
{
public:
    // Empty when `address` is public; otherwise what it is ("loopback", "private" ...).
    static QString internalKind(const QHostAddress &address);
};

} // namespace sandbox
