#include "client/FrameDecoder.h"

#include <QCoreApplication>
#include <QtEndian>

namespace sandbox {

FrameDecoder::FrameDecoder(quint32 maxPayload)
    : m_maxPayload(maxPayload)
{ }

void FrameDecoder::append(const QByteArray &bytes)
{
    if (failed())
        return;
    // Reclaim consumed bytes once they dominate the buffer, so a long-lived connection
    // does not grow without bound and appends stay amortised O(n).
    if (m_offset > 0 && m_offset >= m_buffer.size() / 2) {
        m_buffer.remove(0, m_offset);
        m_offset = 0;
    }
    m_buffer.append(bytes);
}

std::optional<QByteArray> FrameDecoder::takeFrame()
{
    if (failed() || pendingBytes() < HeaderSize)
        return std::nullopt;
    const quint32 length = qFromBigEndian<quint32>(m_buffer.constData() + m_offset);
    if (length == 0) {
        m_error = QCoreApplication::translate("sandbox::FrameDecoder", "protocol error: empty frame (length 0)");
        return std::nullopt;
    }
    if (length > m_maxPayload) {
        m_error = QCoreApplication::translate("sandbox::FrameDecoder",
                                              "protocol error: message of %1 bytes exceeds the limit of %2 bytes")
                      .arg(length)
                      .arg(m_maxPayload);
        return std::nullopt;
    }
    if (pendingBytes() - HeaderSize < qsizetype(length))
        return std::nullopt;
    QByteArray payload = m_buffer.mid(m_offset + HeaderSize, length);
    m_offset += HeaderSize + length;
    if (m_offset == m_buffer.size()) {
        m_buffer.clear();
        m_offset = 0;
    }
    return payload;
}

QString FrameDecoder::truncationError() const
{
    if (failed() || pendingBytes() == 0)
        return {};
    if (pendingBytes() < HeaderSize)
        return QCoreApplication::translate("sandbox::FrameDecoder",
                                           "protocol error: connection closed inside a frame header (%1 of 4 bytes)")
            .arg(pendingBytes());
    const quint32 length = qFromBigEndian<quint32>(m_buffer.constData() + m_offset);
    return QCoreApplication::translate("sandbox::FrameDecoder",
                                       "protocol error: connection closed inside a frame (%1 of %2 bytes)")
        .arg(pendingBytes() - HeaderSize)
        .arg(length);
}

std::optional<QByteArray> FrameDecoder::encode(const QByteArray &payload, quint32 maxPayload)
{
    if (payload.isEmpty() || quint64(payload.size()) > maxPayload)
        return std::nullopt;
    QByteArray frame(HeaderSize, Qt::Uninitialized);
    qToBigEndian<quint32>(quint32(payload.size()), frame.data());
    frame.append(payload);
    return frame;
}

} // namespace sandbox
