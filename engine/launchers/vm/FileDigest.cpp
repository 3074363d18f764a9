#include "FileDigest.h"

#include "FileDigestLibrary.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#ifdef SANDBOX_DIGEST_LIBRARY
#include <dlfcn.h>
#endif

namespace sandbox {

namespace {

using Entry = int (*)(int, unsigned char *, long long *);

// The OpenSSL-backed digest: on Linux from libsandbox-digest, loaded on first use (found
// through the program's run path, like libsandbox-launcher-api; never unloaded).
Entry openSslDigest()
{
#ifdef SANDBOX_DIGEST_LIBRARY
    static const Entry entry = [] {
        void *library = ::dlopen(SANDBOX_DIGEST_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        return library ? reinterpret_cast<Entry>(::dlsym(library, "sandbox_sha256_file")) : nullptr;
    }();
    return entry;
#else
    return &sandbox_sha256_file;
#endif
}

// Qt's own SHA-256: the same digest, much slower on large files; used only when the
// digest library cannot be loaded.
bool qtDigest(int fd, QByteArray *digest, qint64 *bytes)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    for (;;) {
        const ssize_t got = ::read(fd, buffer.data(), size_t(buffer.size()));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return false;
        if (got == 0)
            break;
        hash.addData(QByteArrayView(buffer.constData(), got));
        total += got;
    }
    *digest = hash.result();
    *bytes = total;
    return true;
}

} // namespace

QString FileDigest::sha256(int fd, qint64 *bytes)
{
    if (::lseek(fd, 0, SEEK_SET) != 0)
        return {};
    QByteArray digest;
    qint64 total = 0;
    if (const Entry entry = openSslDigest()) {
        unsigned char raw[kSha256Bytes];
        long long length = 0;
        if (entry(fd, raw, &length) != 1)
            return {};
        digest = QByteArray(reinterpret_cast<const char *>(raw), int(kSha256Bytes));
        total = length;
    } else if (!qtDigest(fd, &digest, &total)) {
        return {};
    }
    if (::lseek(fd, 0, SEEK_SET) != 0)
        return {};
    if (bytes)
        *bytes = total;
    return QString::fromLatin1(digest.toHex());
}

QString FileDigest::sha256(const QString &path, qint64 *bytes)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    const QString digest = sha256(fd, bytes);
    ::close(fd);
    return digest;
}

} // namespace sandbox
