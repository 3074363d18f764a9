#include "WheelGuard.h"

#include <QEvent>
#include <QWidget>

namespace sandbox {

void WheelGuard::install(QWidget *widget)
{
    // StrongFocus: the wheel alone never focuses the field (WheelFocus would).
    widget->setFocusPolicy(Qt::StrongFocus);
    widget->installEventFilter(new WheelGuard(widget));
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        auto *widget = qobject_cast<QWidget *>(watched);
        if (widget && !widget->hasFocus()) {
            // Ignored and filtered: Qt hands the wheel on to the parent (the scroll area).
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace sandbox
