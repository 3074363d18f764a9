#pragma once

#include "protocol/Error.h"

#include <QObject>
#include <QString>

class QTcpServer;

namespace sandbox {

// A port on 127.0.0.1 that relays every connection to a unix socket (a filtering proxy
// channel): how a sandbox without a network namespace of its own (macOS) reaches the
// engine's proxy through the one loopback port its profile allows. Deleting the bridge
// ends its connections.
class LoopbackBridge final : public QObject
{
    Q_OBJECT

public:
    explicit LoopbackBridge(QString socketPath, QObject *parent = nullptr);
    ~LoopbackBridge() override;

    // Listens on an unused port of 127.0.0.1; the port, or why not.
    Result<quint16> listen();
    // Connections being relayed now.
    int connectionCount() const;

private:
    void accept();

    QString m_socketPath;
    QTcpServer *m_server = nullptr;
};

} // namespace sandbox
