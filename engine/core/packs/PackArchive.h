#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>

namespace sandbox {

// A pack distributed as a .tar.gz of its folder. Only directories and regular files are
// accepted (no links, devices or paths that leave the archive), within size bounds.
class PackArchive final
{
    Q_DECLARE_TR_FUNCTIONS(PackArchive)

public:
    static constexpr int maxEntries = 1000;
    static constexpr qint64 maxUnpackedBytes = 512LL * 1024 * 1024;

    explicit PackArchive(QString path);

    static bool looksLikeArchive(const QString &path);
    // Unpacks into `destination` (an empty directory) and returns the folder in it that
    // holds pack.json: the destination itself or its one top-level folder.
    Result<QString> unpack(const QString &destination) const;

private:
    Result<QString> runTar(const QStringList &arguments) const;
    Status check() const;

    QString m_path;
};

} // namespace sandbox
