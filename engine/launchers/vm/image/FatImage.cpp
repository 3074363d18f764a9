#include "FatImage.h"

#include "LittleEndian.h"

#include <QCoreApplication>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::FatImage", text);
}

constexpr quint32 kReservedSectors = 1;
constexpr quint32 kRootEntries = 512;
constexpr quint32 kRootSectors = kRootEntries * 32 / FatImage::kSectorBytes;
constexpr quint32 kMinClusters = 4085; // fewer would make it FAT12
constexpr quint32 kMaxClusters = 65524; // more would make it FAT32
constexpr quint32 kSlackClusters = 64;
constexpr quint16 kEndOfChain = 0xFFFF;
constexpr quint16 kFatDate = 0x0021; // 1980-01-01: the image is the same for the same loader

// A short (8.3) directory entry.
void putEntry(QByteArray &data, qsizetype offset, const char (&name)[12], quint8 attributes, quint16 cluster,
              quint32 size)
{
    data.replace(offset, 11, QByteArray(name, 11));
    data[offset + 11] = char(attributes);
    putLittleEndian<quint16>(data, offset + 16, kFatDate); // created
    putLittleEndian<quint16>(data, offset + 18, kFatDate); // accessed
    putLittleEndian<quint16>(data, offset + 24, kFatDate); // written
    putLittleEndian<quint16>(data, offset + 26, cluster);
    putLittleEndian<quint32>(data, offset + 28, size);
}

} // namespace

Result<QByteArray> FatImage::withBootLoader(const QByteArray &loader, quint32 hiddenSectors)
{
    constexpr quint8 kDirectory = 0x10;
    constexpr quint8 kArchive = 0x20;
    // The smallest cluster that keeps the cluster count a FAT16 one.
    quint32 sectorsPerCluster = 8;
    quint32 clusters = 0;
    for (;; sectorsPerCluster *= 2) {
        if (sectorsPerCluster > 64)
            return Error{ QStringLiteral("builtin:vm.bootdisk"),
                          tr("the boot loader (%1 bytes) is too large for a FAT16 system partition").arg(loader.size()),
                          {} };
        const quint64 clusterBytes = quint64(sectorsPerCluster) * kSectorBytes;
        const quint64 needed = (quint64(loader.size()) + clusterBytes - 1) / clusterBytes + 2 + kSlackClusters;
        if (needed <= kMaxClusters) {
            clusters = quint32(qMax<quint64>(needed, kMinClusters + kSlackClusters));
            break;
        }
    }
    const quint32 clusterBytes = sectorsPerCluster * kSectorBytes;
    const quint32 fatSectors = ((clusters + 2) * 2 + kSectorBytes - 1) / kSectorBytes;
    const quint32 dataStart = kReservedSectors + 2 * fatSectors + kRootSectors;
    const quint32 totalSectors = dataStart + clusters * sectorsPerCluster;

    QByteArray image(qsizetype(totalSectors) * kSectorBytes, '\0');
    // Boot sector and BIOS parameter block.
    image.replace(0, 3, QByteArray("\xEB\x3C\x90", 3));
    image.replace(3, 8, QByteArray("SANDBOX "));
    putLittleEndian<quint16>(image, 11, quint16(kSectorBytes));
    image[13] = char(sectorsPerCluster);
    putLittleEndian<quint16>(image, 14, quint16(kReservedSectors));
    image[16] = 2; // FATs
    putLittleEndian<quint16>(image, 17, quint16(kRootEntries));
    putLittleEndian<quint16>(image, 19, totalSectors < 0x10000 ? quint16(totalSectors) : quint16(0));
    image[21] = char(0xF8); // fixed disk
    putLittleEndian<quint16>(image, 22, quint16(fatSectors));
    putLittleEndian<quint16>(image, 24, 63); // sectors per track
    putLittleEndian<quint16>(image, 26, 255); // heads
    putLittleEndian<quint32>(image, 28, hiddenSectors);
    putLittleEndian<quint32>(image, 32, totalSectors < 0x10000 ? 0u : totalSectors);
    image[36] = char(0x80); // drive number
    image[38] = 0x29; // extended boot signature: the three fields after it are there
    putLittleEndian<quint32>(image, 39, 0x53424F58u); // volume serial number
    image.replace(43, 11, QByteArray("NO NAME    ")); // no volume label
    image.replace(54, 8, QByteArray("FAT16   "));
    image[510] = char(0x55);
    image[511] = char(0xAA);

    // Clusters: 2 is \EFI, 3 is \EFI\BOOT, the loader from 4 on.
    const quint32 loaderClusters = quint32((loader.size() + clusterBytes - 1) / clusterBytes);
    QByteArray fat(qsizetype(fatSectors) * kSectorBytes, '\0');
    putLittleEndian<quint16>(fat, 0, 0xFFF8);
    putLittleEndian<quint16>(fat, 2, kEndOfChain);
    putLittleEndian<quint16>(fat, 4, kEndOfChain);
    putLittleEndian<quint16>(fat, 6, kEndOfChain);
    for (quint32 i = 0; i < loaderClusters; ++i) {
        const quint32 cluster = 4 + i;
        putLittleEndian<quint16>(fat, qsizetype(cluster) * 2,
                                 i + 1 == loaderClusters ? kEndOfChain : quint16(cluster + 1));
    }
    image.replace(qsizetype(kReservedSectors) * kSectorBytes, fat.size(), fat);
    image.replace(qsizetype(kReservedSectors + fatSectors) * kSectorBytes, fat.size(), fat);

    const qsizetype root = qsizetype(kReservedSectors + 2 * fatSectors) * kSectorBytes;
    const auto clusterOffset
        = [&](quint32 cluster) { return qsizetype(dataStart + (cluster - 2) * sectorsPerCluster) * kSectorBytes; };
    putEntry(image, root, "EFI        ", kDirectory, 2, 0);
    putEntry(image, clusterOffset(2), ".          ", kDirectory, 2, 0);
    putEntry(image, clusterOffset(2) + 32, "..         ", kDirectory, 0, 0);
    putEntry(image, clusterOffset(2) + 64, "BOOT       ", kDirectory, 3, 0);
    putEntry(image, clusterOffset(3), ".          ", kDirectory, 3, 0);
    putEntry(image, clusterOffset(3) + 32, "..         ", kDirectory, 2, 0);
    putEntry(image, clusterOffset(3) + 64, "BOOTX64 EFI", kArchive, loaderClusters ? 4 : 0, quint32(loader.size()));
    image.replace(clusterOffset(4), loader.size(), loader);
    return image;
}

} // namespace sandbox
