#pragma once

#include "protocol/Error.h"

#include <QByteArray>

namespace sandbox {

// One EFI executable that boots Linux with its initramfs and command line: the EFI stub of
// systemd-boot (linuxx64.efi.stub) with the sections it looks for added — .cmdline, .linux
// (the kernel, itself an EFI stub) and .initrd — the way objcopy --add-section would, for
// firmware that cannot be handed a kernel and initramfs (Hyper-V generation 2).
class UnifiedKernelImage final
{
public:
    // Appends the sections after the stub's own, page-aligned. Refuses a stub that is not
    // an x86-64 PE32+ image or has no room in its headers for three more sections.
    static Result<QByteArray> build(const QByteArray &stub, const QByteArray &kernel, const QByteArray &initramfs,
                                    const QString &commandLine);
};

} // namespace sandbox
