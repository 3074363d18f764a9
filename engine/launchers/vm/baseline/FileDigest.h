#pragma once

#include <QString>

namespace sandbox {

// SHA-256 of a file's bytes as lowercase hex, empty when it cannot be read. Through
// OpenSSL, which uses the CPU's SHA instructions: a VM baseline is tens of MiB and is
// checked on every restore. On Linux OpenSSL is loaded only on the first digest (see
// FileDigestLibrary.cpp).
struct FileDigest
{
    // Of the whole open file `fd`, which is left at offset 0; `bytes` gets its length.
    static QString sha256(int fd, qint64 *bytes = nullptr);
    static QString sha256(const QString &path, qint64 *bytes = nullptr);
    // The same digests, remembered for the process's life keyed by the file's device, inode,
    // size, modification and status change times (ns) and computed again when any differs:
    // what the digest checks of kernels, initramfs images and baselines use, so an unchanged
    // file is read once. FileDigest.cpp says why the key is enough.
    static QString rememberedSha256(int fd, qint64 *bytes = nullptr);
    static QString rememberedSha256(const QString &path, qint64 *bytes = nullptr);
};

} // namespace sandbox
