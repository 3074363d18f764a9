#include "BaselineCache.h"

#include "FileDigest.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {

const QString kArtifact = QStringLiteral("state");
const QString kManifest = QStringLiteral("manifest.json");
const QString kLastUsed = QStringLiteral("last-used");
constexpr qint64 kMaxManifestBytes = 1 << 20;

Status mkdirOwnerOnly(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    if (::mkdir(native.constData(), 0700) != 0 && errno != EEXIST)
        return Error{ QStringLiteral("builtin:vm.baseline"),
                      QCoreApplication::translate("sandbox::BaselineCache", "cannot create %1: %2")
                          .arg(path, QString::fromLocal8Bit(std::strerror(errno))),
                      {} };
    struct stat info
    {
    };
    if (::lstat(native.constData(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid())
        return Error{
            QStringLiteral("builtin:vm.baseline"),
            QCoreApplication::translate("sandbox::BaselineCache", "%1 is not a directory of this user").arg(path),
            {}
        };
    ::chmod(native.constData(), 0700);
    return Status::success();
}

bool writeOwnerOnly(const QString &path, const QByteArray &content)
{
    const QString partial = path + QStringLiteral(".partial");
    QFile::remove(partial);
    const QByteArray native = QFile::encodeName(partial);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return false;
    const bool written = ::write(fd, content.constData(), size_t(content.size())) == content.size() && ::fsync(fd) == 0;
    ::close(fd);
    if (!written || ::rename(native.constData(), QFile::encodeName(path).constData()) != 0) {
        QFile::remove(partial);
        return false;
    }
    return true;
}

qint64 directoryBytes(const QString &directory)
{
    qint64 total = 0;
    for (const QFileInfo &entry : QDir(directory).entryInfoList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot))
        total += entry.size();
    return total;
}

qint64 lastUsed(const QString &directory)
{
    QFile file(directory + QLatin1Char('/') + kLastUsed);
    if (file.open(QIODevice::ReadOnly)) {
        bool ok = false;
        const qint64 value = file.read(32).trimmed().toLongLong(&ok);
        if (ok)
            return value;
    }
    return QFileInfo(directory).lastModified().toMSecsSinceEpoch();
}

} // namespace

BaselineCache::Candidate::Candidate(Candidate &&other) noexcept
    : verdict(other.verdict)
    , reason(std::move(other.reason))
    , directory(std::move(other.directory))
    , lease(std::move(other.lease))
    , artifactFd(std::exchange(other.artifactFd, -1))
    , manifest(std::move(other.manifest))
{ }

BaselineCache::Candidate &BaselineCache::Candidate::operator=(Candidate &&other) noexcept
{
    if (this != &other) {
        if (artifactFd >= 0)
            ::close(artifactFd);
        verdict = other.verdict;
        reason = std::move(other.reason);
        directory = std::move(other.directory);
        lease = std::move(other.lease);
        artifactFd = std::exchange(other.artifactFd, -1);
        manifest = std::move(other.manifest);
    }
    return *this;
}

BaselineCache::Candidate::~Candidate()
{
    if (artifactFd >= 0)
        ::close(artifactFd);
}

BaselineCache::BaselineCache(QString root)
    : m_root(std::move(root))
{ }

QString BaselineCache::verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Usable:
        return tr("usable");
    case Verdict::Missing:
        return tr("no baseline yet");
    case Verdict::Leased:
        return tr("leased");
    case Verdict::InvalidManifest:
        return tr("invalid manifest");
    case Verdict::EpochMismatch:
        return tr("epoch mismatch");
    case Verdict::DigestMismatch:
        return tr("digest mismatch");
    }
    return {};
}

Status BaselineCache::ensureRoot() const
{
    const QString parent = QFileInfo(m_root).absolutePath();
    if (!QDir().mkpath(parent))
        return Error{ QStringLiteral("builtin:vm.baseline"), tr("cannot create %1").arg(parent), {} };
    return mkdirOwnerOnly(m_root);
}

QString BaselineCache::directoryFor(const BaselineManifest &expected) const
{
    return m_root + QLatin1Char('/') + expected.key();
}

void BaselineCache::removeDirectory(const QString &directory)
{
    QDir(directory).removeRecursively();
}

BaselineCache::Candidate BaselineCache::lookUp(const BaselineManifest &expected, std::shared_ptr<BaselineLease> held)
{
    Candidate candidate;
    candidate.directory = directoryFor(expected);
    const QString manifestPath = candidate.directory + QLatin1Char('/') + kManifest;
    if (!QFileInfo(candidate.directory).isDir()) {
        candidate.verdict = Verdict::Missing;
        candidate.reason = verdictName(Verdict::Missing);
        return candidate;
    }
    std::shared_ptr<BaselineLease> lease;
    if (held && held->directory() == candidate.directory) {
        lease = std::move(held);
    } else {
        BaselineLease::Attempt attempt = BaselineLease::acquire(candidate.directory);
        if (!attempt.lease) {
            candidate.verdict = Verdict::Leased;
            candidate.reason = attempt.problem;
            return candidate;
        }
        lease = std::move(attempt.lease);
    }
    auto invalid = [&](Verdict verdict, const QString &detail) {
        candidate.verdict = verdict;
        candidate.reason
            = verdictName(verdict) + (detail.isEmpty() ? QString() : QStringLiteral(" (") + detail + QLatin1Char(')'));
        if (candidate.artifactFd >= 0)
            ::close(std::exchange(candidate.artifactFd, -1));
        // Under our own lease, no other engine uses it: it goes, lease and all.
        removeDirectory(candidate.directory);
        lease.reset();
        return std::move(candidate);
    };
    QFile manifestFile(manifestPath);
    if (!manifestFile.open(QIODevice::ReadOnly) || manifestFile.size() > kMaxManifestBytes)
        return invalid(Verdict::InvalidManifest, tr("%1 cannot be read").arg(kManifest));
    const Result<BaselineManifest> stored = BaselineManifest::fromJson(manifestFile.readAll(), kManifest);
    if (!stored.ok())
        return invalid(Verdict::InvalidManifest, stored.error().toString());
    if (stored.value().epoch != expected.epoch)
        return invalid(
            Verdict::EpochMismatch,
            tr("made at epoch %1, this build restores epoch %2").arg(stored.value().epoch).arg(expected.epoch));
    if (stored.value().identity() != expected.identity())
        return invalid(Verdict::InvalidManifest, tr("made for another machine, toolchain or user"));
    const QByteArray artifactPath = QFile::encodeName(candidate.directory + QLatin1Char('/') + kArtifact);
    candidate.artifactFd = ::open(artifactPath.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (candidate.artifactFd < 0)
        return invalid(Verdict::DigestMismatch, tr("the artifact is missing"));
    qint64 bytes = 0;
    const QString digest = FileDigest::rememberedSha256(candidate.artifactFd, &bytes);
    if (digest != stored.value().artifactSha256 || bytes != stored.value().artifactBytes)
        return invalid(Verdict::DigestMismatch, tr("the artifact's sha256 is not the manifest's"));
    candidate.verdict = Verdict::Usable;
    candidate.reason = verdictName(Verdict::Usable);
    candidate.manifest = stored.value();
    candidate.lease = std::move(lease);
    touch(candidate.directory);
    return candidate;
}

void BaselineCache::invalidate(Candidate &candidate)
{
    if (candidate.artifactFd >= 0)
        ::close(std::exchange(candidate.artifactFd, -1));
    if (candidate.lease) {
        removeDirectory(candidate.directory);
        candidate.lease.reset();
    }
}

Status BaselineCache::store(BaselineManifest expected, const std::function<Status(int fd)> &write)
{
    if (const Status root = ensureRoot(); !root)
        return root;
    const QString directory = directoryFor(expected);
    if (const Status made = mkdirOwnerOnly(directory); !made)
        return made;
    BaselineLease::Attempt attempt = BaselineLease::acquire(directory);
    if (!attempt.lease)
        return Error{ QStringLiteral("builtin:vm.baseline"), attempt.problem, {} };
    // Whatever was there is replaced: the manifest goes first, so a half-written baseline
    // is never taken for a whole one.
    QFile::remove(directory + QLatin1Char('/') + kManifest);
    const QString artifact = directory + QLatin1Char('/') + kArtifact;
    const QString partial = artifact + QStringLiteral(".partial");
    QFile::remove(partial);
    const QByteArray native = QFile::encodeName(partial);
    const int fd = ::open(native.constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return Error{ QStringLiteral("builtin:vm.baseline"),
                      tr("cannot create %1: %2").arg(partial, QString::fromLocal8Bit(std::strerror(errno))),
                      {} };
    const Status written = write(fd);
    QString digest;
    if (written.ok() && ::fsync(fd) == 0)
        digest = FileDigest::sha256(fd, &expected.artifactBytes);
    ::close(fd);
    auto discard = [&](const Error &error) -> Status {
        removeDirectory(directory);
        attempt.lease.reset();
        return error;
    };
    if (!written.ok())
        return discard(written.error());
    if (digest.isEmpty() || expected.artifactBytes == 0)
        return discard(Error{
            QStringLiteral("builtin:vm.baseline"), tr("the saved state %1 is empty or unreadable").arg(partial), {} });
    expected.artifactSha256 = digest;
    if (::rename(native.constData(), QFile::encodeName(artifact).constData()) != 0
        || !writeOwnerOnly(directory + QLatin1Char('/') + kManifest, expected.toJson()))
        return discard(
            Error{ QStringLiteral("builtin:vm.baseline"), tr("cannot write the baseline in %1").arg(directory), {} });
    touch(directory);
    return Status::success();
}

void BaselineCache::touch(const QString &directory)
{
    writeOwnerOnly(directory + QLatin1Char('/') + kLastUsed,
                   QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + '\n');
}

QStringList BaselineCache::evict(int maxInactive, qint64 maxBytes)
{
    struct Entry
    {
        QString directory;
        qint64 bytes = 0;
        qint64 used = 0;
    };
    QList<Entry> inactive;
    qint64 total = 0;
    for (const QFileInfo &entry : QDir(m_root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks)) {
        const QString directory = entry.absoluteFilePath();
        const qint64 bytes = directoryBytes(directory);
        total += bytes;
        if (BaselineLease::liveHolder(directory) == 0)
            inactive.append({ directory, bytes, lastUsed(directory) });
    }
    // Most recently used first; the tail goes.
    std::sort(inactive.begin(), inactive.end(), [](const Entry &a, const Entry &b) { return a.used > b.used; });
    QStringList removed;
    while (!inactive.isEmpty() && (inactive.size() > qMax(0, maxInactive) || total > maxBytes)) {
        const Entry oldest = inactive.takeLast();
        BaselineLease::Attempt attempt = BaselineLease::acquire(oldest.directory);
        if (!attempt.lease)
            continue; // taken since: in use now
        removeDirectory(oldest.directory);
        attempt.lease.reset();
        total -= oldest.bytes;
        removed.append(oldest.directory);
    }
    return removed;
}

} // namespace sandbox
