#include "SecretField.h"

#include "StatusIcons.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sandbox {

SecretField::SecretField(const QString &fieldId, const QString &label, QWidget *parent)
    : QWidget(parent)
    , m_fieldId(fieldId)
    , m_status(new QLabel(this))
    , m_replace(new QPushButton(tr("Replace…"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_input(new QLineEdit(this))
{
    setAccessibleName(label);
    m_replace->setAccessibleName(tr("Replace %1").arg(label));
    m_remove->setAccessibleName(tr("Remove %1").arg(label));
    m_cancel->setAccessibleName(tr("Keep the current %1").arg(label));

    m_input->setAccessibleName(tr("New value for %1").arg(label));
    m_input->setEchoMode(QLineEdit::Password);
    m_input->setPlaceholderText(tr("Type the new value; leave empty to keep the current one"));
    // The value is a credential: no undo history, no drag out, no completion.
    m_input->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhSensitiveData | Qt::ImhNoPredictiveText);
    m_input->setDragEnabled(false);
    m_input->setContextMenuPolicy(Qt::NoContextMenu);

    m_reveal = m_input->addAction(StatusIcons::reveal(false), QLineEdit::TrailingPosition);
    m_reveal->setCheckable(true);
    m_reveal->setToolTip(tr("Show the typed value"));
    setNameBase(QStringLiteral("field_") + fieldId);
    connect(m_reveal, &QAction::toggled, this, [this](bool shown) {
        m_input->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
        m_reveal->setIcon(StatusIcons::reveal(shown));
        m_reveal->setToolTip(shown ? tr("Hide the typed value") : tr("Show the typed value"));
    });

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_status, 1);
    row->addWidget(m_replace);
    row->addWidget(m_remove);
    row->addWidget(m_cancel);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_input);

    connect(m_replace, &QPushButton::clicked, this, [this] {
        setPending(Pending::Replace);
        m_input->setFocus();
    });
    connect(m_remove, &QPushButton::clicked, this, [this] { setPending(Pending::Remove); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { setPending(Pending::None); });
    connect(m_input, &QLineEdit::returnPressed, this, &SecretField::submitted);
    connect(m_input, &QLineEdit::textChanged, this, [this] {
        refresh();
        emit changed();
    });
    refresh();
}

void SecretField::setNameBase(const QString &base)
{
    setObjectName(base);
    m_status->setObjectName(base + QStringLiteral("_status"));
    m_replace->setObjectName(base + QStringLiteral("_replace"));
    m_remove->setObjectName(base + QStringLiteral("_remove"));
    m_cancel->setObjectName(base + QStringLiteral("_cancel"));
    m_input->setObjectName(base + QStringLiteral("_input"));
    m_reveal->setObjectName(base + QStringLiteral("_reveal"));
}

void SecretField::setConfigured(bool configured)
{
    m_configured = configured;
    refresh();
}

SecretUpdate SecretField::update() const
{
    SecretUpdate update;
    update.fieldId = m_fieldId;
    if (m_pending == Pending::Remove) {
        update.action = SecretUpdate::Action::Remove;
    } else if (m_pending == Pending::Replace && !m_input->text().isEmpty()) {
        update.action = SecretUpdate::Action::Replace;
        update.value = m_input->text();
    }
    return update;
}

void SecretField::reset()
{
    setPending(Pending::None);
}

void SecretField::setPending(Pending pending)
{
    m_pending = pending;
    if (pending != Pending::Replace) {
        m_input->clear();
        m_reveal->setChecked(false);
    }
    refresh();
    emit changed();
}

void SecretField::refresh()
{
    switch (m_pending) {
    case Pending::None:
        m_status->setText(m_configured ? tr("Configured") : tr("Not set"));
        break;
    case Pending::Replace:
        // Only typed text changes anything (empty input keeps what is stored).
        if (m_input->text().isEmpty())
            m_status->setText(m_configured ? tr("Configured — type a new value to replace it")
                                           : tr("Not set — type a value"));
        else
            m_status->setText(m_configured ? tr("Configured — will be replaced when saved")
                                           : tr("Not set — will be set when saved"));
        break;
    case Pending::Remove:
        m_status->setText(tr("Configured — will be removed when saved"));
        break;
    }
    m_status->setAccessibleName(m_status->text());
    m_input->setVisible(m_pending == Pending::Replace);
    m_replace->setVisible(m_pending == Pending::None);
    m_remove->setVisible(m_pending == Pending::None);
    m_remove->setEnabled(m_configured);
    m_cancel->setVisible(m_pending != Pending::None);
}

} // namespace sandbox
