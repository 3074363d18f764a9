#pragma once

#include "StatusIcons.h"
#include "protocol/ActivationEvent.h"

#include <QHash>
#include <QWidget>

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

    // An activation of `candidateName` was requested: every step pending, busy shown.
    void begin(const QString &candidateName);
    // The outcome, with the sentence to show.
    void finish(const ActivationResult &result, const QString &summary);
    bool isRunning() const { return m_running; }
    // Display names by canonical ref, for activations this window did not start.
    void setBackendNames(const QHash<QString, QString> &names) { m_names = names; }
    StatusIcons::StepState stepState(ActivationStep step) const;

private:
    void reset();
    void onEvent(const ActivationEvent &event);
    void setStep(ActivationStep step, StatusIcons::StepState state, const QString &message);

    QLabel *m_title = nullptr;
    QListWidget *m_steps = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_summary = nullptr;
    QHash<QString, QString> m_names;
    quint64 m_activationId = 0;
    bool m_running = false;
};

} // namespace sandbox
