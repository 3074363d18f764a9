#include "ProxyListener.h"

#include "ProxyConnection.h"

namespace sandbox {

ProxyListener::ProxyListener(const DomainRules &rules, ProxyRefusalListener refused,
                             std::shared_ptr<const ChannelCredentials> credentials,
                             std::shared_ptr<const UpstreamProxy> upstream, QObject *parent)
    : QLocalServer(parent)
    , m_rules(rules)
    , m_refused(std::move(refused))
    , m_credentials(std::move(credentials))
    , m_upstream(std::move(upstream))
{ }

void ProxyListener::incomingConnection(quintptr socketDescriptor)
{
    new ProxyConnection(int(socketDescriptor), m_rules, m_refused, m_credentials, m_upstream, this);
}

} // namespace sandbox
