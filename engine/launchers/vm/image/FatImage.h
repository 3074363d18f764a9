#pragma once

#include "protocol/Error.h"

#include <QByteArray>

namespace sandbox {

// A FAT16 file system holding one file, \EFI\BOOT\BOOTX64.EFI: the EFI system partition
// firmware boots from when no boot entry names a loader (the removable-media path).
class FatImage final
{
public:
    static constexpr quint32 kSectorBytes = 512;

    // The partition's bytes (a whole number of sectors); `hiddenSectors` is where the
    // partition starts on its disk. Refuses a loader too large for FAT16.
    static Result<QByteArray> withBootLoader(const QByteArray &loader, quint32 hiddenSectors);
};

} // namespace sandbox
