#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

namespace sandbox {

// Who is at the other end of a connected local socket, as the kernel reports it
// (SO_PEERCRED on Linux, getpeereid elsewhere), not as the peer claims.
struct PeerCredentials
{
    quint32 uid = 0;
    qint64 pid = 0; // 0 where the platform does not say

    static std::optional<PeerCredentials> of(qintptr socketDescriptor);
    QString toString() const; // "uid 1000 pid 4242"
};

} // namespace sandbox
