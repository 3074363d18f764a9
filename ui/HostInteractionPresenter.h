#pragma once

#include "protocol/HostInteraction.h"

#include <QObject>
#include <QPointer>

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

    Client *m_client = nullptr;
    QPointer<QWidget> m_window;
};

} // namespace sandbox
