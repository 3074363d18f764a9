#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandbox {

// What a VM baseline was made from and of (manifest.json beside the artifact): the driver
// and its version, the machine configuration (the hypervisor's arguments, the VM's own run
// directory written as "@run"), the kernel's, initramfs' and helpers' digests, the guest's
// size, the user, the epoch, and the artifact's digest and size. Nothing of any workload,
// setting value beyond these, secret or environment.
struct BaselineManifest
{
    // Bumped whenever what a baseline holds or how it is restored changes: every older
    // baseline is then invalid.
    static constexpr int kEpoch = 1;

    int epoch = kEpoch;
    QString driver;
    QString driverVersion;
    QStringList machine;
    QString kernelSha256;
    QString initramfsSha256;
    QMap<QString, QString> helperSha256;
    int memoryMb = 0;
    int cpus = 0;
    uint uid = 0;
    QString artifactSha256;
    qint64 artifactBytes = 0;

    // Everything but the epoch and the artifact: what must match for a baseline to be used.
    QJsonObject identity() const;
    // The cache directory's name: a digest of identity() (no secret is part of it).
    QString key() const;

    QByteArray toJson() const;
    // A manifest with every field present and of its type, or what is wrong and where.
    static Result<BaselineManifest> fromJson(const QByteArray &json, const QString &where);
};

} // namespace sandbox
