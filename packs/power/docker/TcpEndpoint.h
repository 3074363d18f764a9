#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>

namespace sandbox::power {

// A Docker-compatible engine on another host, reached over TCP as Docker's remote URLs name
// it: tcp://host:port. TLS with the engine's certificate checked is the rule; plain TCP is
// for loopback addresses only (DockerLauncher decides which from the TLS settings).
struct TcpEndpoint
{
    Q_DECLARE_TR_FUNCTIONS(TcpEndpoint)

public:
    QString host; // as written, without an IPv6 address's brackets
    int port = 0;

    static bool isTcp(const QString &endpoint) { return endpoint.startsWith(QLatin1String("tcp://")); }
    // tcp://host:port and nothing else: the port is needed, no user, path, query or fragment.
    static Result<TcpEndpoint> parse(const QString &endpoint);
    // localhost, 127.0.0.0/8 or ::1: the only hosts plain TCP may reach.
    bool isLoopback() const;
    // tcp://host:port, for messages.
    QString text() const;
};

} // namespace sandbox::power
