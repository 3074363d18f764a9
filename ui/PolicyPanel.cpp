#include "PolicyPanel.h"

#include "CredentialValues.h"
#include "StringListEditor.h"
#include "WheelGuard.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace sandbox {

PolicyPanel::PolicyPanel(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_credentials(new CredentialValues(client, this))
    , m_domainsHint(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_conflicts(new QLabel(this))
    , m_error(new QLabel)
    , m_status(new QLabel)
    , m_apply(new QPushButton(tr("Apply")))
    , m_revert(new QPushButton(tr("Revert")))
{
    setObjectName(QStringLiteral("policyPanel"));

    m_readable
        = new StringListEditor(QStringLiteral("policyReadable"), tr("Readable paths"), tr("/path or ~/path"), this);
    m_writable = new StringListEditor(QStringLiteral("policyWritable"), tr("Writable paths"),
                                      tr("${workspace} or /path"), this);
    m_denied = new StringListEditor(QStringLiteral("policyDenied"), tr("Denied paths"), tr("~/.ssh"), this);
    m_readOnly = new StringListEditor(QStringLiteral("policyReadOnly"), tr("Read-only paths"),
                                      tr("${workspace}/.git/hooks"), this);
    m_allowedDomains = new StringListEditor(QStringLiteral("policyAllowedDomains"), tr("Allowed domains"),
                                            tr("example.com or *.example.com:443"), this);
    m_deniedDomains = new StringListEditor(QStringLiteral("policyDeniedDomains"), tr("Denied domains"),
                                           tr("tracker.example.com"), this);
    // The engine's own rules, applied as each entry is added or edited, in the user's language.
    for (StringListEditor *paths : { m_readable, m_writable, m_denied, m_readOnly })
        paths->setCheck([client](const QString &path) { return client->translated(Policy::pathProblem(path)); });
    for (StringListEditor *domains : { m_allowedDomains, m_deniedDomains })
        domains->setCheck(
            [client](const QString &domain) { return client->translated(Policy::domainProblem(domain)); });

    m_processes = createCombo(
        QStringLiteral("policyProcesses"), tr("Process confinement"),
        { { tr("Isolated — sandboxed commands see only their own processes"),
            int(Policy::ProcessConfinement::Isolated) },
          { tr("Shared — sandboxed commands can see host processes"), int(Policy::ProcessConfinement::Shared) } });
    m_network = createCombo(QStringLiteral("policyNetworkMode"), tr("Network access"),
                            { { tr("No network"), int(Policy::NetworkMode::None) },
                              { tr("Allowed domains only"), int(Policy::NetworkMode::Allowlist) },
                              { tr("Full network access"), int(Policy::NetworkMode::Full) } });
    m_hostExecution
        = createCombo(QStringLiteral("policyHostExecution"), tr("Host execution"),
                      { { tr("Deny — commands never run outside the sandbox"), int(Policy::HostExecution::Deny) },
                        { tr("Ask — each request to run on the host asks you first"), int(Policy::HostExecution::Ask) },
                        { tr("Allow — commands may run on the host unconfined"), int(Policy::HostExecution::Allow) } });

    auto *filesystem = new QGroupBox(tr("Filesystem"), this);
    filesystem->setObjectName(QStringLiteral("policyFilesystemGroup"));
    auto *fsForm = new QFormLayout(filesystem);
    fsForm->setRowWrapPolicy(QFormLayout::WrapAllRows);
    fsForm->addRow(tr("Readable:"), m_readable);
    fsForm->addRow(tr("Writable:"), m_writable);
    m_conflicts->setObjectName(QStringLiteral("policyWritableConflicts"));
    m_conflicts->setWordWrap(true);
    m_conflicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_conflicts->setFrameShape(QFrame::StyledPanel);
    m_conflicts->setMargin(6);
    m_conflicts->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4e5; color: #5f370e; border: 1px solid #f0c36d; }"));
    m_conflicts->hide();
    fsForm->addRow(m_conflicts);
    fsForm->addRow(tr("Denied (never readable or writable):"), m_denied);
    fsForm->addRow(tr("Read-only inside writable paths:"), m_readOnly);

    auto *processes = new QGroupBox(tr("Processes"), this);
    processes->setObjectName(QStringLiteral("policyProcessesGroup"));
    auto *procForm = new QFormLayout(processes);
    procForm->addRow(tr("Confinement:"), m_processes);

    auto *network = new QGroupBox(tr("Network"), this);
    network->setObjectName(QStringLiteral("policyNetworkGroup"));
    auto *netForm = new QFormLayout(network);
    netForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    netForm->addRow(tr("Mode:"), m_network);
    m_domainsHint->setObjectName(QStringLiteral("policyDomainsHint"));
    m_domainsHint->setWordWrap(true);
    m_domainsHint->setEnabled(false);
    netForm->addRow(m_domainsHint);
    auto *domainsForm = new QFormLayout;
    domainsForm->setRowWrapPolicy(QFormLayout::WrapAllRows);
    domainsForm->addRow(tr("Allowed domains:"), m_allowedDomains);
    domainsForm->addRow(tr("Denied domains (win over allowed):"), m_deniedDomains);
    netForm->addRow(domainsForm);

    auto *host = new QGroupBox(tr("Host execution"), this);
    host->setObjectName(QStringLiteral("policyHostGroup"));
    auto *hostForm = new QFormLayout(host);
    hostForm->addRow(tr("Commands on the host:"), m_hostExecution);

    m_error->setObjectName(QStringLiteral("policyError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_status->setObjectName(QStringLiteral("policyStatus"));
    m_status->setWordWrap(true);

    m_apply->setObjectName(QStringLiteral("policyApply"));
    m_apply->setAccessibleName(tr("Apply the policy changes"));
    m_revert->setObjectName(QStringLiteral("policyRevert"));
    m_revert->setAccessibleName(tr("Revert the policy changes"));
    // Apply, Revert and the outcome stay in view below the scrolling policy (see footer()).
    m_footer = new QWidget;
    m_footer->setObjectName(QStringLiteral("policyFooter"));
    auto *footerLayout = new QVBoxLayout(m_footer);
    footerLayout->setContentsMargins(0, 4, 0, 0);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_apply);
    footerLayout->addWidget(m_error);
    footerLayout->addLayout(buttons);

    m_summary->setObjectName(QStringLiteral("policySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(6);

    // The settings that matter most first (what may run unconfined, what may go out), the
    // long lists last.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(host);
    layout->addWidget(network);
    layout->addWidget(m_credentials);
    layout->addWidget(processes);
    layout->addWidget(filesystem);
    layout->addStretch(1);

    for (StringListEditor *editor : { m_readable, m_writable, m_denied, m_readOnly, m_allowedDomains, m_deniedDomains })
        connect(editor, &StringListEditor::changed, this, &PolicyPanel::updateState);
    for (QComboBox *combo : { m_processes, m_network, m_hostExecution })
        connect(combo, &QComboBox::currentIndexChanged, this, &PolicyPanel::updateState);
    connect(m_apply, &QPushButton::clicked, this, &PolicyPanel::apply);
    connect(m_revert, &QPushButton::clicked, this, &PolicyPanel::revert);
    connect(m_client, &Client::policyChanged, this, [this](const Policy &policy) {
        // Someone else (sandboxctl, another window) saved a policy: follow it unless the
        // user is in the middle of editing, in which case Revert will pick it up.
        const bool wasDirty = isDirty();
        m_saved = policy;
        m_loaded = true;
        if (!wasDirty)
            load(policy);
        updateState();
    });

    setEnabled(false);
    m_status->setText(tr("Loading the policy…"));
    reload();
}

QComboBox *PolicyPanel::createCombo(const QString &name, const QString &accessibleName,
                                    const QList<std::pair<QString, int>> &items)
{
    auto *combo = new QComboBox(this);
    combo->setObjectName(name);
    combo->setAccessibleName(accessibleName);
    for (const auto &[text, value] : items)
        combo->addItem(text, value);
    // Long explanatory choices must not dictate the panel's width; the popup shows them whole.
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(24);
    WheelGuard::install(combo);
    return combo;
}

void PolicyPanel::reload()
{
    whenReady(this, m_client->policy(), [this](const Result<Policy> &result) {
        setEnabled(true);
        if (!result) {
            showError(result.error());
            m_status->setText(tr("The policy could not be loaded."));
            return;
        }
        m_saved = result.value();
        m_loaded = true;
        load(m_saved);
    });
}

void PolicyPanel::load(const Policy &policy)
{
    const QSignalBlocker b1(m_processes), b2(m_network), b3(m_hostExecution);
    m_readable->setItems(policy.readable);
    m_writable->setItems(policy.writable);
    m_denied->setItems(policy.denied);
    m_readOnly->setItems(policy.readOnly);
    m_allowedDomains->setItems(policy.allowedDomains);
    m_deniedDomains->setItems(policy.deniedDomains);
    m_processes->setCurrentIndex(m_processes->findData(int(policy.processes)));
    m_network->setCurrentIndex(m_network->findData(int(policy.network)));
    m_hostExecution->setCurrentIndex(m_hostExecution->findData(int(policy.hostExecution)));
    clearErrors();
    updateState();
}

Policy PolicyPanel::editedPolicy() const
{
    Policy policy = m_saved;
    policy.readable = m_readable->items();
    policy.writable = m_writable->items();
    policy.denied = m_denied->items();
    policy.readOnly = m_readOnly->items();
    policy.allowedDomains = m_allowedDomains->items();
    policy.deniedDomains = m_deniedDomains->items();
    policy.processes = Policy::ProcessConfinement(m_processes->currentData().toInt());
    policy.network = Policy::NetworkMode(m_network->currentData().toInt());
    policy.hostExecution = Policy::HostExecution(m_hostExecution->currentData().toInt());
    return policy;
}

bool PolicyPanel::isDirty() const
{
    return m_loaded && editedPolicy() != m_saved;
}

void PolicyPanel::updateState()
{
    const bool dirty = isDirty();
    m_apply->setEnabled(dirty && !m_busy);
    m_revert->setEnabled(dirty && !m_busy);
    const bool allowlist = m_network->currentData().toInt() == int(Policy::NetworkMode::Allowlist);
    m_allowedDomains->setEnabled(allowlist);
    m_deniedDomains->setEnabled(allowlist);
    m_domainsHint->setText(allowlist ? tr("Only the allowed domains are reachable, through the engine's filtering "
                                          "proxy; a denied entry wins over an allowed one.")
                                     : tr("The domain lists apply only in the “Allowed domains only” mode."));
    if (!m_busy)
        m_status->setText(dirty ? tr("Unsaved changes.") : QString());
    updateSummary();
    updateConflicts();
}

void PolicyPanel::updateConflicts()
{
    // Denied wins: a writable path inside a denied one is neither writable nor readable,
    // which the lists alone do not show. "~/" is the same home in both lists.
    auto expanded = [](const QString &path) {
        return path == QLatin1String("~") || path.startsWith(QLatin1String("~/")) ? QDir::homePath() + path.mid(1)
                                                                                  : QDir::cleanPath(path);
    };
    QStringList lines;
    for (const QString &writable : m_writable->items()) {
        for (const QString &denied : m_denied->items()) {
            if (Policy::isInside(expanded(writable), expanded(denied))) {
                lines << tr("“%1” is writable but inside the denied “%2”: denied wins, so commands can neither write "
                            "nor read it.")
                             .arg(writable, denied);
                break;
            }
        }
    }
    m_conflicts->setText(lines.join(QLatin1Char('\n')));
    m_conflicts->setVisible(!lines.isEmpty());
}

void PolicyPanel::updateSummary()
{
    // A choice's words before its explanation ("Deny — commands never run …" → "Deny"); a
    // translation may set them apart with an en dash instead.
    auto shortText = [](const QComboBox *combo) {
        static const QRegularExpression dash(QStringLiteral(" [\u2013\u2014] "));
        return combo->currentText().section(dash, 0, 0);
    };
    const Policy policy = editedPolicy();
    QString network = shortText(m_network);
    if (policy.network == Policy::NetworkMode::Allowlist)
        network = tr("%1 (%n domain(s))", nullptr, int(policy.allowedDomains.size())).arg(network);
    QStringList credentials;
    for (const PolicyCredential &credential : policy.credentials)
        credentials << tr("%1 (%2)").arg(credential.name, credential.hosts.join(QStringLiteral(", ")));
    QStringList lines{
        tr("<b>Network:</b> %1").arg(network.toHtmlEscaped()),
        tr("<b>Host execution:</b> %1").arg(shortText(m_hostExecution).toHtmlEscaped()),
        tr("<b>Processes:</b> %1").arg(shortText(m_processes).toHtmlEscaped()),
        tr("<b>Files:</b> %1 readable, %2 writable, %3 denied, %4 read-only")
            .arg(policy.readable.size())
            .arg(policy.writable.size())
            .arg(policy.denied.size())
            .arg(policy.readOnly.size()),
    };
    if (!credentials.isEmpty())
        lines << tr("<b>Credentials:</b> %1").arg(credentials.join(QStringLiteral("; ")).toHtmlEscaped());
    if (policy.upstreamProxy)
        lines << tr("<b>Upstream proxy:</b> %1").arg(policy.upstreamProxy->url.toHtmlEscaped());
    if (policy.sshAgent) {
        const QString hosts = policy.sshAgent->hosts.isEmpty() ? tr("none (signing only)")
                                                               : policy.sshAgent->hosts.join(QStringLiteral(", "));
        lines << tr("<b>SSH agent:</b> confirm %1; keys: %2; hosts: %3")
                     .arg(PolicySshAgent::confirmName(policy.sshAgent->confirm).toHtmlEscaped())
                     .arg(policy.sshAgent->keys.size())
                     .arg(hosts.toHtmlEscaped());
    }
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_summary->setAccessibleName(tr("Policy summary"));
}

void PolicyPanel::apply()
{
    const Policy policy = editedPolicy();
    m_busy = true;
    clearErrors();
    m_status->setText(tr("Saving the policy…"));
    updateState();
    whenReady(this, m_client->setPolicy(policy), [this, policy](const Status &status) {
        m_busy = false;
        if (!status) {
            showError(status.error());
            updateState();
            m_status->setText(tr("The policy was not saved."));
            return;
        }
        m_saved = policy;
        updateState();
        m_status->setText(tr("Policy saved. It applies to commands started from now on."));
        emit saved(policy);
    });
}

void PolicyPanel::revert()
{
    load(m_saved);
    m_status->setText(tr("Changes reverted."));
}

void PolicyPanel::clearErrors()
{
    m_error->clear();
    m_error->hide();
    for (StringListEditor *editor : { m_readable, m_writable, m_denied, m_readOnly, m_allowedDomains, m_deniedDomains })
        editor->setError({});
}

void PolicyPanel::showError(const Error &error)
{
    clearErrors();
    // The engine names the offending entry in `where` (e.g. "policy.filesystem.writable[1]"):
    // that row is marked in its list, with the message; only what names no list is shown below.
    const QList<std::pair<QString, StringListEditor *>> editors{
        { QStringLiteral("readable"), m_readable },           { QStringLiteral("writable"), m_writable },
        { QStringLiteral("readOnly"), m_readOnly },           { QStringLiteral("allowedDomains"), m_allowedDomains },
        { QStringLiteral("deniedDomains"), m_deniedDomains }, { QStringLiteral("denied"), m_denied },
    };
    static const QRegularExpression indexed(QStringLiteral("^([A-Za-z]+)\\[(\\d+)\\]$"));
    QStringList unplaced;
    int placed = 0;
    QList<Error> pending{ error };
    while (!pending.isEmpty()) {
        const Error current = pending.takeFirst();
        pending.append(current.details);
        if (!current.details.isEmpty() && current.where.isEmpty())
            continue;
        bool matched = false;
        for (const QString &part : current.where.split(QLatin1Char('.'))) {
            const QRegularExpressionMatch match = indexed.match(part);
            const QString key = match.hasMatch() ? match.captured(1) : part;
            for (const auto &entry : editors) {
                if (entry.first != key)
                    continue;
                if (match.hasMatch())
                    entry.second->markEntry(match.captured(2).toInt(), current.message);
                else
                    entry.second->setError(current.message);
                matched = true;
            }
        }
        if (matched)
            ++placed;
        else if (!unplaced.contains(current.message))
            unplaced << current.message;
    }
    QStringList lines;
    if (placed > 0)
        lines << tr("The policy was not saved: fix the entries marked in red (%1).").arg(placed);
    if (!unplaced.isEmpty())
        lines << tr("The engine rejected the policy: %1").arg(unplaced.join(QLatin1Char(' ')));
    m_error->setText(lines.join(QLatin1Char('\n')));
    m_error->show();
}

} // namespace sandbox
