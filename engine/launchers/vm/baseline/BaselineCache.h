#pragma once

#include "BaselineLease.h"
#include "BaselineManifest.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <memory>

namespace sandbox {

// The VM baselines under <vm state>/baselines: one owner-only directory (0700) per machine
// identity (BaselineManifest::key()), holding the artifact "state", "manifest.json" and
// "last-used" (0600 each) and, while in use, a "lease". Restore is only a latency
// optimisation: lookUp() returns a candidate only when it is leased to this process and its
// manifest, epoch, identity and artifact digest all hold; anything else is invalidated
// (removed, unless another live process leases it) and the caller cold boots.
class BaselineCache final
{
    Q_DECLARE_TR_FUNCTIONS(BaselineCache)

public:
    enum class Verdict { Usable, Missing, Leased, InvalidManifest, EpochMismatch, DigestMismatch };

    struct Candidate
    {
        Verdict verdict = Verdict::Missing;
        QString reason; // for the activation's events
        QString directory;
        std::shared_ptr<BaselineLease> lease; // held while a VM restored from it runs (shared by
                                              // every VM of this engine restored from it)
        int artifactFd = -1; // open, at offset 0, the bytes that were digest-checked
        BaselineManifest manifest;
        Candidate() = default;
        Candidate(Candidate &&other) noexcept;
        Candidate &operator=(Candidate &&other) noexcept;
        ~Candidate();
    };

    explicit BaselineCache(QString root);

    QString root() const { return m_root; }
    QString directoryFor(const BaselineManifest &expected) const;

    // The decision: the baseline for `expected`'s identity, checked. An invalid one is removed.
    // `held`: this engine's live lease on that directory (its VMs restored from it), shared
    // instead of taken again.
    Candidate lookUp(const BaselineManifest &expected, std::shared_ptr<BaselineLease> held = {});
    // Removes a candidate that failed on restore (the driver could not use it).
    void invalidate(Candidate &candidate);

    // Writes a new baseline for `expected` (its artifact fields filled in here): `write` gets an
    // open, empty, owner-only file; the manifest is written once the artifact's digest is
    // known. Refused while another live process leases the directory.
    Status store(BaselineManifest expected, const std::function<Status(int fd)> &write);

    // Marks a baseline used now (LRU order).
    static void touch(const QString &directory);
    // Removes least recently used baselines no live process leases until at most
    // `maxInactive` inactive ones remain and all of them together take at most `maxBytes`.
    // Returns the directories removed.
    QStringList evict(int maxInactive, qint64 maxBytes);

    static QString verdictName(Verdict verdict);

private:
    Status ensureRoot() const;
    static void removeDirectory(const QString &directory);

    QString m_root;
};

} // namespace sandbox
