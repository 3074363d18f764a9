#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QUuid>

namespace sandbox {

// A VHDX file (the disk format Hyper-V generation 2 VMs boot from) holding a raw disk:
// every block present, no parent, no log to replay, 512-byte logical sectors.
class VhdxImage final
{
public:
    static constexpr quint32 kBlockBytes = 1024 * 1024;
    static constexpr quint64 kPayloadOffset = 4 * 1024 * 1024;

    struct Ids
    {
        QUuid disk; // the virtual disk's identity (Page 83 data)
        QUuid fileWrite;
        QUuid dataWrite;
    };

    // The bytes before the payload: identifier, both headers, both region tables, the
    // (empty) log, the metadata and the block allocation table. `diskBytes` is a whole
    // number of blocks.
    static QByteArray headers(quint64 diskBytes, const Ids &ids);
    // headers() followed by the disk, written atomically to `path`.
    static Status write(const QString &path, const QByteArray &disk, const Ids &ids);
};

} // namespace sandbox
