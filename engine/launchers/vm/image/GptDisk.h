#pragma once

#include <QByteArray>
#include <QUuid>

namespace sandbox {

// A disk with a GUID partition table (and its protective MBR) holding one EFI system
// partition, 1 MiB in; the disk's size is a whole number of MiB.
class GptDisk final
{
public:
    static constexpr quint32 kSectorBytes = 512;
    static constexpr quint32 kFirstPartitionSector = 2048;
    static const QUuid kEfiSystemPartition;

    // `partition` is a whole number of sectors.
    static QByteArray withSystemPartition(const QByteArray &partition, const QUuid &diskId, const QUuid &partitionId);
};

} // namespace sandbox
