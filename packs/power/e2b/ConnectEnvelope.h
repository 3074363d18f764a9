#pragma once

#include <QByteArray>
#include <QList>

namespace sandbox::power {

// The Connect protocol's framing of streamed messages: one flag byte, a 4-byte big-endian
// length, then the message. The end-of-stream flag marks the final JSON object
// ({"error": ...} when the call failed).
struct ConnectEnvelope
{
    static constexpr quint8 endStreamFlag = 0x02;
    static constexpr quint8 compressedFlag = 0x01;
    // The largest message accepted from a server; a longer one ends the stream as broken.
    static constexpr quint32 maximumSize = 16 * 1024 * 1024;

    quint8 flags = 0;
    QByteArray message;

    bool endOfStream() const { return flags & endStreamFlag; }

    static QByteArray encode(const QByteArray &message, quint8 flags = 0);
    // Takes every complete envelope off the front of `buffer`; sets `broken` when the
    // buffer cannot be a Connect stream (oversized or compressed message).
    static QList<ConnectEnvelope> take(QByteArray &buffer, bool *broken);
};

} // namespace sandbox::power
