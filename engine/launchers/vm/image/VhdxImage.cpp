#include "VhdxImage.h"

#include "Crc32.h"
#include "LittleEndian.h"
#include "MixedEndianGuid.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::VhdxImage", text);
}

constexpr quint64 kKiB = 1024;
constexpr quint64 kMiB = 1024 * kKiB;
constexpr quint64 kHeader1 = 64 * kKiB;
constexpr quint64 kHeader2 = 128 * kKiB;
constexpr quint64 kRegions1 = 192 * kKiB;
constexpr quint64 kRegions2 = 256 * kKiB;
constexpr quint64 kLog = 1 * kMiB;
constexpr quint64 kMetadata = 2 * kMiB;
constexpr quint64 kBat = 3 * kMiB;
constexpr quint32 kLogicalSector = 512;
constexpr quint32 kPhysicalSector = 4096;
constexpr quint64 kPayloadBlockFullyPresent = 6;

// Metadata item flags.
constexpr quint32 kIsVirtualDisk = 0x2;
constexpr quint32 kIsRequired = 0x4;

QByteArray guid(const char *text)
{
    return mixedEndianGuid(QUuid(QLatin1String(text)));
}

QByteArray header(quint64 sequence, const VhdxImage::Ids &ids)
{
    QByteArray block(4 * kKiB, '\0');
    block.replace(0, 4, QByteArray("head"));
    putLittleEndian<quint64>(block, 8, sequence);
    block.replace(16, 16, mixedEndianGuid(ids.fileWrite));
    block.replace(32, 16, mixedEndianGuid(ids.dataWrite));
    // LogGuid (48) stays zero: there is nothing to replay.
    putLittleEndian<quint16>(block, 64, 0); // log version
    putLittleEndian<quint16>(block, 66, 1); // version
    putLittleEndian<quint32>(block, 68, quint32(kMiB)); // log length
    putLittleEndian<quint64>(block, 72, kLog);
    putLittleEndian<quint32>(block, 4, Crc32::castagnoli(block));
    return block;
}

QByteArray regionTable(quint64 batBytes)
{
    QByteArray table(64 * kKiB, '\0');
    table.replace(0, 4, QByteArray("regi"));
    putLittleEndian<quint32>(table, 8, 2);
    table.replace(16, 16, guid("2dc27766-f623-4200-9d64-115e9bfd4a08")); // BAT
    putLittleEndian<quint64>(table, 32, kBat);
    putLittleEndian<quint32>(table, 40, quint32(batBytes));
    putLittleEndian<quint32>(table, 44, 1); // required
    table.replace(48, 16, guid("8b7ca206-4790-4b9a-b8fe-575f050f886e")); // metadata
    putLittleEndian<quint64>(table, 64, kMetadata);
    putLittleEndian<quint32>(table, 72, quint32(kMiB));
    putLittleEndian<quint32>(table, 76, 1);
    putLittleEndian<quint32>(table, 4, Crc32::castagnoli(table));
    return table;
}

QByteArray metadata(quint64 diskBytes, const QUuid &disk)
{
    QByteArray region(kMiB, '\0');
    region.replace(0, 8, QByteArray("metadata"));
    struct Item
    {
        const char *id;
        QByteArray value;
        quint32 flags;
    };
    QByteArray fileParameters(8, '\0');
    putLittleEndian<quint32>(fileParameters, 0, VhdxImage::kBlockBytes);
    putLittleEndian<quint32>(fileParameters, 4, 1); // leave blocks allocated: a fixed disk
    QByteArray size(8, '\0');
    putLittleEndian<quint64>(size, 0, diskBytes);
    QByteArray logical(4, '\0');
    putLittleEndian<quint32>(logical, 0, kLogicalSector);
    QByteArray physical(4, '\0');
    putLittleEndian<quint32>(physical, 0, kPhysicalSector);
    const Item items[] = {
        { "caa16737-fa36-4d43-b3b6-33f0aa44e76b", fileParameters, kIsRequired },
        { "2fa54224-cd1b-4876-b211-5dbed83bf4b8", size, kIsVirtualDisk | kIsRequired },
        { "beca12ab-b2e6-4523-93ef-c309e000c746", mixedEndianGuid(disk), kIsVirtualDisk | kIsRequired },
        { "8141bf1d-a96f-4709-ba47-f233a8faab5f", logical, kIsVirtualDisk | kIsRequired },
        { "cda348c7-445d-4471-9cc9-e9885251c556", physical, kIsVirtualDisk | kIsRequired },
    };
    putLittleEndian<quint16>(region, 10, quint16(std::size(items)));
    quint32 offset = 64 * kKiB;
    qsizetype entry = 32;
    for (const Item &item : items) {
        region.replace(entry, 16, guid(item.id));
        putLittleEndian<quint32>(region, entry + 16, offset);
        putLittleEndian<quint32>(region, entry + 20, quint32(item.value.size()));
        putLittleEndian<quint32>(region, entry + 24, item.flags);
        region.replace(offset, item.value.size(), item.value);
        offset += 16;
        entry += 32;
    }
    return region;
}

} // namespace

QByteArray VhdxImage::headers(quint64 diskBytes, const Ids &ids)
{
    const quint64 blocks = (diskBytes + kBlockBytes - 1) / kBlockBytes;
    // One sector bitmap entry after each chunk of payload entries (unused without a parent).
    const quint64 chunkRatio = (quint64(1) << 23) * kLogicalSector / kBlockBytes;
    const quint64 entries = blocks + (blocks > 0 ? (blocks - 1) / chunkRatio : 0);
    const quint64 batBytes = (entries * 8 + kMiB - 1) / kMiB * kMiB;
    const quint64 payload = kBat + batBytes;

    QByteArray area(qsizetype(payload), '\0');
    area.replace(0, 8, QByteArray("vhdxfile"));
    const QString creator = QStringLiteral("Sandbox Studio");
    for (qsizetype i = 0; i < creator.size(); ++i)
        putLittleEndian<quint16>(area, 8 + 2 * i, creator.at(i).unicode());
    area.replace(kHeader1, 4 * kKiB, header(1, ids));
    area.replace(kHeader2, 4 * kKiB, header(2, ids));
    const QByteArray regions = regionTable(batBytes);
    area.replace(kRegions1, regions.size(), regions);
    area.replace(kRegions2, regions.size(), regions);
    const QByteArray items = metadata(diskBytes, ids.disk);
    area.replace(kMetadata, items.size(), items);
    for (quint64 block = 0; block < blocks; ++block) {
        const quint64 index = block + block / chunkRatio;
        const quint64 fileOffsetMb = (payload + block * kBlockBytes) / kMiB;
        putLittleEndian<quint64>(area, qsizetype(kBat + index * 8), (fileOffsetMb << 20) | kPayloadBlockFullyPresent);
    }
    return area;
}

Status VhdxImage::write(const QString &path, const QByteArray &disk, const Ids &ids)
{
    if (disk.isEmpty() || disk.size() % kBlockBytes != 0)
        return Error{
            QStringLiteral("builtin:vm.bootdisk"),
            tr("the boot disk is %1 bytes, not a whole number of %2-byte blocks").arg(disk.size()).arg(kBlockBytes),
            {}
        };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(headers(quint64(disk.size()), ids)) < 0
        || file.write(disk) != disk.size() || !file.commit())
        return Error{ QStringLiteral("builtin:vm.bootdisk"),
                      tr("cannot write %1: %2").arg(path, file.errorString()),
                      {} };
    return Status::success();
}

} // namespace sandbox
