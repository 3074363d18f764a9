#include "OpenedShares.h"

#include <QFile>

#include <algorithm>

#ifdef Q_OS_LINUX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace sandbox {

OpenedShares::~OpenedShares()
{
#ifdef Q_OS_LINUX
    for (const int descriptor : std::as_const(m_descriptors))
        ::close(descriptor);
#endif
}

std::shared_ptr<const OpenedShares> OpenedShares::open(GuestLayout &layout, QStringList *dropped)
{
#ifdef Q_OS_LINUX
    auto opened = std::make_shared<OpenedShares>();
    QStringList gone;
    QList<std::pair<GuestLayout::Share, int>> open;
    for (const GuestLayout::Share &share : std::as_const(layout.shares)) {
        // O_PATH: no read access is taken here, QEMU opens the directory itself through it.
        const int descriptor = ::open(QFile::encodeName(share.hostPath).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        const std::optional<GuestLayout::Share> held = descriptor >= 0
            ? GuestLayout::lookAt(share.hostPath, share.writable, GuestLayout::Follow::None, descriptor)
            : std::nullopt;
        const bool same = held
            && (share.inode == 0
                || (held->device == share.device && held->inode == share.inode && held->birth == share.birth));
        if (same) {
            open.append({ share, descriptor });
            continue;
        }
        if (descriptor >= 0)
            ::close(descriptor);
        gone.append(share.hostPath);
    }
    // What was shared on top of a dropped share goes with it (a read-only path inside it).
    const auto insideGone = [&](const QString &path) {
        return std::any_of(gone.cbegin(), gone.cend(),
                           [&](const QString &parent) { return Policy::isInside(path, parent); });
    };
    layout.shares.clear();
    for (const auto &[share, descriptor] : std::as_const(open)) {
        if (insideGone(share.hostPath)) {
            ::close(descriptor);
            gone.append(share.hostPath);
            continue;
        }
        layout.shares.append(share);
        opened->m_descriptors.append(descriptor);
        opened->m_paths.append(share.hostPath);
    }
    if (dropped)
        dropped->append(gone);
    return opened;
#else
    Q_UNUSED(layout)
    Q_UNUSED(dropped)
    return nullptr;
#endif
}

QStringList OpenedShares::removed() const
{
    QStringList gone;
#ifdef Q_OS_LINUX
    for (qsizetype i = 0; i < m_descriptors.size(); ++i) {
        struct stat status
        {
        };
        if (::fstat(m_descriptors.at(i), &status) == 0 && status.st_nlink == 0)
            gone.append(m_paths.at(i));
    }
#endif
    return gone;
}

} // namespace sandbox
