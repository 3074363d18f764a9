#include "GuestAgentRelay.h"

#include "GuestProtocol.h"
#include "launchers/vm/image/LittleEndian.h"

#include <QLocalSocket>

#include <sys/socket.h>

namespace sandbox {

GuestAgentRelay::GuestAgentRelay(QString agentSocket, Send send, QObject *parent)
    : QObject(parent)
    , m_agentSocket(std::move(agentSocket))
    , m_send(std::move(send))
{ }

GuestAgentRelay::~GuestAgentRelay()
{
    const QList<quint32> ids = m_connections.keys();
    for (const quint32 id : ids)
        closeConnection(id, false);
}

void GuestAgentRelay::sendFor(quint8 type, quint32 id, const QByteArray &data)
{
    m_send(type, littleEndianU32(id) + data);
}

bool GuestAgentRelay::handle(quint8 type, const QByteArray &payload)
{
    if (payload.size() < 4)
        return false;
    const quint32 id = readLittleEndianU32(payload.constData());
    const QByteArray data = payload.mid(4);
    if (type == guest::AgentOpen) {
        if (id == 0 || m_connections.contains(id) || !data.isEmpty())
            return false;
        if (m_connections.size() >= qsizetype(guest::kAgentMaxConnections)) {
            sendFor(guest::AgentClose, id);
            return true;
        }
        openConnection(id);
        return true;
    }
    const auto it = m_connections.find(id);
    if (it == m_connections.end())
        // A connection this end closed already.
        return type == guest::AgentData || type == guest::AgentEof || type == guest::AgentClose
            || type == guest::AgentCredit;
    Connection &connection = it.value();
    switch (type) {
    case guest::AgentData:
        if (quint32(data.size()) > guest::kAgentMaxPayload)
            return false;
        if (connection.guestEof
            || connection.pending.size() + connection.agent->bytesToWrite() + data.size() > guest::kAgentWindow) {
            closeConnection(id, true); // beyond its window: the guest end misbehaves
            return true;
        }
        connection.pending += data;
        writeAgent(id);
        return true;
    case guest::AgentEof:
        connection.guestEof = true;
        writeAgent(id);
        return true;
    case guest::AgentClose:
        closeConnection(id, false);
        return true;
    case guest::AgentCredit:
        if (data.size() != 4)
            return false;
        connection.inFlight -= qMin(connection.inFlight, readLittleEndianU32(data.constData()));
        readAgent(id);
        return true;
    default:
        return false;
    }
}

void GuestAgentRelay::openConnection(quint32 id)
{
    auto *agent = new QLocalSocket(this);
    agent->setReadBufferSize(guest::kAgentWindow);
    Connection connection;
    connection.agent = agent;
    m_connections.insert(id, connection);
    connect(agent, &QLocalSocket::connected, this, [this, id] { writeAgent(id); });
    connect(agent, &QLocalSocket::readyRead, this, [this, id] { readAgent(id); });
    connect(agent, &QLocalSocket::bytesWritten, this, [this, id](qint64 written) {
        sendFor(guest::AgentCredit, id, littleEndianU32(quint32(written)));
        writeAgent(id);
    });
    connect(agent, &QLocalSocket::disconnected, this, [this, id] { readAgent(id); });
    connect(agent, &QLocalSocket::errorOccurred, this, [this, id](QLocalSocket::LocalSocketError error) {
        if (error != QLocalSocket::PeerClosedError)
            closeConnection(id, true);
    });
    // The command's own filtering agent, and nothing else, is where a guest connection goes.
    agent->connectToServer(m_agentSocket);
}

void GuestAgentRelay::writeAgent(quint32 id)
{
    const auto it = m_connections.find(id);
    if (it == m_connections.end())
        return;
    Connection &connection = it.value();
    if (connection.agent->state() != QLocalSocket::ConnectedState)
        return;
    if (!connection.pending.isEmpty()) {
        connection.agent->write(connection.pending);
        connection.pending.clear();
    }
    if (connection.guestEof && !connection.shutDown && connection.agent->bytesToWrite() == 0) {
        // The guest's client half-closed: so does the connection to the agent.
        ::shutdown(int(connection.agent->socketDescriptor()), SHUT_WR);
        connection.shutDown = true;
    }
}

void GuestAgentRelay::readAgent(quint32 id)
{
    const auto it = m_connections.find(id);
    if (it == m_connections.end())
        return;
    Connection &connection = it.value();
    while (connection.inFlight < guest::kAgentWindow && connection.agent->bytesAvailable() > 0) {
        const QByteArray chunk
            = connection.agent->read(qMin<qint64>(guest::kAgentMaxPayload, guest::kAgentWindow - connection.inFlight));
        if (chunk.isEmpty())
            break;
        sendFor(guest::AgentData, id, chunk);
        connection.inFlight += quint32(chunk.size());
    }
    if (connection.agent->state() == QLocalSocket::UnconnectedState && connection.agent->bytesAvailable() == 0)
        closeConnection(id, true);
}

void GuestAgentRelay::closeConnection(quint32 id, bool tellGuest)
{
    const auto it = m_connections.find(id);
    if (it == m_connections.end())
        return;
    QLocalSocket *agent = it->agent;
    m_connections.erase(it);
    agent->disconnect(this);
    agent->abort();
    agent->deleteLater();
    if (tellGuest)
        sendFor(guest::AgentClose, id);
}

} // namespace sandbox
