#include "RefusalsView.h"

#include "FutureCallback.h"
#include "server/Client.h"

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

enum Column { Time, Command, Refused, Rule, Backend, ColumnCount };

} // namespace

RefusalsView::RefusalsView(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_summary(new QLabel(this))
    , m_table(new QTreeWidget(this))
    , m_clear(new QPushButton(tr("Clear"), this))
{
    setObjectName(QStringLiteral("refusalsView"));
    m_summary->setObjectName(QStringLiteral("refusalsSummary"));
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("refusalsTable"));
    m_table->setAccessibleName(tr("What the sandbox refused"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels({ tr("Time"), tr("Command"), tr("Refused"), tr("Rule"), tr("Backend") });
    m_table->header()->setStretchLastSection(false);
    m_table->header()->setSectionResizeMode(Time, QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(Command, QHeaderView::Interactive);
    m_table->header()->setSectionResizeMode(Refused, QHeaderView::Interactive);
    m_table->header()->setSectionResizeMode(Rule, QHeaderView::Stretch);
    m_table->header()->setSectionResizeMode(Backend, QHeaderView::ResizeToContents);
    m_table->header()->resizeSection(Command, 180);
    m_table->header()->resizeSection(Refused, 160);
    m_clear->setObjectName(QStringLiteral("refusalsClearButton"));
    m_clear->setAccessibleName(tr("Clear the list of refusals"));
    m_clear->setToolTip(tr("Empties this list; the sandbox goes on refusing what the policy does not allow"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_clear);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    connect(m_clear, &QPushButton::clicked, this, &RefusalsView::clear);
    connect(m_client, &Client::refusalReported, this, &RefusalsView::add);
    whenReady(this, m_client->followRefusals(), [this](const Result<QList<Refusal>> &recent) {
        if (!recent) {
            m_summary->setText(tr("Refusals cannot be shown: %1").arg(recent.error().message));
            return;
        }
        for (const Refusal &refusal : recent.value())
            add(refusal);
    });
    updateSummary();
}

void RefusalsView::add(const Refusal &refusal)
{
    // The subscription's answer and a notification may carry the same refusal.
    if (refusal.id <= m_lastId)
        return;
    m_lastId = refusal.id;
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(refusal.timeMs);
    const QString command = refusal.command.isEmpty() ? tr("(no command)") : refusal.command;
    const QString backend = !refusal.backendName.isEmpty() ? refusal.backendName
        : refusal.ref.isValid()                            ? refusal.ref.kind()
                                                           : tr("the engine");
    auto *item = new QTreeWidgetItem;
    item->setText(Time, QLocale().toString(time.time(), QLocale::LongFormat));
    item->setToolTip(Time, QLocale().toString(time, QLocale::LongFormat));
    item->setText(Command, command);
    item->setToolTip(Command,
                     refusal.processId != 0 ? tr("%1\n(process %2)").arg(command).arg(refusal.processId) : command);
    item->setText(Refused, refusal.what);
    item->setToolTip(Refused, refusal.what);
    item->setText(Rule, refusal.rule);
    item->setToolTip(Rule, refusal.rule);
    item->setText(Backend, backend);
    item->setToolTip(Backend, backend);
    item->setData(Time, Qt::UserRole, refusal.id);
    item->setData(Command, Qt::AccessibleTextRole,
                  tr("Refused for %1: %2, by the rule %3").arg(command, refusal.what, refusal.rule));
    m_table->insertTopLevelItem(0, item);
    while (m_table->topLevelItemCount() > maxRows)
        delete m_table->takeTopLevelItem(m_table->topLevelItemCount() - 1);
    ++m_count;
    updateSummary();
    emit countChanged(m_count);
}

void RefusalsView::clear()
{
    m_table->clear();
    m_count = 0;
    updateSummary();
    emit countChanged(m_count);
}

void RefusalsView::updateSummary()
{
    m_summary->setText(m_count == 0       ? tr("Nothing has been refused. When the sandbox refuses something a command "
                                                     "does, it shows here as it happens, with the rule that refused it.")
                           : m_count == 1 ? tr("1 refusal: the newest first.")
                                          : tr("%1 refusals: the newest first.").arg(m_count));
    m_clear->setEnabled(m_count > 0);
}

} // namespace sandbox
