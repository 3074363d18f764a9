#pragma once

#include "DomainRules.h"

#include <QLocalServer>

#include <memory>

namespace sandbox {

class ChannelCredentials;
class UpstreamProxy;

// One proxy channel's socket: each accepted connection becomes a ProxyConnection over its
// raw descriptor (not a QLocalSocket), so half-closed connections stay open (ClientStream).
// Deleting the listener ends its connections (they are its children).
class ProxyListener final : public QLocalServer
{
    Q_OBJECT

public:
    // `refused` (may be empty) is told of every connection the rules refuse.
    ProxyListener(const DomainRules &rules, ProxyRefusalListener refused,
                  std::shared_ptr<const ChannelCredentials> credentials = {},
                  std::shared_ptr<const UpstreamProxy> upstream = {}, QObject *parent = nullptr);

protected:
    void incomingConnection(quintptr socketDescriptor) override;

private:
    DomainRules m_rules;
    ProxyRefusalListener m_refused;
    std::shared_ptr<const ChannelCredentials> m_credentials;
    std::shared_ptr<const UpstreamProxy> m_upstream;
};

} // namespace sandbox
