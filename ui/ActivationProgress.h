#pragma once

#include "StatusIcons.h"
#include "protocol/ActivationEvent.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QProgressBar;

namespace sandbox {

class Client;

// The seven steps of the activation transaction as they happen, for any activation the
// engine runs (started here, from the tray or by another client). Each step row carries
// its state in Qt::UserRole (a StatusIcons::StepState).
class ActivationProgress final : public QWidget
{
    Q_OBJECT

public:
    explicit ActivationProgress(Client *client, QWidget *parent = nullptr);

    // An activation of `candidate` was requested here: every step pending, busy shown.
    void begin(const BackendRef &candidate);
    // The outcome, with the sentence to show (replaces the generic one).
    void finish(const ActivationResult &result, const QString &summary);
    bool isRunning() const { return m_running; }
    // The backend whose activation is (or was last) shown.
    BackendRef backend() const { return m_ref; }
    // Back to no activation shown (steps pending, no summary), unless one is running.
    void clear();
    // Display names by canonical ref; texts shown before the names were known are redone.
    void setBackendNames(const QHash<QString, QString> &names);
    StatusIcons::StepState stepState(ActivationStep step) const;
    QString title() const;
    QString summary() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    enum class Phase { Idle, Running, Finished };

    // The summary gets the height its wrapped text needs at this width, so the layout
    // never draws it over the step rows.
    void fitSummary();

    void reset();
    void onEvent(const ActivationEvent &event);
    void onFinished(const ActivationResult &result);
    void applyResult(const ActivationResult &result);
    void updateTexts();
    QString nameOf(const BackendRef &ref) const;
    // An engine message with the activating backend's ref in it, told with its name instead.
    QString withNames(const QString &message) const;
    void setStep(ActivationStep step, StatusIcons::StepState state, const QString &engineMessage);

    QLabel *m_title = nullptr;
    QListWidget *m_steps = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_summary = nullptr;
    QHash<QString, QString> m_names;
    quint64 m_activationId = 0;
    BackendRef m_ref; // the backend being (or last) activated
    Phase m_phase = Phase::Idle;
    std::optional<ActivationResult> m_result;
    QString m_customSummary;
    bool m_running = false;
    bool m_cleared = false;
};

} // namespace sandbox
