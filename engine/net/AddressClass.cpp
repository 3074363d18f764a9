#include "AddressClass.h"

namespace sandbox {

namespace {

bool inRange(quint32 ip, quint32 network, int prefix)
{
    const quint32 mask = prefix == 0 ? 0 : ~quint32(0) << (32 - prefix);
    return (ip & mask) == (network & mask);
}

struct Range
{
    quint32 network;
    int prefix;
    const char *kind;
};

const Range kIpv4Ranges[] = {
    { 0x00000000, 8, "unspecified" }, { 0x0A000000, 8, "private" },     { 0x64400000, 10, "carrier-grade NAT" },
    { 0x7F000000, 8, "loopback" },    { 0xA9FE0000, 16, "link-local" }, { 0xAC100000, 12, "private" },
    { 0xC0000000, 24, "reserved" },   { 0xC0000200, 24, "reserved" },   { 0xC0A80000, 16, "private" },
    { 0xC6120000, 15, "reserved" },   { 0xC6336400, 24, "reserved" },   { 0xCB007100, 24, "reserved" },
    { 0xE0000000, 4, "multicast" },   { 0xF0000000, 4, "reserved" },
};

QString ipv4Kind(quint32 ip)
{
    for (const Range &range : kIpv4Ranges) {
        if (inRange(ip, range.network, range.prefix))
            return QString::fromLatin1(range.kind);
    }
    return {};
}

} // namespace

QList<AddressClass::Ipv4Range> AddressClass::internalIpv4Ranges()
{
    QList<Ipv4Range> ranges;
    for (const Range &range : kIpv4Ranges)
        ranges.append({ range.network, range.prefix });
    return ranges;
}

QString AddressClass::internalKind(const QHostAddress &address)
{
    if (address.isNull())
        return QStringLiteral("unspecified");
    if (address.protocol() == QAbstractSocket::IPv4Protocol)
        return ipv4Kind(address.toIPv4Address());
    const Q_IPV6ADDR ip = address.toIPv6Address();
    bool allZeroPrefix = true;
    for (int i = 0; i < 10; ++i)
        allZeroPrefix = allZeroPrefix && ip[i] == 0;
    const quint32 low = (quint32(ip[12]) << 24) | (quint32(ip[13]) << 16) | (quint32(ip[14]) << 8) | ip[15];
    if (allZeroPrefix && ip[10] == 0xff && ip[11] == 0xff) {
        const QString kind = ipv4Kind(low); // ::ffff:a.b.c.d
        return kind.isEmpty() ? QString() : kind + QStringLiteral(" (IPv4-mapped)");
    }
    if (allZeroPrefix && ip[10] == 0 && ip[11] == 0) {
        if (low == 0)
            return QStringLiteral("unspecified");
        if (low == 1)
            return QStringLiteral("loopback");
        return QStringLiteral("reserved (IPv4-compatible)");
    }
    if (ip[0] == 0xff)
        return QStringLiteral("multicast");
    if (ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80)
        return QStringLiteral("link-local");
    if (ip[0] == 0xfe && (ip[1] & 0xc0) == 0xc0)
        return QStringLiteral("site-local");
    if ((ip[0] & 0xfe) == 0xfc)
        return QStringLiteral("unique-local");
    // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address that decides.
    if (ip[0] == 0x00 && ip[1] == 0x64 && ip[2] == 0xff && ip[3] == 0x9b) {
        const QString kind = ipv4Kind(low);
        return kind.isEmpty() ? QString() : kind + QStringLiteral(" (NAT64)");
    }
    if (ip[0] == 0x20 && ip[1] == 0x02) {
        const quint32 embedded = (quint32(ip[2]) << 24) | (quint32(ip[3]) << 16) | (quint32(ip[4]) << 8) | ip[5];
        const QString kind = ipv4Kind(embedded);
        return kind.isEmpty() ? QString() : kind + QStringLiteral(" (6to4)");
    }
    if (ip[0] == 0x20 && ip[1] == 0x01 && ip[2] == 0x0d && ip[3] == 0xb8)
        return QStringLiteral("reserved (documentation)");
    return {};
}

} // namespace sandbox
