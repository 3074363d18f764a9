#include "FileDigest.h"

#include "FileDigestLibrary.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QMutex>

#include <array>
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
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

// Why a digest remembered under this key is the file's digest still:
// - Every change to a file's bytes (write, truncate, a writable mapping's first write to a
//   page) sets its status change time (ctime) to the kernel's current time, and user space
//   cannot set a ctime: utimensat() sets the access and modification times it is given and
//   the ctime to now. Replacing the file by another (rename over it) gives another inode, or
//   a reused inode number with a new ctime.
// - The kernel stamps times from a clock that ticks in steps of up to a few ms, so a change
//   in the same step as the previous one could keep the ctime equal: a digest is remembered
//   only when the file's ctime is older than that clock when the hashing started, so any
//   later change carries a later ctime, and only when nothing in the key moved while it was
//   read.
// - A writer with the file mapped could go on changing a page it already dirtied without a
//   new ctime; such a writer could as well change the bytes between a fresh digest check and
//   their use, so remembering is no weaker than hashing again. Setting the clock back takes
//   CAP_SYS_TIME.
using Key = std::array<qint64, 7>;

Key keyOf(const struct stat &info)
{
    return { qint64(info.st_dev),         qint64(info.st_ino),          qint64(info.st_size),
             qint64(info.st_mtim.tv_sec), qint64(info.st_mtim.tv_nsec), qint64(info.st_ctim.tv_sec),
             qint64(info.st_ctim.tv_nsec) };
}

struct Remembered
{
    QMutex mutex;
    std::map<Key, QString> digests;
};

Remembered &remembered()
{
    static Remembered instance;
    return instance;
}

// Kernels, images and baselines: a handful per engine; a bound all the same.
constexpr size_t kMaxRemembered = 256;

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

QString FileDigest::rememberedSha256(int fd, qint64 *bytes)
{
    struct stat before
    {
    };
    if (::fstat(fd, &before) != 0 || !S_ISREG(before.st_mode))
        return sha256(fd, bytes);
    const Key key = keyOf(before);
    Remembered &cache = remembered();
    {
        QMutexLocker lock(&cache.mutex);
        const auto found = cache.digests.find(key);
        if (found != cache.digests.end() && ::lseek(fd, 0, SEEK_SET) == 0) {
            if (bytes)
                *bytes = qint64(before.st_size);
            return found->second;
        }
    }
    timespec started{};
    ::clock_gettime(CLOCK_REALTIME_COARSE, &started);
    qint64 total = 0;
    const QString digest = sha256(fd, &total);
    if (bytes)
        *bytes = total;
    struct stat after
    {
    };
    const bool older = before.st_ctim.tv_sec < started.tv_sec
        || (before.st_ctim.tv_sec == started.tv_sec && before.st_ctim.tv_nsec < started.tv_nsec);
    if (digest.isEmpty() || !older || total != qint64(before.st_size) || ::fstat(fd, &after) != 0
        || keyOf(after) != key)
        return digest;
    QMutexLocker lock(&cache.mutex);
    if (cache.digests.size() >= kMaxRemembered)
        cache.digests.clear();
    cache.digests[key] = digest;
    return digest;
}

QString FileDigest::rememberedSha256(const QString &path, qint64 *bytes)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    const QString digest = rememberedSha256(fd, bytes);
    ::close(fd);
    return digest;
}

} // namespace sandbox
