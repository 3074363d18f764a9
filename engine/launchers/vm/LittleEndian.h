#pragma once

#include <QByteArray>
#include <QtEndian>

// The u32 fields of the guest wire protocols (GuestProtocol.h, ForwarderProtocol.h), which
// are little-endian on every host and guest.
namespace sandbox {

inline QByteArray littleEndianU32(quint32 value)
{
    QByteArray out(4, '\0');
    qToLittleEndian(value, out.data());
    return out;
}

inline quint32 readLittleEndianU32(const char *bytes)
{
    return qFromLittleEndian<quint32>(bytes);
}

} // namespace sandbox
