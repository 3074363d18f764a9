#pragma once

#include "core/launcher/ProxyChannel.h"

#include <memory>

namespace sandbox {

class FilteringProxy;

// A private channel of a backend's own FilteringProxy (BackendHost) handed to its launcher;
// closing it (the last reference going) ends its connections, removes its socket and directory.
class BackendProxyChannel final : public ProxyChannel
{
public:
    BackendProxyChannel(std::shared_ptr<FilteringProxy> proxy, QString socketPath);
    ~BackendProxyChannel() override;
    BackendProxyChannel(const BackendProxyChannel &) = delete;
    BackendProxyChannel &operator=(const BackendProxyChannel &) = delete;

    QString directory() const override;
    QString socketName() const override;

private:
    std::shared_ptr<FilteringProxy> m_proxy;
    QString m_socketPath;
};

} // namespace sandbox
