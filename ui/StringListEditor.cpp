#include "StringListEditor.h"

#include <QColor>
#include <QHBoxLayout>
#include <QKeyEvent>
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
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        setError({});
        checkEdited(m_list->row(item));
        emit changed();
    });
    // Delete removes the selected entries, as in every list a user edits.
    m_list->installEventFilter(this);
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
        item->setToolTip(text); // a long path is elided in the row
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
    if (m_check) {
        // Refused at once, naming the entry; the text stays in the input to be fixed.
        if (const QString problem = m_check(text); !problem.isEmpty()) {
            setError(tr("“%1” was not added: %2").arg(text, problem));
            m_input->selectAll();
            m_input->setFocus();
            return;
        }
    }
    {
        const QSignalBlocker blocker(m_list);
        auto *item = new QListWidgetItem(text, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setToolTip(text); // a long path is elided in the row
    }
    m_input->clear();
    setError({});
    updateButtons();
    emit changed();
}

bool StringListEditor::eventFilter(QObject *watched, QEvent *event)
{
    // Keys typed into an entry being edited go to its editor, not here.
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Delete) || key->key() == Qt::Key_Delete) {
            removeSelected();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void StringListEditor::markEntry(int index, const QString &message)
{
    QListWidgetItem *item = m_list->item(index);
    if (!item)
        return;
    const QSignalBlocker blocker(m_list);
    item->setForeground(QColor(0xc6, 0x28, 0x28));
    const QString line = tr("“%1”: %2").arg(item->text(), message);
    item->setToolTip(line);
    item->setData(Qt::UserRole, true);
    setError(error().isEmpty() ? line : error() + QLatin1Char('\n') + line);
}

bool StringListEditor::isMarked(int index) const
{
    const QListWidgetItem *item = m_list->item(index);
    return item && item->data(Qt::UserRole).toBool();
}

void StringListEditor::unmark(int row)
{
    QListWidgetItem *item = m_list->item(row);
    if (!item)
        return;
    const QSignalBlocker blocker(m_list);
    item->setData(Qt::ForegroundRole, QVariant());
    item->setToolTip(item->text());
    item->setData(Qt::UserRole, false);
}

void StringListEditor::checkEdited(int row)
{
    unmark(row);
    QListWidgetItem *item = m_list->item(row);
    if (!item || !m_check)
        return;
    if (const QString problem = m_check(item->text().trimmed()); !problem.isEmpty())
        markEntry(row, problem);
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
