#include "RefusalsView.h"

#include "client/Client.h"
#include "client/WhenReady.h"
#include "protocol/Refusal.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sandbox {

namespace {

enum Column { Time, Command, Refused, Rule, Backend, ColumnCount };

constexpr int KindRole = Qt::UserRole + 1; // on the Refused column: the Refusal::Kind
constexpr int RefRole = Qt::UserRole + 1; // on the Backend column: the canonical ref
constexpr int NameRole = Qt::UserRole + 2; // on the Backend column: the name the engine gave

// A refusal's rule in the user's language. Rules read "<area>: <reason>" (the engine's
// "network: %1" around the proxy's reason): the two are translated apart when both are
// known, since a reason's own pattern ("%1:%2 is not in …") would otherwise swallow the
// area as if it were part of the host.
QString translatedRule(const Client &client, const QString &rule)
{
    const qsizetype colon = rule.indexOf(QStringLiteral(": "));
    if (colon > 0) {
        const QString area = rule.left(colon) + QStringLiteral(": %1");
        const QString reason = rule.mid(colon + 2);
        const QString areaText = client.translated(area);
        const QString reasonText = client.translated(reason);
        if (areaText != area && reasonText != reason && areaText.contains(QStringLiteral("%1")))
            return areaText.arg(reasonText);
    }
    return client.translated(rule);
}

// The host of a refused connection's target ("api.example.org:443" -> "api.example.org").
QString hostOf(const QString &target)
{
    const qsizetype colon = target.lastIndexOf(QLatin1Char(':'));
    bool port = false;
    if (colon > 0)
        target.mid(colon + 1).toUInt(&port);
    QString host = port ? target.left(colon) : target;
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return host;
}

} // namespace

RefusalsView::RefusalsView(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_summary(new QLabel(this))
    , m_table(new QTreeWidget(this))
    , m_clear(new QPushButton(tr("Clear"), this))
    , m_details(new QLabel(this))
    , m_allowDomain(new QPushButton(tr("Allow This Domain…"), this))
    , m_status(new QLabel(this))
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

    m_details->setObjectName(QStringLiteral("refusalDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_details->setFrameShape(QFrame::StyledPanel);
    m_details->setMargin(6);
    m_details->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_allowDomain->setObjectName(QStringLiteral("refusalAllowDomainButton"));
    m_allowDomain->setAccessibleName(tr("Allow the refused domain in the policy"));
    m_allowDomain->setToolTip(tr("Adds the domain of the selected refused connection to the policy's allowed domains"));
    m_status->setObjectName(QStringLiteral("refusalsStatus"));
    m_status->setWordWrap(true);

    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_clear);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_status, 1);
    actions->addWidget(m_allowDomain);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_details);
    layout->addLayout(actions);

    connect(m_clear, &QPushButton::clicked, this, &RefusalsView::clear);
    connect(m_client, &Client::refusalReported, this, &RefusalsView::add);
    connect(m_client, &Client::backendsChanged, this, &RefusalsView::loadNames);
    connect(m_table, &QTreeWidget::itemSelectionChanged, this, &RefusalsView::showSelected);
    connect(m_allowDomain, &QPushButton::clicked, this, &RefusalsView::allowSelectedDomain);
    loadNames();
    showSelected();
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
    // The engine speaks English: its rule (and what it refused, when it words it) in the
    // user's language; the backend by the name every other view gives it.
    const QString what = m_client->translated(refusal.what);
    const QString rule = translatedRule(*m_client, refusal.rule);
    const QString ref = refusal.ref.isValid() ? refusal.ref.toString() : QString();
    const QString backend = m_names.contains(ref) ? m_names.value(ref)
        : !refusal.backendName.isEmpty()          ? refusal.backendName
        : refusal.ref.isValid()                   ? refusal.ref.kind()
                                                  : tr("the engine");
    auto *item = new QTreeWidgetItem;
    item->setText(Time, QLocale().toString(time.time(), QLocale::LongFormat));
    item->setToolTip(Time, QLocale().toString(time, QLocale::LongFormat));
    item->setText(Command, command);
    item->setToolTip(Command,
                     refusal.processId != 0 ? tr("%1\n(process %2)").arg(command).arg(refusal.processId) : command);
    item->setText(Refused, what);
    item->setToolTip(Refused, what);
    item->setData(Refused, KindRole, int(refusal.kind));
    item->setText(Rule, rule);
    item->setToolTip(Rule, rule);
    item->setText(Backend, backend);
    item->setToolTip(Backend, backend);
    item->setData(Backend, RefRole, ref);
    item->setData(Backend, NameRole, refusal.backendName);
    item->setData(Time, Qt::UserRole, refusal.id);
    item->setData(Command, Qt::AccessibleTextRole, tr("Refused for %1: %2, by the rule %3").arg(command, what, rule));
    m_table->insertTopLevelItem(0, item);
    while (m_table->topLevelItemCount() > maxRows)
        delete m_table->takeTopLevelItem(m_table->topLevelItemCount() - 1);
    ++m_count;
    updateSummary();
    emit countChanged(m_count);
}

void RefusalsView::loadNames()
{
    whenReady(this, m_client->backends(), [this](const Result<QList<BackendInfo>> &result) {
        if (!result)
            return;
        m_names.clear();
        for (const BackendInfo &info : result.value())
            m_names.insert(info.ref.toString(), info.descriptor.name);
        for (int row = 0; row < m_table->topLevelItemCount(); ++row) {
            QTreeWidgetItem *item = m_table->topLevelItem(row);
            const QString ref = item->data(Backend, RefRole).toString();
            if (!m_names.contains(ref))
                continue;
            item->setText(Backend, m_names.value(ref));
            item->setToolTip(Backend, m_names.value(ref));
        }
        showSelected();
    });
}

void RefusalsView::showSelected()
{
    const QList<QTreeWidgetItem *> selected = m_table->selectedItems();
    const QTreeWidgetItem *item = selected.size() == 1 ? selected.first() : nullptr;
    const bool network = item && item->data(Refused, KindRole).toInt() == int(Refusal::Kind::Network)
        && !item->text(Refused).isEmpty();
    m_allowDomain->setEnabled(network);
    m_details->setVisible(item != nullptr);
    if (!item) {
        m_details->clear();
        return;
    }
    // The whole of it, however narrow the columns: the command line as the engine has it.
    const QStringList lines{
        tr("<b>Command:</b> %1").arg(item->text(Command).toHtmlEscaped()),
        tr("<b>Refused:</b> %1").arg(item->text(Refused).toHtmlEscaped()),
        tr("<b>Rule:</b> %1").arg(item->text(Rule).toHtmlEscaped()),
        tr("<b>Backend:</b> %1").arg(item->text(Backend).toHtmlEscaped()),
        tr("<b>Time:</b> %1").arg(item->toolTip(Time).toHtmlEscaped()),
    };
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

void RefusalsView::allowSelectedDomain()
{
    const QList<QTreeWidgetItem *> selected = m_table->selectedItems();
    if (selected.size() != 1)
        return;
    const QString host = hostOf(selected.first()->text(Refused));
    m_status->clear();
    whenReady(this, m_client->policy(), [this, host](const Result<Policy> &policy) {
        if (!policy) {
            m_status->setText(tr("The policy could not be read: %1").arg(policy.error().toString()));
            return;
        }
        askToAllow(host, policy.value());
    });
}

void RefusalsView::askToAllow(const QString &host, const Policy &policy)
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("allowDomainDialog"));
    dialog->setWindowTitle(tr("Allow This Domain"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *text = new QLabel(dialog);
    text->setObjectName(QStringLiteral("allowDomainText"));
    text->setWordWrap(true);
    QString explanation = tr("Commands started from now on may connect to this domain (any port; add “:443” for one "
                             "port only, or write “*.%1” for its subdomains as well).")
                              .arg(host);
    if (policy.network == Policy::NetworkMode::None)
        explanation += QLatin1Char(' ')
            + tr("The policy allows no network now: it changes to “Allowed domains only”, which also allows the "
                 "domains already in its list.");
    text->setText(explanation);
    auto *input = new QLineEdit(host, dialog);
    input->setObjectName(QStringLiteral("allowDomainInput"));
    input->setAccessibleName(tr("Domain to allow"));
    auto *problem = new QLabel(dialog);
    problem->setObjectName(QStringLiteral("allowDomainProblem"));
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    auto *buttons = new QDialogButtonBox(dialog);
    QPushButton *confirm = buttons->addButton(tr("Allow"), QDialogButtonBox::AcceptRole);
    confirm->setObjectName(QStringLiteral("allowDomainConfirm"));
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("allowDomainCancel"));
    auto check = [this, input, problem, confirm] {
        const QString why = m_client->translated(Policy::domainProblem(input->text().trimmed()));
        problem->setText(why);
        problem->setVisible(!why.isEmpty());
        confirm->setEnabled(why.isEmpty());
    };
    connect(input, &QLineEdit::textChanged, dialog, check);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::accepted, this, [this, input] { allow(input->text().trimmed()); });
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(input);
    layout->addWidget(problem);
    layout->addWidget(buttons);
    check();
    dialog->open();
}

void RefusalsView::allow(const QString &domain)
{
    // The policy as it is now (it may have changed while the question was open).
    whenReady(this, m_client->policy(), [this, domain](const Result<Policy> &current) {
        if (!current) {
            m_status->setText(tr("The policy could not be read: %1").arg(current.error().toString()));
            return;
        }
        Policy policy = current.value();
        if (!policy.allowedDomains.contains(domain))
            policy.allowedDomains.append(domain);
        if (policy.network == Policy::NetworkMode::None)
            policy.network = Policy::NetworkMode::Allowlist;
        whenReady(this, m_client->setPolicy(policy), [this, domain, policy](const Status &status) {
            if (!status) {
                m_status->setText(tr("“%1” was not allowed: %2").arg(domain, status.error().toString()));
                return;
            }
            m_status->setText(policy.deniedDomains.isEmpty()
                                  ? tr("“%1” is allowed for commands started from now on.").arg(domain)
                                  : tr("“%1” is allowed for commands started from now on, unless an entry of the "
                                       "policy's denied domains matches it (denied entries win).")
                                        .arg(domain));
        });
    });
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
