#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>

namespace sandbox::power {

// A Docker-compatible engine on another host, reached over SSH as Podman's and Docker's
// remote URLs name it: ssh://user@host[:port][/socket/path]. Without a path the remote
// socket is Docker's, /var/run/docker.sock.
struct SshEndpoint
{
    Q_DECLARE_TR_FUNCTIONS(SshEndpoint)

public:
    static constexpr const char *defaultSocket = "/var/run/docker.sock";

    QString user;
    QString host;
    int port = 22;
    QString socketPath;

    static bool isSsh(const QString &endpoint) { return endpoint.startsWith(QLatin1String("ssh://")); }
    // Refuses what ssh could read as an option, and anything but the parts above.
    static Result<SshEndpoint> parse(const QString &endpoint);
    // ssh://user@host:port/socket/path, for messages.
    QString text() const;
};

} // namespace sandbox::power
