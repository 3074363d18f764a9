#include "client/PeerCredentials.h"

#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

namespace sandbox {

std::optional<PeerCredentials> PeerCredentials::of(qintptr socketDescriptor)
{
    if (socketDescriptor < 0)
        return std::nullopt;
#if defined(Q_OS_LINUX)
    struct ucred cred
    {
    };
    socklen_t length = sizeof cred;
    if (::getsockopt(int(socketDescriptor), SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 || length != sizeof cred)
        return std::nullopt;
    return PeerCredentials{ quint32(cred.uid), qint64(cred.pid) };
#else
    uid_t uid = 0;
    gid_t gid = 0;
    if (::getpeereid(int(socketDescriptor), &uid, &gid) != 0)
        return std::nullopt;
    return PeerCredentials{ quint32(uid), 0 };
#endif
}

QString PeerCredentials::toString() const
{
    return QStringLiteral("uid %1 pid %2").arg(uid).arg(pid);
}

} // namespace sandbox
