#pragma once

#include "GuestLayout.h"

#include <QList>
#include <QStringList>

#include <memory>

namespace sandbox {

// The share directories of one VM, held open from the moment the engine checks them until
// the VM is gone. QEMU is given each one as /proc/self/fd/N (inherited), so it shares the
// very directory the layout decided on, whatever happens to the path meanwhile: a directory
// renamed away, or swapped for a symlink to a denied one, between the layout and QEMU's start.
class OpenedShares
{
public:
    OpenedShares() = default;
    OpenedShares(const OpenedShares &) = delete;
    OpenedShares &operator=(const OpenedShares &) = delete;
    ~OpenedShares();

    // Opens each share of `layout` (Linux). A share whose path is gone, is no directory, or
    // no longer is the directory the layout looked at (its device and inode) is dropped
    // from `layout`, its host path appended to `dropped`: a VM sees less, never more. Null
    // where descriptors cannot be passed (other systems): the layout is left as it is.
    static std::shared_ptr<const OpenedShares> open(GuestLayout &layout, QStringList *dropped);

    // One descriptor per share of the layout it was opened for, in its order.
    const QList<int> &descriptors() const { return m_descriptors; }
    // The host paths of the shares whose directories have been removed since they were
    // opened (no name is left to them): such a directory is empty and can never get an entry
    // again, so a VM sharing it shows nothing through it. A directory renamed away is not
    // removed: a VM sharing it still shows what it holds.
    QStringList removed() const;

private:
    QList<int> m_descriptors;
    QStringList m_paths;
};

} // namespace sandbox
