#pragma once

#include "ProxyChannel.h"

#include <memory>

namespace sandbox {

class FilteringProxy;

// A private channel of the engine's FilteringProxy handed to a launcher; closing it
// (the last reference going) ends its connections and removes its socket and directory.
class HostProxyChannel final : public ProxyChannel
{
public:
    HostProxyChannel(std::shared_ptr<FilteringProxy> proxy, QString socketPath);
    ~HostProxyChannel() override;
    HostProxyChannel(const HostProxyChannel &) = delete;
    HostProxyChannel &operator=(const HostProxyChannel &) = delete;

    QString directory() const override;
    QString socketName() const override;

private:
    std::shared_ptr<FilteringProxy> m_proxy;
    QString m_socketPath;
};

} // namespace sandbox
