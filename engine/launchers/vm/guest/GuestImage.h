#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandbox {

// The guest the engine boots: a Debian kernel from /boot and an initramfs the engine
// assembles (newc cpio): busybox (static) as the guest's own userland under /.sandbox/bin,
// the kernel modules the guest needs (with their dependencies, in load order) from
// /lib/modules/<version>, and the verified guest helpers, the exec agent as /init.
// Each VM's layout file is appended as a second cpio archive (the kernel unpacks both).
class GuestImage final
{
public:
    struct Inputs
    {
        QString kernel; // empty: discovered
        QString busybox; // empty: discovered
        QMap<QString, QByteArray> helpers; // helper name -> its verified content
    };

    // The newest /boot/vmlinuz-* whose modules include 9p, virtio-mmio and virtio-console.
    static Result<QString> discoverKernel();
    static QString kernelVersion(const QString &kernel);
    // A static busybox (busybox-static), or an error that says how to get one.
    static Result<QString> discoverBusybox();
    // The modules (absolute paths under /lib/modules/<version>) in load order.
    static Result<QStringList> modulesFor(const QString &version, const QStringList &wanted);

    // Writes the base initramfs to `output` (atomically, see write()). Returns its kernel.
    static Result<QString> build(const Inputs &inputs, const QString &output);
    // Writes `image` to `output` owner-only and atomically, unless the file holds exactly
    // these bytes already: then it is left as it is (same inode and times, so a digest
    // remembered for it stays valid).
    static Status write(const QString &output, const QByteArray &image);
    // A cpio archive holding one file (for a VM's layout).
    static QByteArray singleFileArchive(const QString &path, const QByteArray &content);

    static const QStringList &guestModules();
};

} // namespace sandbox
