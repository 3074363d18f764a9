#pragma once

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

class QLocalSocket;

namespace sandbox {

// The host end of one command's SSH agent in a VM (GuestProtocol.h's agent frames): each
// connection the guest's exec agent accepted for the command is connected to that command's
// filtering agent socket, and to nothing else. Bytes wait in bounded buffers: a guest that
// sends more than the window loses the connection. Lives in the VM I/O thread, a child of
// its VmMachine, as long as the command runs.
class GuestAgentRelay final : public QObject
{
    Q_OBJECT

public:
    // `send` writes a frame (type, payload) for the command to the guest.
    using Send = std::function<void(quint8 type, const QByteArray &payload)>;

    GuestAgentRelay(QString agentSocket, Send send, QObject *parent = nullptr);
    ~GuestAgentRelay() override;

    // An agent frame from the guest for this command; false when it is malformed.
    bool handle(quint8 type, const QByteArray &payload);
    int connectionCount() const { return int(m_connections.size()); }

private:
    struct Connection
    {
        QLocalSocket *agent = nullptr;
        QByteArray pending; // from the guest, waiting for the agent connection
        quint32 inFlight = 0; // sent to the guest, not yet credited
        bool guestEof = false;
        bool shutDown = false;
    };

    void openConnection(quint32 id);
    void writeAgent(quint32 id);
    void readAgent(quint32 id);
    void closeConnection(quint32 id, bool tellGuest);
    void sendFor(quint8 type, quint32 id, const QByteArray &data = {});

    QString m_agentSocket;
    Send m_send;
    QHash<quint32, Connection> m_connections;
};

} // namespace sandbox
