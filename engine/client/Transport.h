#pragma once

#include "client/FrameDecoder.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

namespace sandbox {

// Carries protocol messages (JSON objects) between a client and the protocol server.
// Every implementation goes through the same framing and JSON serialization, so an
// engine in this process and one in a daemon behave identically, bad input included.
class Transport : public QObject
{
    Q_OBJECT

public:
    explicit Transport(QObject *parent = nullptr);
    ~Transport() override;

    // Serializes and frames `message`; false (nothing sent) when it exceeds the size limit
    // or the transport is closed.
    bool send(const QJsonObject &message);
    // Sends what is queued, then disconnects. disconnected() follows.
    virtual void close() = 0;
    virtual bool isOpen() const = 0;
    // "uid 1000 pid 4242", "in-process" ...: for logs.
    virtual QString peerDescription() const = 0;

    quint32 maxPayload() const { return m_decoder.maxPayload(); }

signals:
    void messageReceived(const QJsonObject &message);
    // A well-framed payload that is not a JSON object; the stream itself is intact.
    void malformedMessage(const QString &error);
    // The byte stream is broken (oversized or empty frame): nothing more will be read.
    // The owner may still send (e.g. an error reply) and should then close().
    void protocolError(const QString &error);
    // Emitted once; `reason` is empty for an orderly close.
    void disconnected(const QString &reason);

protected:
    virtual void writeFrame(const QByteArray &frame) = 0;
    // Implementations feed every received byte through here.
    void receiveBytes(const QByteArray &bytes);
    // Implementations call this once when the peer is gone.
    void notifyDisconnected(const QString &reason);
    bool hasFailed() const { return m_decoder.failed(); }

private:
    FrameDecoder m_decoder;
    bool m_disconnected = false;
};

} // namespace sandbox
