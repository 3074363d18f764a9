#pragma once

#include <QObject>

class QWidget;

namespace sandbox {

// Spin boxes and combo boxes inside a scrolling form must not steal the wheel while the
// user scrolls past them: the wheel only changes a value once the field has focus.
class WheelGuard final : public QObject
{
    Q_OBJECT

public:
    static void install(QWidget *widget);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using QObject::QObject;
};

} // namespace sandbox
