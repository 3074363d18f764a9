#include "ProcessesView.h"

#include "RunningProcesses.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sandbox {

namespace {

enum Column { Command, Backend, Started, Pid, Notes, ColumnCount };

} // namespace

ProcessesView::ProcessesView(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_processes(new RunningProcesses(client, this))
    , m_summary(new QLabel(this))
    , m_table(new QTreeWidget(this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("processesView"));
    m_summary->setObjectName(QStringLiteral("processesSummary"));
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("processesTable"));
    m_table->setAccessibleName(tr("Running commands"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels({ tr("Command"), tr("Backend"), tr("Started"), tr("Process id"), tr("Notes") });
    m_table->header()->setStretchLastSection(false);
    m_table->header()->setSectionResizeMode(Command, QHeaderView::Stretch);
    m_table->header()->setSectionResizeMode(Backend, QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(Started, QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(Pid, QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(Notes, QHeaderView::Stretch);
    m_stop->setObjectName(QStringLiteral("processStopButton"));
    m_stop->setAccessibleName(tr("Stop the selected commands"));
    m_stop->setToolTip(tr("Ends the selected commands (and everything they started)"));
    m_status->setObjectName(QStringLiteral("processesStatus"));
    m_status->setWordWrap(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_stop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_processes, &RunningProcesses::changed, this, &ProcessesView::rebuild);
    connect(m_client, &Client::backendsChanged, this, &ProcessesView::loadNames);
    connect(m_table, &QTreeWidget::itemSelectionChanged, this, &ProcessesView::updateButtons);
    connect(m_stop, &QPushButton::clicked, this, &ProcessesView::stopSelected);
    loadNames();
    rebuild();
}

void ProcessesView::loadNames()
{
    whenReady(this, m_client->backends(), [this](const Result<QList<BackendInfo>> &result) {
        if (!result)
            return;
        m_names.clear();
        for (const BackendInfo &info : result.value())
            m_names.insert(info.ref.toString(), info.descriptor.name);
        rebuild();
    });
}

void ProcessesView::rebuild()
{
    QList<quint64> selected;
    for (const QTreeWidgetItem *item : m_table->selectedItems())
        selected.append(item->data(Command, Qt::UserRole).toULongLong());
    const QSignalBlocker blocker(m_table);
    m_table->clear();
    for (const ProcessInfo &info : m_processes->processes()) {
        auto *item = new QTreeWidgetItem(m_table);
        const QString command = info.argv.join(QLatin1Char(' '));
        const QString backend = m_names.value(info.owner.toString(), info.owner.kind());
        const QDateTime started = QDateTime::fromString(info.startedAt, Qt::ISODateWithMs).toLocalTime();
        item->setText(Command, command);
        const QString notes = info.notes.join(QLatin1Char('\n'));
        const QString where = tr("%1\nin %2").arg(command, info.cwd);
        item->setToolTip(Command, notes.isEmpty() ? where : tr("%1\n\n%2").arg(where, notes));
        item->setText(Backend, backend);
        item->setToolTip(Backend, backend);
        item->setText(Started, QLocale().toString(started.time(), QLocale::ShortFormat));
        item->setToolTip(Started, QLocale().toString(started, QLocale::LongFormat));
        item->setText(Pid, info.pid > 0 ? QString::number(info.pid) : tr("starting"));
        // The newest note is what changed last; the tooltip has them all, oldest first.
        item->setText(Notes, info.notes.isEmpty() ? QString() : info.notes.last());
        item->setToolTip(Notes, notes);
        item->setData(Command, Qt::UserRole, info.id);
        const QString accessible = tr("%1, started by %2 at %3").arg(command, backend, item->text(Started));
        item->setData(Command, Qt::AccessibleTextRole,
                      notes.isEmpty() ? accessible
                                      : tr("%1; %2").arg(accessible, info.notes.join(QStringLiteral("; "))));
        if (selected.contains(info.id))
            item->setSelected(true);
    }
    m_summary->setText(RunningProcesses::summary(m_processes->countsByBackend(), m_names));
    updateButtons();
}

void ProcessesView::updateButtons()
{
    m_stop->setEnabled(!m_table->selectedItems().isEmpty());
}

void ProcessesView::stopSelected()
{
    const QList<QTreeWidgetItem *> items = m_table->selectedItems();
    for (const QTreeWidgetItem *item : items) {
        const quint64 id = item->data(Command, Qt::UserRole).toULongLong();
        const QString command = item->text(Command);
        whenReady(this, m_client->kill(id), [this, command](const Status &status) {
            if (!status)
                m_status->setText(tr("“%1” could not be stopped: %2").arg(command, status.error().message));
            else
                m_status->setText(tr("Stopped “%1”.").arg(command));
        });
    }
}

} // namespace sandbox
