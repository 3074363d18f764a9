#include "core/backends/BackendProxyChannel.h"

#include "net/FilteringProxy.h"

#include <QFileInfo>

namespace sandbox {

BackendProxyChannel::BackendProxyChannel(std::shared_ptr<FilteringProxy> proxy, QString socketPath)
    : m_proxy(std::move(proxy))
    , m_socketPath(std::move(socketPath))
{ }

BackendProxyChannel::~BackendProxyChannel()
{
    m_proxy->closeChannel(m_socketPath);
}

QString BackendProxyChannel::directory() const
{
    return QFileInfo(m_socketPath).absolutePath();
}

QString BackendProxyChannel::socketName() const
{
    return QFileInfo(m_socketPath).fileName();
}

} // namespace sandbox
