#include "GptDisk.h"

#include "Crc32.h"
#include "LittleEndian.h"
#include "MixedEndianGuid.h"

namespace sandbox {

namespace {

constexpr quint32 kEntries = 128;
constexpr quint32 kEntryBytes = 128;
constexpr quint32 kEntrySectors = kEntries * kEntryBytes / GptDisk::kSectorBytes;
constexpr quint32 kHeaderBytes = 92;
constexpr quint64 kMiBSectors = 1024 * 1024 / GptDisk::kSectorBytes;

QByteArray header(quint64 self, quint64 alternate, quint64 entries, quint64 lastSector, const QUuid &diskId,
                  quint32 entriesCrc)
{
    QByteArray sector(GptDisk::kSectorBytes, '\0');
    sector.replace(0, 8, QByteArray("EFI PART"));
    putLittleEndian<quint32>(sector, 8, 0x00010000u);
    putLittleEndian<quint32>(sector, 12, kHeaderBytes);
    putLittleEndian<quint64>(sector, 24, self);
    putLittleEndian<quint64>(sector, 32, alternate);
    putLittleEndian<quint64>(sector, 40, 2 + kEntrySectors); // first usable
    putLittleEndian<quint64>(sector, 48, lastSector - 1 - kEntrySectors); // last usable
    sector.replace(56, 16, mixedEndianGuid(diskId));
    putLittleEndian<quint64>(sector, 72, entries);
    putLittleEndian<quint32>(sector, 80, kEntries);
    putLittleEndian<quint32>(sector, 84, kEntryBytes);
    putLittleEndian<quint32>(sector, 88, entriesCrc);
    putLittleEndian<quint32>(sector, 16, Crc32::ieee(QByteArrayView(sector).first(kHeaderBytes)));
    return sector;
}

} // namespace

const QUuid GptDisk::kEfiSystemPartition = QUuid(QStringLiteral("c12a7328-f81f-11d2-ba4b-00a0c93ec93b"));

QByteArray GptDisk::withSystemPartition(const QByteArray &partition, const QUuid &diskId, const QUuid &partitionId)
{
    const quint64 partitionSectors = quint64(partition.size()) / kSectorBytes;
    // Room for the backup table after the partition, the whole rounded up to a MiB.
    const quint64 used = kFirstPartitionSector + partitionSectors + 1 + kEntrySectors;
    const quint64 totalSectors = (used + kMiBSectors - 1) / kMiBSectors * kMiBSectors;
    const quint64 lastSector = totalSectors - 1;

    QByteArray disk(qsizetype(totalSectors * kSectorBytes), '\0');
    // Protective MBR: one partition of type 0xEE over the whole disk.
    disk[446 + 4] = char(0xEE);
    disk[446 + 2] = 0x02; // CHS of sector 1
    disk[446 + 5] = char(0xFF);
    disk[446 + 6] = char(0xFF);
    disk[446 + 7] = char(0xFF);
    putLittleEndian<quint32>(disk, 446 + 8, 1);
    putLittleEndian<quint32>(disk, 446 + 12, quint32(qMin<quint64>(totalSectors - 1, 0xFFFFFFFFu)));
    disk[510] = char(0x55);
    disk[511] = char(0xAA);

    QByteArray entries(qsizetype(kEntrySectors) * kSectorBytes, '\0');
    entries.replace(0, 16, mixedEndianGuid(kEfiSystemPartition));
    entries.replace(16, 16, mixedEndianGuid(partitionId));
    putLittleEndian<quint64>(entries, 32, kFirstPartitionSector);
    putLittleEndian<quint64>(entries, 40, kFirstPartitionSector + partitionSectors - 1);
    const QString name = QStringLiteral("EFI system partition");
    for (qsizetype i = 0; i < name.size(); ++i)
        putLittleEndian<quint16>(entries, 56 + 2 * i, name.at(i).unicode());
    const quint32 entriesCrc = Crc32::ieee(entries);

    const quint64 backupEntries = lastSector - kEntrySectors;
    disk.replace(1 * kSectorBytes, kSectorBytes, header(1, lastSector, 2, lastSector, diskId, entriesCrc));
    disk.replace(2 * kSectorBytes, entries.size(), entries);
    disk.replace(qsizetype(backupEntries * kSectorBytes), entries.size(), entries);
    disk.replace(qsizetype(lastSector * kSectorBytes), kSectorBytes,
                 header(lastSector, 1, backupEntries, lastSector, diskId, entriesCrc));
    disk.replace(qsizetype(kFirstPartitionSector) * kSectorBytes, partition.size(), partition);
    return disk;
}

} // namespace sandbox
