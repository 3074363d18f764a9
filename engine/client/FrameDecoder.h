#pragma once

#include "client/ProtocolNames.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace sandbox {

// The wire framing of the local protocol: each message is a 4-byte big-endian payload
// length followed by that many bytes of UTF-8 JSON. Bytes arrive in arbitrary pieces;
// the decoder hands out whole payloads. A length of zero or above the limit breaks the
// stream for good (the connection is closed), because nothing after it can be trusted.
class FrameDecoder final
{
public:
    static constexpr quint32 DefaultMaxPayload = MaxPayloadBytes; // 8 MiB
    static constexpr int HeaderSize = 4;

    explicit FrameDecoder(quint32 maxPayload = DefaultMaxPayload);

    void append(const QByteArray &bytes);
    // The next complete payload, or nullopt when more bytes are needed or the stream failed.
    std::optional<QByteArray> takeFrame();

    bool failed() const { return !m_error.isEmpty(); }
    QString errorString() const { return m_error; }
    // Bytes received but not yet handed out (a truncated frame when the peer hangs up).
    qsizetype pendingBytes() const { return m_buffer.size() - m_offset; }
    // Describes a partial frame left behind at end of stream; empty when there is none.
    QString truncationError() const;
    quint32 maxPayload() const { return m_maxPayload; }

    // Frames a payload; nullopt when it exceeds maxPayload.
    static std::optional<QByteArray> encode(const QByteArray &payload, quint32 maxPayload = DefaultMaxPayload);

private:
    QByteArray m_buffer;
    qsizetype m_offset = 0;
    quint32 m_maxPayload;
    QString m_error;
};

} // namespace sandbox
