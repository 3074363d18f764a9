#pragma once

#include "protocol/Error.h"

#include <QString>

namespace sandbox {

// The disk a Hyper-V generation 2 VM boots the guest from, since that firmware cannot be
// handed a kernel and initramfs: a VHDX holding a GPT disk whose EFI system partition
// (FAT16) has one file, \EFI\BOOT\BOOTX64.EFI, a unified kernel image (UnifiedKernelImage)
// of the guest's kernel, initramfs and command line. Any UEFI firmware boots it.
class HyperVBootDisk final
{
public:
    struct Inputs
    {
        QString stub; // systemd-boot's linuxx64.efi.stub; empty: defaultStub()
        QString kernel;
        QString initramfs;
        QString commandLine;
    };

    // Where Debian's systemd-boot-efi package installs the stub.
    static QString defaultStub();
    // Writes the VHDX to `output` (atomically), or says which input it could not use.
    static Status write(const Inputs &inputs, const QString &output);
};

} // namespace sandbox
