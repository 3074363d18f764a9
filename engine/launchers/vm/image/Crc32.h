#pragma once

#include <QByteArrayView>

namespace sandbox {

// The two CRC-32s disk formats use: IEEE 802.3 (GPT) and Castagnoli (VHDX).
struct Crc32
{
    static quint32 ieee(QByteArrayView data);
    static quint32 castagnoli(QByteArrayView data);
};

} // namespace sandbox
