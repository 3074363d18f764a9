#include "client/InProcessTransport.h"

#include <QMutex>
#include <QMutexLocker>

namespace sandbox {

// Both ends share the link; the mutex makes "is the peer still there" and "post to it"
// one step, so a message is never posted to an end being destroyed.
struct InProcessTransport::Link
{
    QMutex mutex;
    InProcessTransport *ends[2] = { nullptr, nullptr };
};

InProcessTransport::InProcessTransport(std::shared_ptr<Link> link, int side)
    : m_link(std::move(link))
    , m_side(side)
{ }

std::pair<std::unique_ptr<InProcessTransport>, std::unique_ptr<InProcessTransport>> InProcessTransport::createPair()
{
    auto link = std::make_shared<Link>();
    std::unique_ptr<InProcessTransport> a(new InProcessTransport(link, 0));
    std::unique_ptr<InProcessTransport> b(new InProcessTransport(link, 1));
    link->ends[0] = a.get();
    link->ends[1] = b.get();
    return { std::move(a), std::move(b) };
}

InProcessTransport::~InProcessTransport()
{
    detach();
}

void InProcessTransport::detach()
{
    QMutexLocker lock(&m_link->mutex);
    if (m_link->ends[m_side] != this)
        return;
    m_link->ends[m_side] = nullptr;
    if (InProcessTransport *peer = m_link->ends[1 - m_side]) {
        QMetaObject::invokeMethod(
            peer, [peer] { peer->notifyDisconnected(QString()); }, Qt::QueuedConnection);
    }
}

void InProcessTransport::close()
{
    if (m_closed)
        return;
    m_closed = true;
    detach();
    QMetaObject::invokeMethod(
        this, [this] { notifyDisconnected(QString()); }, Qt::QueuedConnection);
}

bool InProcessTransport::isOpen() const
{
    if (m_closed)
        return false;
    QMutexLocker lock(&m_link->mutex);
    return m_link->ends[1 - m_side] != nullptr;
}

QString InProcessTransport::peerDescription() const
{
    return QStringLiteral("in-process");
}

void InProcessTransport::writeFrame(const QByteArray &frame)
{
    QMutexLocker lock(&m_link->mutex);
    InProcessTransport *peer = m_link->ends[1 - m_side];
    if (!peer)
        return;
    QMetaObject::invokeMethod(
        peer, [peer, frame] { peer->receiveBytes(frame); }, Qt::QueuedConnection);
}

} // namespace sandbox
