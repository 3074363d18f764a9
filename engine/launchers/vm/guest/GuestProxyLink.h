#pragma once

#include "core/launcher/ProxyChannel.h"
#include "protocol/Error.h"

#include <QByteArray>
#include <QHash>
#include <QLocalServer>
#include <QObject>

#include <memory>

class QLocalSocket;

namespace sandbox {

// The host end of a guest's network forwarder (network allowlist). The VM's sandbox.proxy
// port connects once, when the hypervisor starts, to the socket this listens on; each
// stream the guest opens there is connected to the engine's filtering proxy channel and to
// nothing else (ForwarderProtocol.h). Bytes wait in bounded buffers: a guest that sends
// more than the window loses the stream, a malformed frame ends the whole link, and when
// either end goes its streams close. Lives in the VM I/O thread, a child of its VmMachine.
class GuestProxyLink final : public QObject
{
    Q_OBJECT

public:
    GuestProxyLink(std::shared_ptr<ProxyChannel> channel, QObject *parent = nullptr);
    ~GuestProxyLink() override;

    Status listen(const QString &socketPath);
    int streamCount() const { return int(m_streams.size()); }

private:
    struct Stream
    {
        QLocalSocket *proxy = nullptr;
        QByteArray pending; // from the guest, waiting for the proxy connection
        quint32 inFlight = 0; // sent to the guest, not yet credited
        bool guestEof = false;
        bool shutDown = false;
    };

    void acceptLink();
    void readLink();
    bool handleFrame(quint8 type, quint32 id, const QByteArray &payload);
    void openStream(quint32 id);
    void writeProxy(quint32 id);
    void readProxy(quint32 id);
    void closeStream(quint32 id, bool tellGuest);
    void endLink();
    void send(quint8 type, quint32 id, const QByteArray &payload = {});

    std::shared_ptr<ProxyChannel> m_channel;
    QLocalServer m_server;
    QLocalSocket *m_link = nullptr;
    QByteArray m_input;
    QHash<quint32, Stream> m_streams;
};

} // namespace sandbox
