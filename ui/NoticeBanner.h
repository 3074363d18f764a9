#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace sandbox {

// A non-modal message across the top of the window (cleanup warnings, "no system tray"),
// dismissed with its close button.
class NoticeBanner final : public QFrame
{
    Q_OBJECT

public:
    enum class Kind { Information, Warning };

    NoticeBanner(const QString &name, Kind kind, QWidget *parent = nullptr);

    void showMessage(const QString &text);
    QString text() const;

signals:
    void dismissed();

private:
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QToolButton *m_close = nullptr;
};

} // namespace sandbox
