#pragma once

#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace sandbox {

// The requests the engine sends the guest's exec agent, as NUL-separated fields.
struct GuestRequest
{
    // A command to run: its directory, argv and environment; with `proxied` the proxy
    // variables point at the guest's network forwarder, set after the request's own, as are
    // `engineEnvironment`'s (credential placeholders, the certificate bundle's variables).
    static QByteArray spawnPayload(const SpawnRequest &request, bool proxied,
                                   const QMap<QString, QString> &engineEnvironment = {});
    // The handshake a restored guest must complete before it is ready: its clock set to the
    // host's (it stood still since the baseline was saved) and fresh host randomness mixed into
    // its pool (every VM restored from one baseline starts from the same pool otherwise).
    static QByteArray handshakePayload();
    // 64 bytes of the host's randomness for a restored guest's pool.
    static QByteArray freshSeed();
    // Whether the command, its environment or its directories hold a NUL (which the
    // payload cannot carry), or an environment name holds '='.
    static bool hasNul(const SpawnRequest &request);
};

} // namespace sandbox
