#include "FileDigest.h"

#include <QCryptographicHash>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#ifdef Q_OS_LINUX
#include <linux/if_alg.h>
#include <sys/socket.h>
#endif

namespace sandbox {

namespace {

#ifdef Q_OS_LINUX
// The kernel hashes what is sent to it; empty when AF_ALG is not there (or the file is empty).
QString kernelSha256(int fd, qint64 *bytes)
{
    const int family = ::socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (family < 0)
        return {};
    sockaddr_alg address{};
    address.salg_family = AF_ALG;
    std::strcpy(reinterpret_cast<char *>(address.salg_type), "hash");
    std::strcpy(reinterpret_cast<char *>(address.salg_name), "sha256");
    if (::bind(family, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(family);
        return {};
    }
    const int operation = ::accept4(family, nullptr, nullptr, SOCK_CLOEXEC);
    ::close(family);
    if (operation < 0)
        return {};
    // Every piece with MSG_MORE; the read below finalises the hash.
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    bool ok = ::lseek(fd, 0, SEEK_SET) == 0;
    while (ok) {
        const ssize_t got = ::read(fd, buffer.data(), size_t(buffer.size()));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            ok = got == 0;
            break;
        }
        for (ssize_t at = 0; ok && at < got;) {
            const ssize_t sent = ::send(operation, buffer.constData() + at, size_t(got - at), MSG_MORE);
            if (sent < 0 && errno == EINTR)
                continue;
            ok = sent > 0;
            at += qMax<ssize_t>(sent, 0);
        }
        total += got;
    }
    ok = ok && total > 0;
    unsigned char digest[32];
    ok = ok && ::read(operation, digest, sizeof digest) == ssize_t(sizeof digest);
    ::close(operation);
    if (!ok)
        return {};
    if (bytes)
        *bytes = total;
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(digest), sizeof digest).toHex());
}
#endif

} // namespace

QString FileDigest::sha256(int fd, qint64 *bytes)
{
    QString digest;
#ifdef Q_OS_LINUX
    digest = kernelSha256(fd, bytes);
#endif
    if (digest.isEmpty()) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        QByteArray buffer(1 << 20, Qt::Uninitialized);
        qint64 total = 0;
        if (::lseek(fd, 0, SEEK_SET) != 0)
            return {};
        for (;;) {
            const ssize_t got = ::read(fd, buffer.data(), size_t(buffer.size()));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                return {};
            if (got == 0)
                break;
            hash.addData(QByteArrayView(buffer.constData(), got));
            total += got;
        }
        if (bytes)
            *bytes = total;
        digest = QString::fromLatin1(hash.result().toHex());
    }
    if (::lseek(fd, 0, SEEK_SET) != 0)
        return {};
    return digest;
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
