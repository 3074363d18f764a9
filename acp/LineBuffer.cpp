#include "LineBuffer.h"

namespace sandbox {

LineBuffer::LineBuffer(qsizetype maxBytes)
    : m_maxBytes(maxBytes)
{ }

QList<LineBuffer::Line> LineBuffer::append(const QByteArray &data)
{
    QList<Line> lines;
    qsizetype start = 0;
    while (start < data.size()) {
        const qsizetype newline = data.indexOf('\n', start);
        const qsizetype end = newline < 0 ? data.size() : newline;
        if (!m_discarding)
            m_pending.append(data.constData() + start, end - start);
        if (!m_discarding && m_pending.size() > m_maxBytes) {
            lines.append(Line{ m_pending.left(m_maxBytes), true });
            m_pending.clear();
            m_discarding = true;
        }
        if (newline < 0)
            break;
        if (!m_discarding) {
            if (m_pending.endsWith('\r'))
                m_pending.chop(1);
            lines.append(Line{ m_pending, false });
        }
        m_pending.clear();
        m_discarding = false;
        start = newline + 1;
    }
    return lines;
}

QByteArray LineBuffer::takeRest()
{
    QByteArray rest = m_discarding ? QByteArray() : m_pending;
    m_pending.clear();
    m_discarding = false;
    return rest;
}

} // namespace sandbox
