#pragma once

#include "protocol/HostInteraction.h"

#include <QHash>
#include <QObject>
#include <QPointer>

class QDialog;
class QWidget;

namespace sandbox {

class Client;

// Shows each Host Interaction request as a native dialog (confirm, choice, text, secret)
// and answers it through the Client. Dialogs are application-modal but never block the
// event loop (open(), not exec()). Their objectNames: "hostInteractionConfirm",
// "hostInteractionChoice" (combo "hostInteractionChoiceCombo"), "hostInteractionText",
// "hostInteractionSecret"; each carries the request id in the "interactionId" property.
class HostInteractionPresenter final : public QObject
{
    Q_OBJECT

public:
    HostInteractionPresenter(Client *client, QWidget *window);

signals:
    void dialogShown(QWidget *dialog);

private:
    void present(const HostInteractionRequest &request);
    void answer(const QString &id, bool accepted, const QString &value);
    // The question was answered elsewhere, timed out or refused: its dialog closes unanswered.
    void settle(const QString &id);

    Client *m_client = nullptr;
    QPointer<QWidget> m_window;
    QHash<QString, QPointer<QDialog>> m_open; // question id -> its dialog, until answered
};

} // namespace sandbox
