#pragma once

#include "client/Transport.h"

#include <memory>
#include <utility>

namespace sandbox {

// Two Transports connected in memory: what one sends, the other receives, through the
// same framing and JSON serialization as a socket. Delivery is queued (never re-entrant),
// so the two ends may live in different threads.
class InProcessTransport final : public Transport
{
    Q_OBJECT

public:
    struct Link;

    static std::pair<std::unique_ptr<InProcessTransport>, std::unique_ptr<InProcessTransport>> createPair();
    ~InProcessTransport() override;

    void close() override;
    bool isOpen() const override;
    QString peerDescription() const override;

protected:
    void writeFrame(const QByteArray &frame) override;

private:
    InProcessTransport(std::shared_ptr<Link> link, int side);
    void detach();

    std::shared_ptr<Link> m_link;
    int m_side;
    bool m_closed = false;
};

} // namespace sandbox
