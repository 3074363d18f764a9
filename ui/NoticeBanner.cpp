#include "NoticeBanner.h"

#include "StatusIcons.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace sandbox {

NoticeBanner::NoticeBanner(const QString &name, Kind kind, QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(name);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, kind == Kind::Warning ? QColor(0xff, 0xf3, 0xcd) : QColor(0xe3, 0xf2, 0xfd));
    pal.setColor(QPalette::WindowText, QColor(0x21, 0x21, 0x21));
    setPalette(pal);

    const QIcon icon = kind == Kind::Warning ? StatusIcons::warning() : StatusIcons::information();
    m_icon->setPixmap(icon.pixmap(20, 20));
    m_text->setObjectName(name + QStringLiteral("Text"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setObjectName(name + QStringLiteral("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss this message"));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 4, 6);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);

    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        emit dismissed();
    });
    hide();
}

void NoticeBanner::showMessage(const QString &text)
{
    m_text->setText(text);
    setAccessibleName(text);
    show();
}

QString NoticeBanner::text() const
{
    return m_text->text();
}

} // namespace sandbox
