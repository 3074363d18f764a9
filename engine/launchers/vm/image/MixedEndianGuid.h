#pragma once

#include <QByteArray>
#include <QUuid>
#include <QtEndian>

namespace sandbox {

// A GUID as GPT and VHDX store it: Windows' layout, its first three fields little-endian.
inline QByteArray mixedEndianGuid(const QUuid &id)
{
    QByteArray bytes(16, '\0');
    qToLittleEndian(quint32(id.data1), bytes.data());
    qToLittleEndian(quint16(id.data2), bytes.data() + 4);
    qToLittleEndian(quint16(id.data3), bytes.data() + 6);
    for (int i = 0; i < 8; ++i)
        bytes[8 + i] = char(id.data4[i]);
    return bytes;
}

} // namespace sandbox
