#include "Crc32.h"

#include <array>

namespace sandbox {

namespace {

constexpr std::array<quint32, 256> tableFor(quint32 polynomial)
{
    std::array<quint32, 256> table{};
    for (quint32 i = 0; i < 256; ++i) {
        quint32 value = i;
        for (int bit = 0; bit < 8; ++bit)
            value = (value & 1) ? (value >> 1) ^ polynomial : value >> 1;
        table[i] = value;
    }
    return table;
}

constexpr auto kIeee = tableFor(0xEDB88320u);
constexpr auto kCastagnoli = tableFor(0x82F63B78u);

quint32 checksum(const std::array<quint32, 256> &table, QByteArrayView data)
{
    quint32 crc = 0xFFFFFFFFu;
    for (const char byte : data)
        crc = table[(crc ^ quint8(byte)) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

} // namespace

quint32 Crc32::ieee(QByteArrayView data)
{
    return checksum(kIeee, data);
}

quint32 Crc32::castagnoli(QByteArrayView data)
{
    return checksum(kCastagnoli, data);
}

} // namespace sandbox
