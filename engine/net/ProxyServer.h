#pragma once

#include "DomainRules.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <memory>

class QLocalServer;

namespace sandbox {

class ChannelCredentials;
class UpstreamProxy;

// FilteringProxy's worker, living on the proxy thread: one QLocalServer per channel.
class ProxyServer final : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // Both are called on the proxy thread (FilteringProxy uses blocking queued calls).
    QString listen(const QString &path, const DomainRules &rules, const ProxyRefusalListener &refused = {},
                   const std::shared_ptr<const ChannelCredentials> &credentials = {},
                   const std::shared_ptr<const UpstreamProxy> &upstream = {});
    void close(const QString &path);
    int count() const { return static_cast<int>(m_servers.size()); }

private:
    QHash<QString, QLocalServer *> m_servers;
};

} // namespace sandbox
