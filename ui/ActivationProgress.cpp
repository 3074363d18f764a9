#include "ActivationProgress.h"

#include "ActivationText.h"
#include "server/Client.h"

#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QVBoxLayout>

namespace sandbox {

using S = StatusIcons::StepState;

ActivationProgress::ActivationProgress(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_steps(new QListWidget(this))
    , m_busy(new QProgressBar(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("activationProgress"));
    m_title->setObjectName(QStringLiteral("activationTitle"));
    m_title->setWordWrap(true);
    m_steps->setObjectName(QStringLiteral("activationSteps"));
    m_steps->setAccessibleName(tr("Activation steps"));
    m_steps->setSelectionMode(QAbstractItemView::NoSelection);
    m_steps->setFocusPolicy(Qt::NoFocus);
    m_steps->setIconSize(QSize(16, 16));
    // One line per step, all seven always in view; long details are elided here and
    // shown whole in the tooltip and the summary.
    m_steps->setWordWrap(false);
    m_steps->setTextElideMode(Qt::ElideRight);
    m_steps->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_steps->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_steps->setFrameShape(QFrame::NoFrame);
    m_busy->setObjectName(QStringLiteral("activationBusy"));
    m_busy->setAccessibleName(tr("Activation in progress"));
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumHeight(8);
    m_busy->hide();
    m_summary->setObjectName(QStringLiteral("activationSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    for (ActivationStep step : allActivationSteps()) {
        auto *item = new QListWidgetItem(ActivationText::stepTitle(step), m_steps);
        item->setData(Qt::UserRole + 1, int(step));
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_busy);
    layout->addWidget(m_steps);
    layout->addWidget(m_summary);
    reset();
    m_title->setText(tr("No activation has run in this session."));

    connect(client, &Client::activationEvent, this, &ActivationProgress::onEvent);
}

void ActivationProgress::reset()
{
    for (ActivationStep step : allActivationSteps())
        setStep(step, StatusIcons::StepState::Pending, {});
    m_summary->clear();
    m_summary->setStyleSheet({});
}

void ActivationProgress::begin(const QString &candidateName)
{
    reset();
    m_activationId = 0; // adopt the next activation the engine reports
    m_running = true;
    m_title->setText(tr("Activating “%1”…").arg(candidateName));
    m_busy->show();
}

void ActivationProgress::onEvent(const ActivationEvent &event)
{
    if (event.activationId != m_activationId) {
        // A new activation (ours, or one the tray or another client started).
        reset();
        m_activationId = event.activationId;
        if (!m_running)
            m_title->setText(tr("Activating “%1”…").arg(m_names.value(event.ref.toString(), event.ref.toString())));
        m_running = true;
        m_busy->show();
    }
    S state = S::Running;
    switch (event.state) {
    case ActivationEvent::State::Started:
        state = S::Running;
        break;
    case ActivationEvent::State::Succeeded:
        state = S::Succeeded;
        break;
    case ActivationEvent::State::Failed:
        state = S::Failed;
        break;
    case ActivationEvent::State::Skipped:
        state = S::Skipped;
        break;
    case ActivationEvent::State::Warning:
        state = S::Warning;
        break;
    }
    setStep(event.step, state, event.message);
}

void ActivationProgress::finish(const ActivationResult &result, const QString &summary)
{
    m_running = false;
    m_busy->hide();
    if (result.activationId != 0)
        m_activationId = result.activationId;
    for (ActivationStep step : allActivationSteps()) {
        const S current = stepState(step);
        if (current == S::Pending || current == S::Running)
            setStep(step, result.ok ? S::Succeeded : S::Skipped, {});
    }
    if (!result.ok && result.failedStep && stepState(*result.failedStep) != S::Failed)
        setStep(*result.failedStep, S::Failed, result.error.message);
    m_title->setText(result.ok ? tr("Activation finished.") : tr("Activation failed."));
    m_summary->setText(summary);
    m_summary->setStyleSheet(result.ok ? QString() : QStringLiteral("color: #c62828;"));
}

StatusIcons::StepState ActivationProgress::stepState(ActivationStep step) const
{
    return StatusIcons::StepState(m_steps->item(int(step))->data(Qt::UserRole).toInt());
}

void ActivationProgress::setStep(ActivationStep step, StatusIcons::StepState state, const QString &message)
{
    QListWidgetItem *item = m_steps->item(int(step));
    item->setData(Qt::UserRole, int(state));
    item->setIcon(StatusIcons::step(state));
    QString stateText;
    switch (state) {
    case S::Pending:
        stateText = tr("pending");
        break;
    case S::Running:
        stateText = tr("running");
        break;
    case S::Succeeded:
        stateText = tr("succeeded");
        break;
    case S::Failed:
        stateText = tr("failed");
        break;
    case S::Skipped:
        stateText = tr("not run");
        break;
    case S::Warning:
        stateText = tr("warning");
        break;
    }
    const QString title = ActivationText::stepTitle(step);
    // Details only where they matter; the summary below carries the whole story.
    QString detail;
    if (state == S::Failed || state == S::Warning)
        detail = message.section(QLatin1Char('\n'), 0, 0);
    else if (state == S::Skipped)
        detail = stateText;
    item->setText(detail.isEmpty() ? title : tr("%1 — %2").arg(title, detail));
    item->setToolTip(message);
    int height = 2 * m_steps->frameWidth();
    for (int row = 0; row < m_steps->count(); ++row)
        height += m_steps->sizeHintForRow(row);
    m_steps->setFixedHeight(height + 2);
    item->setData(Qt::AccessibleTextRole, tr("%1: %2").arg(title, stateText));
}

} // namespace sandbox
