#include "BackendPanel.h"

#include "ActivationProgress.h"
#include "ActivationText.h"
#include "AdaptiveSplitter.h"
#include "BackendList.h"
#include "SchemaForm.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace sandbox {

namespace {

QLabel *detailLabel(const QString &name, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

BackendPanel::BackendPanel(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_list(new BackendList(this))
    , m_form(new SchemaForm(this))
    , m_status(new QLabel(this))
    , m_discard(new QPushButton(tr("Discard changes"), this))
    , m_save(new QPushButton(tr("Save settings"), this))
    , m_activate(new QPushButton(tr("Activate"), this))
    , m_progress(new ActivationProgress(client, this))
{
    setObjectName(QStringLiteral("backendPanel"));

    auto *details = new QWidget(this);
    details->setObjectName(QStringLiteral("backendDetails"));
    m_name = detailLabel(QStringLiteral("backendName"), details);
    QFont big = m_name->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_name->setFont(big);
    m_description = detailLabel(QStringLiteral("backendDescription"), details);
    m_source = detailLabel(QStringLiteral("backendSource"), details);
    m_availability = detailLabel(QStringLiteral("backendAvailability"), details);
    m_platforms = detailLabel(QStringLiteral("backendPlatforms"), details);
    m_reason = detailLabel(QStringLiteral("backendUnavailableReason"), details);
    m_reason->setFrameShape(QFrame::StyledPanel);
    m_reason->setMargin(6);
    m_reason->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4e5; color: #5f370e; border: 1px solid #f0c36d; }"));
    m_reason->hide();
    m_claimsBox = new QWidget(details);
    m_claimsBox->setObjectName(QStringLiteral("backendClaims"));
    // A grid, not a form layout: rows of wrapped text get the height their width needs on
    // the first show (a QFormLayout in a scroll area drew them over each other until resized).
    m_claims = new QGridLayout(m_claimsBox);
    m_claims->setContentsMargins(0, 0, 0, 0);
    m_claims->setColumnStretch(1, 1);
    const QStringList dimensions = BackendDescriptor::enforcementDimensions();
    for (int row = 0; row < dimensions.size(); ++row) {
        auto *title = new QLabel(BackendList::enforcementTitle(dimensions.at(row)) + QLatin1Char(':'), m_claimsBox);
        title->setObjectName(QStringLiteral("claimTitle_") + dimensions.at(row));
        title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        auto *value = new QLabel(m_claimsBox);
        value->setObjectName(QStringLiteral("claim_") + dimensions.at(row));
        value->setWordWrap(true);
        value->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
        m_claims->addWidget(title, row, 0, Qt::AlignTop);
        m_claims->addWidget(value, row, 1);
        m_claimLabels.append(value);
    }
    {
        auto *title = new QLabel(tr("Refusals shown:"), m_claimsBox);
        title->setObjectName(QStringLiteral("claimTitle_refusals"));
        title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_refusalsClaim = new QLabel(m_claimsBox);
        m_refusalsClaim->setObjectName(QStringLiteral("claim_refusals"));
        m_refusalsClaim->setWordWrap(true);
        m_refusalsClaim->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_refusalsClaim->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_refusalsClaim->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
        m_claims->addWidget(title, int(dimensions.size()), 0, Qt::AlignTop);
        m_claims->addWidget(m_refusalsClaim, int(dimensions.size()), 1);
    }

    auto *facts = new QFormLayout;
    facts->addRow(tr("Source:"), m_source);
    facts->addRow(tr("State:"), m_availability);
    facts->addRow(tr("Platforms:"), m_platforms);
    // What enforces the policy is long and read once; the settings, which the warning
    // above asks to fill in, come first, and the claims fold away.
    auto *claimsToggle = new QToolButton(this);
    claimsToggle->setObjectName(QStringLiteral("backendClaimsToggle"));
    claimsToggle->setText(tr("What enforces the policy with this backend"));
    claimsToggle->setAccessibleName(claimsToggle->text());
    claimsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    claimsToggle->setAutoRaise(true);
    claimsToggle->setCheckable(true);
    claimsToggle->setChecked(true);
    claimsToggle->setArrowType(Qt::DownArrow);
    connect(claimsToggle, &QToolButton::toggled, this, [this, claimsToggle](bool open) {
        claimsToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_claimsBox->setVisible(open);
    });

    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_name);
    detailsLayout->addWidget(m_description);
    detailsLayout->addLayout(facts);
    detailsLayout->addWidget(m_reason);

    auto *settingsGroup = new QGroupBox(tr("Settings"), this);
    settingsGroup->setObjectName(QStringLiteral("backendSettingsGroup"));
    auto *settingsLayout = new QVBoxLayout(settingsGroup);
    settingsLayout->addWidget(m_form);

    auto *scrolled = new QWidget(this);
    auto *scrolledLayout = new QVBoxLayout(scrolled);
    scrolledLayout->addWidget(details);
    scrolledLayout->addWidget(settingsGroup);
    scrolledLayout->addWidget(claimsToggle);
    scrolledLayout->addWidget(m_claimsBox);
    scrolledLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("backendScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Never sideways: text wraps to the pane, fields take the width there is.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(scrolled);

    m_status->setObjectName(QStringLiteral("backendStatus"));
    m_status->setWordWrap(true);
    m_discard->setObjectName(QStringLiteral("discardSettingsButton"));
    m_discard->setAccessibleName(tr("Discard the changes to these settings"));
    m_save->setObjectName(QStringLiteral("saveSettingsButton"));
    m_save->setAccessibleName(tr("Save the settings without activating"));
    m_activate->setObjectName(QStringLiteral("activateButton"));
    m_activate->setAccessibleName(tr("Activate the selected backend"));
    m_activate->setDefault(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_discard);
    buttons->addWidget(m_save);
    buttons->addWidget(m_activate);

    auto *progressGroup = new QGroupBox(tr("Activation"), this);
    progressGroup->setObjectName(QStringLiteral("activationGroup"));
    auto *progressLayout = new QVBoxLayout(progressGroup);
    progressLayout->addWidget(m_progress);

    // Left: the backends and what the last activation did; right: the selected one.
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(progressGroup);
    left->setMinimumWidth(260);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(scroll, 1);
    rightLayout->addLayout(buttons);

    auto *split = new AdaptiveSplitter(620, this);
    split->setObjectName(QStringLiteral("backendSplitter"));
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_list, &BackendList::backendSelected, this, &BackendPanel::showBackend);
    connect(m_form, &SchemaForm::changed, this, &BackendPanel::updateButtons);
    connect(m_save, &QPushButton::clicked, this, &BackendPanel::saveSettings);
    connect(m_activate, &QPushButton::clicked, this, &BackendPanel::activateSelected);
    connect(m_discard, &QPushButton::clicked, this, &BackendPanel::discardChanges);
    connect(m_client, &Client::backendsChanged, this, &BackendPanel::reload);
    connect(m_client, &Client::activeBackendChanged, this, &BackendPanel::reload);

    showDetails({});
    updateButtons();
    reload();
}

void BackendPanel::reload()
{
    whenReady(this, m_client->backends(), [this](const Result<QList<BackendInfo>> &result) {
        if (!result) {
            m_status->setText(tr("The backends could not be listed: %1").arg(result.error().toString()));
            return;
        }
        m_list->setBackends(result.value());
        QHash<QString, QString> names;
        for (const BackendInfo &info : result.value())
            names.insert(info.ref.toString(), info.descriptor.name);
        m_progress->setBackendNames(names);
        if (const auto selected = m_list->selectedBackend())
            showDetails(*selected);
        updateButtons();
    });
}

QString BackendPanel::nameOf(const BackendRef &ref) const
{
    const auto info = m_list->backend(ref);
    return info ? info->descriptor.name : ref.kind();
}

void BackendPanel::showBackend(const BackendRef &ref)
{
    const auto info = m_list->backend(ref);
    if (!info)
        return;
    showDetails(*info);
    loadSettings(*info);
    // The user went from one backend to another: the activation panel, which told the
    // story of another backend's activation, starts afresh. The list's own first choice
    // leaves it alone (it may be telling of the activation that restored the last backend).
    const bool userChoice = std::exchange(m_hadSelection, true);
    if (userChoice && !m_progress->isRunning() && m_progress->backend() != ref)
        m_progress->clear();
}

void BackendPanel::showDetails(const BackendInfo &info)
{
    const bool none = !info.ref.isValid();
    m_name->setText(none ? tr("No backend selected") : info.descriptor.name);
    m_description->setText(info.descriptor.description);
    m_source->setText(info.sourceLabel.isEmpty() ? (info.ref.isBuiltin() ? tr("Built-in") : info.ref.packId())
                                                 : info.sourceLabel);
    if (info.active)
        m_availability->setText(tr("Active — new commands run with this backend"));
    else if (!info.unenforced.isEmpty())
        m_availability->setText(tr("Cannot be activated under the current policy"));
    else if (!info.availability.available)
        m_availability->setText(tr("Unavailable"));
    else
        m_availability->setText(tr("Available"));
    m_platforms->setText(info.descriptor.platforms.isEmpty() ? tr("Not stated")
                                                             : info.descriptor.platforms.join(QStringLiteral(", ")));
    const QStringList dimensions = BackendDescriptor::enforcementDimensions();
    for (int row = 0; row < dimensions.size(); ++row) {
        const QString claim = info.descriptor.enforcement.value(dimensions.at(row));
        QLabel *value = m_claimLabels.at(row);
        value->setText(claim.isEmpty() ? tr("Not stated by this backend") : claim);
        value->setEnabled(!claim.isEmpty());
    }
    m_refusalsClaim->setText(info.descriptor.refusals.isEmpty() ? tr("Not stated by this backend")
                                                                : info.descriptor.refusals);
    m_refusalsClaim->setEnabled(!info.descriptor.refusals.isEmpty());
}

void BackendPanel::loadSettings(const BackendInfo &info)
{
    const quint64 request = ++m_settingsRequest;
    m_formRef.reset();
    m_form->clear();
    updateButtons();
    whenReady(this, m_client->settings(info.ref), [this, request, info](const Result<SettingsView> &result) {
        if (request != m_settingsRequest)
            return; // the user moved on to another backend meanwhile
        if (!result) {
            m_form->clear();
            m_form->showErrors(result.error());
            return;
        }
        m_form->setSchema(info.descriptor, result.value());
        m_formRef = info.ref;
        updateButtons();
    });
}

void BackendPanel::updateButtons()
{
    const auto selected = m_list->selectedBackend();
    const bool ready = selected && m_formRef && *m_formRef == selected->ref;
    const bool dirty = ready && m_form->isDirty();
    const bool busy = m_saving || m_activating;
    const bool active = selected && selected->active;
    m_discard->setEnabled(dirty && !busy);
    // The active backend's settings change only through activation, so runtime and the
    // stored settings never disagree.
    m_save->setEnabled(dirty && !busy && !active);
    m_save->setToolTip(active ? tr("The active backend's settings are applied by activating it again.") : QString());
    // Edited settings may be what makes an unavailable backend available (an endpoint, a
    // key): activating with them probes again, so they re-enable Activate.
    // Settings cannot make a backend enforce what it does not: a policy refusal stands
    // until the policy changes.
    const bool refused = selected && !active && !selected->unenforced.isEmpty();
    const bool usable = selected && !refused && (active || selected->availability.available || dirty);
    m_activate->setEnabled(ready && usable && !busy && (!active || dirty));
    m_activate->setText(active ? (dirty ? tr("Apply and reactivate") : tr("Active")) : tr("Activate"));
    m_activate->setToolTip(refused      ? tr("This backend cannot be activated under the current sandbox policy; the "
                                                  "reason is shown above.")
                               : usable ? QString()
                                        : tr("This backend is unavailable; the reason is shown above."));
    updateReason();
}

void BackendPanel::updateReason()
{
    const auto selected = m_list->selectedBackend();
    QStringList lines;
    // The policy's refusal first: it holds whatever the backend's availability.
    if (selected && !selected->active) {
        if (const QString refusal = BackendList::policyRefusal(*selected); !refusal.isEmpty())
            lines << refusal;
    }
    if (selected && !selected->active && !selected->availability.available) {
        const QString reason = BackendList::unavailableReason(*selected);
        lines << (reason.isEmpty() ? tr("This backend says it cannot run here.") : reason);
        lines << tr("It cannot be activated until that is fixed. Once the backend reports that it can run, it "
                    "shows as available here and in the tray.");
    }
    const bool ready = selected && m_formRef && *m_formRef == selected->ref;
    const QStringList missing = ready ? m_form->missingRequired() : QStringList();
    if (!missing.isEmpty())
        lines << tr("Required settings are missing: %1. Fill them in below to activate this backend.")
                     .arg(missing.join(QStringLiteral(", ")));
    m_reason->setText(lines.join(QLatin1Char('\n')));
    m_reason->setVisible(!lines.isEmpty());
}

void BackendPanel::discardChanges()
{
    if (const auto selected = m_list->selectedBackend())
        loadSettings(*selected);
    m_status->clear();
}

void BackendPanel::saveSettings()
{
    const auto selected = m_list->selectedBackend();
    if (!selected || !m_formRef)
        return;
    const BackendInfo info = *selected;
    m_saving = true;
    m_form->clearErrors();
    m_status->setText(tr("Saving the settings of “%1”…").arg(info.descriptor.name));
    updateButtons();
    whenReady(this, m_client->updateSettings(info.ref, m_form->values(), m_form->secretUpdates()),
              [this, info](const Status &status) {
                  m_saving = false;
                  if (!status) {
                      m_form->showErrors(status.error());
                      m_status->setText(tr("The settings of “%1” were not saved.").arg(info.descriptor.name));
                      updateButtons();
                      return;
                  }
                  m_status->setText(tr("Settings of “%1” saved.").arg(info.descriptor.name));
                  if (m_list->selectedBackend() && m_list->selectedBackend()->ref == info.ref)
                      loadSettings(info);
                  updateButtons();
              });
}

void BackendPanel::activateSelected()
{
    const auto selected = m_list->selectedBackend();
    if (!selected || !m_formRef)
        return;
    const BackendInfo info = *selected;
    std::optional<SettingsValues> candidate;
    if (m_form->isDirty())
        candidate = m_form->values();
    m_activating = true;
    m_form->clearErrors();
    m_status->clear();
    m_progress->begin(info.ref);
    updateButtons();
    whenReady(this, m_client->activate(info.ref, candidate, m_form->secretUpdates()),
              [this, info](const Result<ActivationResult> &reply) {
                  m_activating = false;
                  ActivationResult result;
                  if (reply) {
                      result = reply.value();
                  } else {
                      result.ref = info.ref;
                      result.error = reply.error();
                  }
                  QString summary;
                  if (result.ok) {
                      summary = tr("“%1” is now the active backend. Commands started from now on use it; commands "
                                   "already running keep the backend that started them.")
                                    .arg(info.descriptor.name);
                      m_status->clear();
                  } else {
                      const QString activeName = result.active.isValid() ? nameOf(result.active) : QString();
                      summary = ActivationText::failureSummary(result, info.descriptor.name, activeName);
                      // A setting the activation refused is marked at its field. A failure that
                      // names no field (a service that cannot be reached) is the activation's,
                      // told with its cause under "Activation", not as an error of the form.
                      if (!m_form->showErrors(result.error)) {
                          m_form->clearErrors();
                          m_status->setText(tr("Activation failed; the cause is shown under “Activation”."));
                      }
                  }
                  m_progress->finish(result, summary);
                  emit activationCompleted(result, summary);
                  reload();
                  if (result.ok && m_list->selectedBackend() && m_list->selectedBackend()->ref == info.ref)
                      loadSettings(info);
                  updateButtons();
              });
}

} // namespace sandbox
