#pragma once

#include "protocol/Error.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

// Reads the regular files of a tar archive (ustar, GNU long names, pax paths) that came
// from an untrusted side. Nothing is written: links, devices and every other kind of
// member are left out, as is any path that is absolute or climbs with "..".
struct TarArchive
{
    struct Member
    {
        QString path; // relative, "/"-separated, never empty, never with "." or ".." parts
        QByteArray data;
        bool executable = false; // the owner's execute bit
    };
    // A symbolic link in the archive: never written, only compared with the host's.
    struct Link
    {
        QString path;
        QString target;
    };

    QList<Member> files;
    QList<Link> links;
    QStringList skipped; // member names left out, and why
    // The archive ended with its end-of-archive block: nothing was cut off after the last member.
    bool complete = false;

    // The members' data are views into `archive`: keep it (and its bytes) alive while they are used.
    static Result<TarArchive> read(const QByteArray &archive);
    // `path` as a clean relative path, or empty when it is absolute or climbs out.
    static QString cleanRelative(const QString &path);
};

} // namespace sandbox
