#include "CredentialValues.h"

#include "SecretField.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QVBoxLayout>

namespace sandbox {

CredentialValues::CredentialValues(Client *client, QWidget *parent)
    : QGroupBox(tr("Credentials"), parent)
    , m_client(client)
    , m_state(new QLabel(this))
{
    setObjectName(QStringLiteral("policyCredentialsGroup"));
    auto *intro = new QLabel(tr("Commands see a placeholder; the engine's proxy puts the value in, only toward the "
                                "credential's hosts. A value is saved at once, where the backends' secrets are kept, "
                                "and never shown again."),
                             this);
    intro->setObjectName(QStringLiteral("policyCredentialsIntro"));
    intro->setWordWrap(true);
    intro->setEnabled(false);
    m_state->setObjectName(QStringLiteral("policyCredentialsState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setText(tr("Reading the credentials…"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_state);
    m_rows = new QVBoxLayout;
    m_rows->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_rows);

    // Another presenter (sandboxctl, the TUI) stored or removed a value, or the policy now
    // names other credentials.
    connect(m_client, &Client::credentialsChanged, this, &CredentialValues::reload);
    connect(m_client, &Client::policyChanged, this, &CredentialValues::reload);
    reload();
}

void CredentialValues::reload()
{
    const int serial = ++m_reloads;
    whenReady(this, m_client->credentials(), [this, serial](const Result<QList<CredentialInfo>> &result) {
        if (serial != m_reloads)
            return; // a later reload answers for the current state
        if (!result.ok()) {
            m_state->setStyleSheet(QStringLiteral("color: #c62828;"));
            m_state->setText(
                tr("Whether the credentials have values could not be read: %1").arg(result.error().toString()));
            m_state->show();
            return;
        }
        showCredentials(result.value());
    });
}

void CredentialValues::showCredentials(const QList<CredentialInfo> &credentials)
{
    QSet<QString> listed;
    for (const CredentialInfo &info : credentials)
        listed.insert(info.name);
    for (auto it = m_byName.begin(); it != m_byName.end();) {
        // A row being saved stays until its answer; the next reload takes it away.
        if (listed.contains(it.key()) || it->busy) {
            ++it;
            continue;
        }
        it->box->deleteLater();
        it = m_byName.erase(it);
    }
    int index = 0;
    for (const CredentialInfo &info : credentials) {
        Row &row = rowFor(info.name);
        describe(row, info);
        row.field->setConfigured(info.configured);
        updateSave(row);
        m_rows->removeWidget(row.box);
        m_rows->insertWidget(index++, row.box);
    }
    m_state->setStyleSheet(QString());
    m_state->setText(tr("The policy names no credentials. Add them to its \"credentials\" (sandboxctl policy set), "
                        "then set their values here."));
    m_state->setVisible(credentials.isEmpty());
}

CredentialValues::Row &CredentialValues::rowFor(const QString &name)
{
    if (auto it = m_byName.find(name); it != m_byName.end())
        return *it;
    const QString base = QStringLiteral("credential_") + name;
    Row row;
    row.box = new QWidget(this);
    row.box->setObjectName(base + QStringLiteral("_row"));
    auto *title = new QLabel(row.box);
    title->setObjectName(base + QStringLiteral("_name"));
    title->setText(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
    row.where = new QLabel(row.box);
    row.where->setObjectName(base + QStringLiteral("_where"));
    row.where->setWordWrap(true);
    row.field = new SecretField(name, tr("value of credential %1").arg(name), row.box);
    row.field->setNameBase(base);
    row.save = new QPushButton(tr("Save"), row.box);
    row.save->setObjectName(base + QStringLiteral("_save"));
    row.save->setAccessibleName(tr("Save the value of credential %1").arg(name));
    row.outcome = new QLabel(row.box);
    row.outcome->setObjectName(base + QStringLiteral("_outcome"));
    row.outcome->setWordWrap(true);
    row.outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row.outcome->hide();

    auto *actions = new QHBoxLayout;
    actions->addWidget(row.outcome, 1);
    actions->addStretch(0); // keeps Save its own size while there is no outcome to show
    actions->addWidget(row.save, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(row.box);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->addWidget(title);
    layout->addWidget(row.where);
    layout->addWidget(row.field);
    layout->addLayout(actions);

    connect(row.field, &SecretField::changed, this, [this, name] {
        auto edited = m_byName.find(name);
        if (edited == m_byName.end())
            return;
        if (!edited->busy)
            setOutcome(*edited, QString(), false);
        updateSave(*edited);
    });
    connect(row.field, &SecretField::submitted, this, [this, name] { save(name); });
    connect(row.save, &QPushButton::clicked, this, [this, name] { save(name); });
    return *m_byName.insert(name, row);
}

void CredentialValues::describe(Row &row, const CredentialInfo &info)
{
    QString text;
    if (!info.inPolicy)
        text = tr("Not in the policy: this stored value is not used. Remove it, or add the credential to the policy.");
    else if (info.env.isEmpty())
        text = tr("Put in only toward %1.").arg(info.hosts.join(QStringLiteral(", ")));
    else
        text = tr("Put in only toward %1; commands see a placeholder in %2.")
                   .arg(info.hosts.join(QStringLiteral(", ")), info.env);
    row.where->setText(text);
}

void CredentialValues::save(const QString &name)
{
    auto it = m_byName.find(name);
    if (it == m_byName.end() || it->busy)
        return;
    const SecretUpdate update = it->field->update();
    if (update.action == SecretUpdate::Action::Keep)
        return;
    const bool remove = update.action == SecretUpdate::Action::Remove;
    it->busy = true;
    it->field->setEnabled(false);
    setOutcome(*it, remove ? tr("Removing the value…") : tr("Saving the value…"), false);
    updateSave(*it);
    const QFuture<Status> done
        = remove ? m_client->removeCredential(name) : m_client->setCredential(name, update.value);
    whenReady(it->box, done, [this, name, remove](const Status &status) {
        auto row = m_byName.find(name);
        if (row == m_byName.end())
            return;
        row->busy = false;
        row->field->setEnabled(true);
        if (!status.ok()) {
            // Nothing changed: the field keeps what the user chose, to try again. The row
            // names the credential already; the engine's own location for it is left out.
            const Error &error = status.error();
            const QString reason = error.details.isEmpty() ? error.message : error.toString();
            setOutcome(*row,
                       remove ? tr("The value of %1 was not removed: %2").arg(name, reason)
                              : tr("The value of %1 was not saved: %2").arg(name, reason),
                       true);
            updateSave(*row);
            return;
        }
        row->field->reset();
        row->field->setConfigured(!remove);
        setOutcome(*row, remove ? tr("Value removed.") : tr("Value saved."), false);
        updateSave(*row);
        reload();
    });
}

void CredentialValues::updateSave(Row &row)
{
    // Offered once there is something to save: a typed value, or a removal chosen.
    const bool pending = row.field->update().action != SecretUpdate::Action::Keep;
    row.save->setEnabled(!row.busy && pending);
    row.save->setVisible(row.busy || pending);
}

void CredentialValues::setOutcome(Row &row, const QString &text, bool error)
{
    row.outcome->setText(text);
    row.outcome->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    row.outcome->setVisible(!text.isEmpty());
}

} // namespace sandbox
