#include "ActivationProgress.h"

#include "ActivationText.h"
#include "client/Client.h"

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
    updateTexts();

    connect(client, &Client::activationEvent, this, &ActivationProgress::onEvent);
    connect(client, &Client::activationFinished, this, &ActivationProgress::onFinished);
}

void ActivationProgress::clear()
{
    if (m_running)
        return;
    reset();
    m_ref = BackendRef();
    m_phase = Phase::Idle;
    m_cleared = true;
    updateTexts();
}

void ActivationProgress::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSummary();
}

void ActivationProgress::fitSummary()
{
    const int width = m_summary->width() > 0 ? m_summary->width() : contentsRect().width();
    m_summary->setMinimumHeight(m_summary->text().isEmpty() ? 0 : m_summary->heightForWidth(width));
}

void ActivationProgress::reset()
{
    for (ActivationStep step : allActivationSteps())
        setStep(step, StatusIcons::StepState::Pending, {});
    m_result.reset();
    m_customSummary.clear();
}

QString ActivationProgress::nameOf(const BackendRef &ref) const
{
    // A backend the list does not know (yet) is still named, never shown as a raw ref.
    return m_names.value(ref.toString(), ref.isValid() ? ref.kind() : QString());
}

QString ActivationProgress::withNames(const QString &message) const
{
    if (!m_ref.isValid())
        return message;
    QString text = message;
    return text.replace(m_ref.toString(), nameOf(m_ref));
}

void ActivationProgress::setBackendNames(const QHash<QString, QString> &names)
{
    m_names = names;
    updateTexts();
}

void ActivationProgress::begin(const BackendRef &candidate)
{
    if (m_running && m_activationId != 0)
        return; // another activation is on screen; ours is queued behind it and shows next
    reset();
    m_activationId = 0; // adopt the next activation the engine reports
    m_ref = candidate;
    m_phase = Phase::Running;
    m_running = true;
    m_busy->show();
    updateTexts();
}

void ActivationProgress::onEvent(const ActivationEvent &event)
{
    if (event.activationId != m_activationId) {
        // A new activation (ours, or one the tray, start-up or another client started).
        reset();
        m_activationId = event.activationId;
        m_ref = event.ref;
        m_phase = Phase::Running;
        m_running = true;
        m_busy->show();
        updateTexts();
    }
    if (m_phase != Phase::Running)
        return;
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

void ActivationProgress::onFinished(const ActivationResult &result)
{
    // Every activation ends here, whoever started it; one refused before it ran reports no
    // events and is shown only when it is the one this window asked for.
    const bool shown = result.activationId != 0 && result.activationId == m_activationId;
    const bool adopted = m_activationId == 0 && m_running && result.ref == m_ref;
    if (shown || adopted)
        applyResult(result);
}

void ActivationProgress::finish(const ActivationResult &result, const QString &summary)
{
    const bool newerRunning
        = m_running && m_activationId != 0 && result.activationId != 0 && result.activationId != m_activationId;
    if (newerRunning)
        return;
    applyResult(result);
    m_customSummary = summary;
    updateTexts();
}

void ActivationProgress::applyResult(const ActivationResult &result)
{
    m_running = false;
    m_phase = Phase::Finished;
    m_busy->hide();
    if (result.activationId != 0)
        m_activationId = result.activationId;
    if (result.ref.isValid())
        m_ref = result.ref;
    for (ActivationStep step : allActivationSteps()) {
        const S current = stepState(step);
        if (current == S::Pending || current == S::Running)
            setStep(step, result.ok ? S::Succeeded : S::Skipped, {});
    }
    if (!result.ok && result.failedStep && stepState(*result.failedStep) != S::Failed)
        setStep(*result.failedStep, S::Failed, result.error.message);
    m_result = result;
    m_customSummary.clear();
    updateTexts();
}

void ActivationProgress::updateTexts()
{
    const QString name = nameOf(m_ref);
    switch (m_phase) {
    case Phase::Idle:
        m_title->setText(m_cleared ? tr("The steps of the next activation show here.")
                                   : tr("No activation has run in this session."));
        m_summary->clear();
        fitSummary();
        return;
    case Phase::Running:
        m_title->setText(tr("Activating “%1”…").arg(name));
        m_summary->clear();
        m_summary->setStyleSheet({});
        fitSummary();
        return;
    case Phase::Finished:
        break;
    }
    const bool ok = m_result && m_result->ok;
    m_title->setText(ok ? tr("Activation of “%1” finished.").arg(name) : tr("Activation of “%1” failed.").arg(name));
    QString text = m_customSummary;
    if (text.isEmpty() && m_result) {
        text = ok ? tr("“%1” is now the active backend. Commands started from now on use it; commands already "
                       "running keep the backend that started them.")
                        .arg(name)
                  : ActivationText::failureSummary(*m_result, name,
                                                   m_result->active.isValid() ? nameOf(m_result->active) : QString());
    }
    m_summary->setText(text);
    m_summary->setStyleSheet(ok ? QString() : QStringLiteral("color: #c62828;"));
    fitSummary();
}

QString ActivationProgress::title() const
{
    return m_title->text();
}

QString ActivationProgress::summary() const
{
    return m_summary->text();
}

StatusIcons::StepState ActivationProgress::stepState(ActivationStep step) const
{
    return StatusIcons::StepState(m_steps->item(int(step))->data(Qt::UserRole).toInt());
}

void ActivationProgress::setStep(ActivationStep step, StatusIcons::StepState state, const QString &engineMessage)
{
    const QString message = withNames(engineMessage);
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
    // A running step's message is what it is doing now (a download's progress).
    if (state == S::Failed || state == S::Warning || state == S::Running)
        detail = message.section(QLatin1Char('\n'), 0, 0);
    else if (state == S::Skipped)
        detail = stateText;
    item->setText(detail.isEmpty() ? title : tr("%1 — %2").arg(title, detail));
    // A row is one line and may be elided: its tooltip always holds the whole of it.
    item->setToolTip(message.isEmpty() ? tr("%1: %2").arg(title, stateText) : tr("%1: %2").arg(title, message));
    int height = 2 * m_steps->frameWidth();
    for (int row = 0; row < m_steps->count(); ++row)
        height += m_steps->sizeHintForRow(row);
    m_steps->setFixedHeight(height + 2);
    item->setData(Qt::AccessibleTextRole, tr("%1: %2").arg(title, stateText));
}

} // namespace sandbox
