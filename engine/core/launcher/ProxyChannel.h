#pragma once

#include <QString>

namespace sandbox {

// A channel of the engine's allowed-domains filtering proxy, opened for a launcher
// (LauncherHost::openProxyChannel): a unix socket serving one policy's domain rules, the
// only entry of an owner-only directory of its own, so the directory can be handed to a
// sandbox whole. The socket and its directory go when the last reference does.
class ProxyChannel
{
public:
    virtual ~ProxyChannel() = default;

    // The directory holding the socket and nothing else.
    virtual QString directory() const = 0;
    // The socket's file name inside directory().
    virtual QString socketName() const = 0;
};

} // namespace sandbox
