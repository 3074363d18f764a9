#pragma once

#include "protocol/Error.h"

#include <QString>

namespace sandbox {

// Decides, race-free, which process owns the engine for this user: an exclusive
// advisory lock (flock) on a file in the runtime directory. The kernel drops the lock
// when the owner exits, however it exits, so a crashed owner never blocks the next one.
class OwnerLock final
{
public:
    explicit OwnerLock(QString path);
    ~OwnerLock();
    OwnerLock(const OwnerLock &) = delete;
    OwnerLock &operator=(const OwnerLock &) = delete;

    // True when we now own the lock; false when another live process holds it.
    // An error when the lock file cannot be opened at all.
    Result<bool> tryAcquire();
    void release();
    bool isHeld() const { return m_fd >= 0 && m_held; }
    // The pid the current owner wrote into the lock file (0 when unknown).
    qint64 ownerPid() const;
    QString path() const { return m_path; }

private:
    QString m_path;
    int m_fd = -1;
    bool m_held = false;
};

} // namespace sandbox
