#pragma once

#include <QHostAddress>
#include <QList>
#include <QString>

namespace sandbox {

// Classifies a target address: anything that is not an ordinary public unicast address
// (loopback, private, carrier-grade NAT, link-local, multicast, broadcast, unspecified,
// reserved, unique-local, IPv4-mapped/compatible forms of those) is "internal" and may
// only be reached when the policy names that host exactly.
class AddressClass final
{
public:
    struct Ipv4Range
    {
        quint32 network; // host byte order
        int prefix;
    };

    // Empty when `address` is public; otherwise what it is ("loopback", "private" ...).
    static QString internalKind(const QHostAddress &address);
    // Every IPv4 range internalKind() names.
    static QList<Ipv4Range> internalIpv4Ranges();
};

} // namespace sandbox
