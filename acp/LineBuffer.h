#pragma once

#include <QByteArray>
#include <QList>

namespace sandbox {

// Cuts a byte stream into newline-terminated lines (the ACP framing). A line that grows
// past `maxBytes` without its newline is given out cut at the limit and flagged, so one
// runaway peer cannot take all memory.
class LineBuffer final
{
public:
    explicit LineBuffer(qsizetype maxBytes);

    struct Line
    {
        QByteArray bytes;
        bool overlong = false;
    };

    QList<Line> append(const QByteArray &data);
    // Whatever remains when the stream ends without a final newline.
    QByteArray takeRest();

private:
    qsizetype m_maxBytes;
    QByteArray m_pending;
    bool m_discarding = false;
};

} // namespace sandbox
