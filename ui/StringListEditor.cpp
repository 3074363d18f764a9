#include "StringListEditor.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace sandbox {

StringListEditor::StringListEditor(const QString &name, const QString &accessibleLabel, const QString &placeholder,
                                   QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_input(new QLineEdit(this))
    , m_add(new QPushButton(tr("Add"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_error(new QLabel(this))
{
    setObjectName(name);
    setAccessibleName(accessibleLabel);

    m_list->setObjectName(name + QStringLiteral("List"));
    m_list->setAccessibleName(accessibleLabel);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_list->setMinimumHeight(60);
    m_list->setMaximumHeight(92);

    m_input->setObjectName(name + QStringLiteral("Input"));
    m_input->setAccessibleName(tr("New entry for %1").arg(accessibleLabel));
    m_input->setPlaceholderText(placeholder);
    m_input->setClearButtonEnabled(true);

    m_add->setObjectName(name + QStringLiteral("Add"));
    m_add->setAccessibleName(tr("Add to %1").arg(accessibleLabel));
    m_remove->setObjectName(name + QStringLiteral("Remove"));
    m_remove->setAccessibleName(tr("Remove the selected entries from %1").arg(accessibleLabel));

    m_error->setObjectName(name + QStringLiteral("Error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setProperty("role", QStringLiteral("error"));
    m_error->hide();

    auto *inputRow = new QHBoxLayout;
    inputRow->addWidget(m_input, 1);
    inputRow->addWidget(m_add);
    inputRow->addWidget(m_remove);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list);
    layout->addLayout(inputRow);
    layout->addWidget(m_error);

    connect(m_add, &QPushButton::clicked, this, &StringListEditor::addEntry);
    connect(m_input, &QLineEdit::returnPressed, this, &StringListEditor::addEntry);
    connect(m_input, &QLineEdit::textChanged, this, &StringListEditor::updateButtons);
    connect(m_remove, &QPushButton::clicked, this, &StringListEditor::removeSelected);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &StringListEditor::updateButtons);
    connect(m_list, &QListWidget::itemChanged, this, [this] {
        setError({});
        emit changed();
    });
    updateButtons();
}

QStringList StringListEditor::items() const
{
    QStringList result;
    for (int i = 0; i < m_list->count(); ++i)
        result << m_list->item(i)->text().trimmed();
    return result;
}

void StringListEditor::setItems(const QStringList &items)
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const QString &text : items) {
        auto *item = new QListWidgetItem(text, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    setError({});
    updateButtons();
}

void StringListEditor::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

QString StringListEditor::error() const
{
    return m_error->text();
}

void StringListEditor::addEntry()
{
    const QString text = m_input->text().trimmed();
    if (text.isEmpty())
        return;
    {
        const QSignalBlocker blocker(m_list);
        auto *item = new QListWidgetItem(text, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    m_input->clear();
    setError({});
    updateButtons();
    emit changed();
}

void StringListEditor::removeSelected()
{
    const auto selected = m_list->selectedItems();
    if (selected.isEmpty())
        return;
    qDeleteAll(selected);
    setError({});
    updateButtons();
    emit changed();
}

void StringListEditor::updateButtons()
{
    m_add->setEnabled(!m_input->text().trimmed().isEmpty());
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
}

} // namespace sandbox
