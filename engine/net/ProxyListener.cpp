#include "ProxyListener.h"

#include "ProxyConnection.h"

namespace sandbox {

ProxyListener::ProxyListener(const DomainRules &rules, ProxyRefusalListener refused, QObject *parent)
    : QLocalServer(parent)
    , m_rules(rules)
    , m_refused(std::move(refused))
{ }

void ProxyListener::incomingConnection(quintptr socketDescriptor)
{
    new ProxyConnection(int(socketDescriptor), m_rules, m_refused, this);
}

} // namespace sandbox
