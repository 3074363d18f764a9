#include "GuestProxyLink.h"

#include "ForwarderProtocol.h"
#include "launchers/vm/image/LittleEndian.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocalSocket>

#include <sys/socket.h>

namespace sandbox {

namespace {

using namespace forwarder;

} // namespace

GuestProxyLink::GuestProxyLink(std::shared_ptr<ProxyChannel> channel, QObject *parent)
    : QObject(parent)
    , m_channel(std::move(channel))
{
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    m_server.setMaxPendingConnections(1);
    connect(&m_server, &QLocalServer::newConnection, this, &GuestProxyLink::acceptLink);
}

GuestProxyLink::~GuestProxyLink()
{
    endLink();
}

Status GuestProxyLink::listen(const QString &socketPath)
{
    if (!m_server.listen(socketPath))
        return Error{ QStringLiteral("builtin:vm.network"),
                      QCoreApplication::translate("sandbox::GuestProxyLink",
                                                  "cannot listen on %1 for the guest's network forwarder: %2")
                          .arg(socketPath, m_server.errorString()),
                      {} };
    return Status::success();
}

void GuestProxyLink::acceptLink()
{
    while (QLocalSocket *socket = m_server.nextPendingConnection()) {
        if (m_link) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        // Only the hypervisor's port connects: nobody else gets a second link.
        m_link = socket;
        m_server.close();
        // Read as frames are handled: what waits unread stays in the guest's port.
        m_link->setReadBufferSize(4 * kMaxFrame);
        connect(m_link, &QLocalSocket::readyRead, this, &GuestProxyLink::readLink);
        connect(m_link, &QLocalSocket::disconnected, this, &GuestProxyLink::endLink);
        readLink();
    }
}

void GuestProxyLink::send(quint8 type, quint32 id, const QByteArray &payload)
{
    if (!m_link)
        return;
    QByteArray frame = littleEndianU32(quint32(payload.size() + 5));
    frame += char(type);
    frame += littleEndianU32(id);
    frame += payload;
    m_link->write(frame);
}

void GuestProxyLink::readLink()
{
    if (!m_link)
        return;
    m_input += m_link->readAll();
    qsizetype at = 0;
    while (m_input.size() - at >= 4) {
        const quint32 length = readLittleEndianU32(m_input.constData() + at);
        if (length < 5 || length > kMaxFrame) {
            endLink();
            return;
        }
        if (quint32(m_input.size() - at) < 4 + length)
            break;
        const quint8 type = quint8(m_input.at(at + 4));
        const quint32 id = readLittleEndianU32(m_input.constData() + at + 5);
        const QByteArray payload = m_input.mid(at + 9, qsizetype(length) - 5);
        at += 4 + qsizetype(length);
        if (!handleFrame(type, id, payload)) {
            endLink();
            return;
        }
    }
    m_input.remove(0, at);
}

bool GuestProxyLink::handleFrame(quint8 type, quint32 id, const QByteArray &payload)
{
    if (type == Open) {
        if (id == 0 || m_streams.contains(id) || !payload.isEmpty())
            return false;
        if (m_streams.size() >= qsizetype(kMaxStreams)) {
            send(Close, id);
            return true;
        }
        openStream(id);
        return true;
    }
    const auto it = m_streams.find(id);
    if (it == m_streams.end()) {
        // Stream 0 is the forwarder's greeting; others are streams this end already closed.
        return type == Data || type == Eof || type == Close || type == Credit;
    }
    Stream &stream = it.value();
    switch (type) {
    case Data:
        if (stream.guestEof || stream.pending.size() + stream.proxy->bytesToWrite() + payload.size() > kWindow) {
            closeStream(id, true); // beyond its window: the guest end misbehaves
            return true;
        }
        stream.pending += payload;
        writeProxy(id);
        return true;
    case Eof:
        stream.guestEof = true;
        writeProxy(id);
        return true;
    case Close:
        closeStream(id, false);
        return true;
    case Credit:
        if (payload.size() != 4)
            return false;
        stream.inFlight -= qMin(stream.inFlight, readLittleEndianU32(payload.constData()));
        readProxy(id);
        return true;
    default:
        return false;
    }
}

void GuestProxyLink::openStream(quint32 id)
{
    auto *proxy = new QLocalSocket(this);
    proxy->setReadBufferSize(kWindow);
    Stream stream;
    stream.proxy = proxy;
    m_streams.insert(id, stream);
    connect(proxy, &QLocalSocket::connected, this, [this, id] { writeProxy(id); });
    connect(proxy, &QLocalSocket::readyRead, this, [this, id] { readProxy(id); });
    connect(proxy, &QLocalSocket::bytesWritten, this, [this, id](qint64 written) {
        send(Credit, id, littleEndianU32(quint32(written)));
        writeProxy(id);
    });
    connect(proxy, &QLocalSocket::disconnected, this, [this, id] { readProxy(id); });
    connect(proxy, &QLocalSocket::errorOccurred, this, [this, id](QLocalSocket::LocalSocketError error) {
        if (error != QLocalSocket::PeerClosedError)
            closeStream(id, true);
    });
    // The proxy channel's socket, and nothing else, is where a guest connection goes.
    proxy->connectToServer(QDir(m_channel->directory()).filePath(m_channel->socketName()));
}

void GuestProxyLink::writeProxy(quint32 id)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return;
    Stream &stream = it.value();
    if (stream.proxy->state() != QLocalSocket::ConnectedState)
        return;
    if (!stream.pending.isEmpty()) {
        stream.proxy->write(stream.pending);
        stream.pending.clear();
    }
    if (stream.guestEof && !stream.shutDown && stream.proxy->bytesToWrite() == 0) {
        // The guest's client half-closed: so does the connection to the proxy.
        ::shutdown(int(stream.proxy->socketDescriptor()), SHUT_WR);
        stream.shutDown = true;
    }
}

void GuestProxyLink::readProxy(quint32 id)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return;
    Stream &stream = it.value();
    while (stream.inFlight < kWindow && stream.proxy->bytesAvailable() > 0) {
        const QByteArray chunk = stream.proxy->read(qMin<qint64>(kMaxPayload, kWindow - stream.inFlight));
        if (chunk.isEmpty())
            break;
        send(Data, id, chunk);
        stream.inFlight += quint32(chunk.size());
    }
    if (stream.proxy->state() == QLocalSocket::UnconnectedState && stream.proxy->bytesAvailable() == 0)
        closeStream(id, true);
}

void GuestProxyLink::closeStream(quint32 id, bool tellGuest)
{
    const auto it = m_streams.find(id);
    if (it == m_streams.end())
        return;
    QLocalSocket *proxy = it->proxy;
    m_streams.erase(it);
    proxy->disconnect(this);
    proxy->abort();
    proxy->deleteLater();
    if (tellGuest)
        send(Close, id);
}

void GuestProxyLink::endLink()
{
    const QList<quint32> ids = m_streams.keys();
    for (quint32 id : ids)
        closeStream(id, false);
    m_server.close();
    if (m_link) {
        QLocalSocket *link = std::exchange(m_link, nullptr);
        link->disconnect(this);
        link->abort();
        link->deleteLater();
    }
    m_input.clear();
}

} // namespace sandbox
