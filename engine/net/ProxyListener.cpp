#include "ProxyListener.h"

#include "ProxyConnection.h"

namespace sandbox {

ProxyListener::ProxyListener(const DomainRules &rules, ProxyRefusalListener refused,
                             std::shared_ptr<const ChannelCredentials> credentials, QObject *parent)
    : QLocalServer(parent)
    , m_rules(rules)
    , m_refused(std::move(refused))
    , m_credentials(std::move(credentials))
{ }

void ProxyListener::incomingConnection(quintptr socketDescriptor)
{
    new ProxyConnection(int(socketDescriptor), m_rules, m_refused, m_credentials, this);
}

} // namespace sandbox
