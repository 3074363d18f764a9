#include "ConnectEnvelope.h"

namespace sandbox::power {

QByteArray ConnectEnvelope::encode(const QByteArray &message, quint8 flags)
{
    QByteArray out;
    out.reserve(5 + message.size());
    const auto size = quint32(message.size());
    out.append(char(flags));
    out.append(char((size >> 24) & 0xff));
    out.append(char((size >> 16) & 0xff));
    out.append(char((size >> 8) & 0xff));
    out.append(char(size & 0xff));
    out.append(message);
    return out;
}

QList<ConnectEnvelope> ConnectEnvelope::take(QByteArray &buffer, bool *broken)
{
    QList<ConnectEnvelope> envelopes;
    qsizetype offset = 0;
    while (buffer.size() - offset >= 5) {
        const auto *head = reinterpret_cast<const uchar *>(buffer.constData() + offset);
        const quint32 size
            = (quint32(head[1]) << 24) | (quint32(head[2]) << 16) | (quint32(head[3]) << 8) | quint32(head[4]);
        if (size > maximumSize || (head[0] & compressedFlag)) {
            if (broken)
                *broken = true;
            buffer.clear();
            return envelopes;
        }
        if (buffer.size() - offset < qsizetype(5 + size))
            break;
        envelopes.append(ConnectEnvelope{ head[0], buffer.mid(offset + 5, size) });
        offset += 5 + qsizetype(size);
    }
    buffer.remove(0, offset);
    return envelopes;
}

} // namespace sandbox::power
