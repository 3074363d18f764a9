#include "HostProxyChannel.h"

#include "net/FilteringProxy.h"

#include <QFileInfo>

namespace sandbox {

HostProxyChannel::HostProxyChannel(std::shared_ptr<FilteringProxy> proxy, QString socketPath)
    : m_proxy(std::move(proxy))
    , m_socketPath(std::move(socketPath))
{ }

HostProxyChannel::~HostProxyChannel()
{
    m_proxy->closeChannel(m_socketPath);
}

QString HostProxyChannel::directory() const
{
    return QFileInfo(m_socketPath).absolutePath();
}

QString HostProxyChannel::socketName() const
{
    return QFileInfo(m_socketPath).fileName();
}

} // namespace sandbox
