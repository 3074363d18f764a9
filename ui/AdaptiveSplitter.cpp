#include "AdaptiveSplitter.h"

#include <QResizeEvent>

#include <algorithm>

namespace sandbox {

AdaptiveSplitter::AdaptiveSplitter(int sideBySideWidth, QWidget *parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_sideBySideWidth(sideBySideWidth)
{
    setChildrenCollapsible(false);
}

QSize AdaptiveSplitter::minimumSizeHint() const
{
    int width = 0;
    int height = 0;
    int panes = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget *pane = widget(i);
        if (pane->isHidden())
            continue;
        const QSize paneMinimum = pane->minimumSizeHint().expandedTo(pane->minimumSize());
        width = std::max(width, paneMinimum.width());
        height = orientation() == Qt::Vertical ? height + paneMinimum.height() : std::max(height, paneMinimum.height());
        ++panes;
    }
    if (orientation() == Qt::Vertical && panes > 1)
        height += (panes - 1) * handleWidth();
    return QSize(width, height);
}

void AdaptiveSplitter::resizeEvent(QResizeEvent *event)
{
    const Qt::Orientation wanted = event->size().width() >= m_sideBySideWidth ? Qt::Horizontal : Qt::Vertical;
    if (wanted != orientation())
        setOrientation(wanted);
    QSplitter::resizeEvent(event);
}

} // namespace sandbox
