#pragma once

#include <QSplitter>

namespace sandbox {

// A splitter that puts its panes side by side when it is at least sideBySideWidth wide
// and stacks them otherwise, so a page works from half a 1920 px screen down to 800 px.
class AdaptiveSplitter final : public QSplitter
{
    Q_OBJECT

public:
    AdaptiveSplitter(int sideBySideWidth, QWidget *parent = nullptr);

    int sideBySideWidth() const { return m_sideBySideWidth; }
    // As narrow as the panes are when stacked: a window may always shrink to that width,
    // and the panes go side by side again once there is room.
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    int m_sideBySideWidth = 0;
};

} // namespace sandbox
