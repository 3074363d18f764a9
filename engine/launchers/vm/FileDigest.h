#pragma once

#include <QString>

namespace sandbox {

// SHA-256 of a file's bytes as lowercase hex, empty when it cannot be read. Large files (a
// VM baseline is tens of MiB, checked on every restore) go through the kernel's crypto API
// (AF_ALG, with the CPU's SHA instructions) where the host offers it, else through Qt.
struct FileDigest
{
    // Of the whole open file `fd`, which is left at offset 0; `bytes` gets its length.
    static QString sha256(int fd, qint64 *bytes = nullptr);
    static QString sha256(const QString &path, qint64 *bytes = nullptr);
};

} // namespace sandbox
