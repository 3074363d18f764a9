#pragma once

#include <QByteArray>
#include <QtEndian>

// Little-endian fields: the u32s of the guest wire protocols (GuestProtocol.h,
// ForwarderProtocol.h), and the on-disk structures of the Hyper-V boot disk (PE, FAT, GPT,
// VHDX), which are little-endian whatever the host.
namespace sandbox {

// `value` written at `offset` of `data`, which must hold sizeof(T) bytes there.
template <typename T> void putLittleEndian(QByteArray &data, qsizetype offset, T value)
{
    qToLittleEndian(value, data.data() + offset);
}

template <typename T> T readLittleEndian(const QByteArray &data, qsizetype offset)
{
    return qFromLittleEndian<T>(data.constData() + offset);
}

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
