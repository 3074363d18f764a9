#include "ProxyListener.h"

#include "ProxyConnection.h"

namespace sandbox {

ProxyListener::ProxyListener(const DomainRules &rules, QObject *parent)
    : QLocalServer(parent)
    , m_rules(rules)
{ }

void ProxyListener::incomingConnection(quintptr socketDescriptor)
{
    new ProxyConnection(int(socketDescriptor), m_rules, this);
}

} // namespace sandbox
