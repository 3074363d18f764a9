#include "HostInteractionPresenter.h"

#include "client/Client.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QVBoxLayout>

namespace sandbox {

HostInteractionPresenter::HostInteractionPresenter(Client *client, QWidget *window)
    : QObject(window)
    , m_client(client)
    , m_window(window)
{
    connect(m_client, &Client::hostInteractionRequested, this, &HostInteractionPresenter::present);
    connect(m_client, &Client::hostInteractionSettled, this, &HostInteractionPresenter::settle);
}

void HostInteractionPresenter::settle(const QString &id)
{
    const QPointer<QDialog> dialog = m_open.take(id);
    if (dialog)
        dialog->reject();
}

void HostInteractionPresenter::answer(const QString &id, bool accepted, const QString &value)
{
    // A dialog closed because the question was settled elsewhere answers nothing.
    if (!m_open.remove(id))
        return;
    HostInteractionResponse response;
    response.id = id;
    response.accepted = accepted;
    response.value = value;
    m_client->answerInteraction(response);
}

void HostInteractionPresenter::present(const HostInteractionRequest &request)
{
    const QString id = request.id;
    // The question is the dialog's body (a title bar elides it, some desktops hide it);
    // the message says what it is about.
    const QString question = request.title.isEmpty() ? request.message : request.title;
    const QString details = request.title.isEmpty() ? QString() : request.message;
    const QString title = tr("Sandbox Studio needs an answer");
    QDialog *dialog = nullptr;

    switch (request.kind) {
    case HostInteractionRequest::Kind::Confirm: {
        auto *box
            = new QMessageBox(QMessageBox::Question, title, question, QMessageBox::Yes | QMessageBox::No, m_window);
        box->setInformativeText(details);
        box->setObjectName(QStringLiteral("hostInteractionConfirm"));
        box->setDefaultButton(QMessageBox::No);
        box->button(QMessageBox::Yes)->setObjectName(QStringLiteral("hostInteractionYes"));
        box->button(QMessageBox::No)->setObjectName(QStringLiteral("hostInteractionNo"));
        connect(box, &QMessageBox::finished, this, [this, id, box](int) {
            answer(id, box->standardButton(box->clickedButton()) == QMessageBox::Yes, {});
        });
        dialog = box;
        break;
    }
    case HostInteractionRequest::Kind::Choice: {
        auto *choice = new QDialog(m_window);
        choice->setObjectName(QStringLiteral("hostInteractionChoice"));
        choice->setWindowTitle(title);
        auto *text = new QLabel(question, choice);
        text->setObjectName(QStringLiteral("hostInteractionQuestion"));
        text->setWordWrap(true);
        QFont bold = text->font();
        bold.setBold(true);
        text->setFont(bold);
        auto *about = new QLabel(details, choice);
        about->setObjectName(QStringLiteral("hostInteractionDetails"));
        about->setWordWrap(true);
        about->setVisible(!details.isEmpty());
        auto *combo = new QComboBox(choice);
        combo->setObjectName(QStringLiteral("hostInteractionChoiceCombo"));
        combo->setAccessibleName(question);
        for (const SelectOption &option : request.options)
            combo->addItem(option.label.isEmpty() ? option.value : option.label, option.value);
        const int preset = combo->findData(request.defaultValue);
        if (preset >= 0)
            combo->setCurrentIndex(preset);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, choice);
        buttons->setObjectName(QStringLiteral("hostInteractionButtons"));
        connect(buttons, &QDialogButtonBox::accepted, choice, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, choice, &QDialog::reject);
        auto *layout = new QVBoxLayout(choice);
        layout->addWidget(text);
        layout->addWidget(about);
        layout->addWidget(combo);
        layout->addWidget(buttons);
        connect(choice, &QDialog::finished, this, [this, id, combo](int result) {
            answer(id, result == QDialog::Accepted,
                   result == QDialog::Accepted ? combo->currentData().toString() : QString());
        });
        dialog = choice;
        break;
    }
    case HostInteractionRequest::Kind::Text:
    case HostInteractionRequest::Kind::Secret: {
        const bool secret = request.kind == HostInteractionRequest::Kind::Secret;
        auto *input = new QInputDialog(m_window);
        input->setObjectName(secret ? QStringLiteral("hostInteractionSecret") : QStringLiteral("hostInteractionText"));
        input->setWindowTitle(title);
        input->setLabelText(details.isEmpty() ? question : question + QStringLiteral("\n\n") + details);
        input->setInputMode(QInputDialog::TextInput);
        input->setTextEchoMode(secret ? QLineEdit::Password : QLineEdit::Normal);
        if (!secret)
            input->setTextValue(request.defaultValue);
        connect(input, &QInputDialog::finished, this, [this, id, input](int result) {
            const bool accepted = result == QDialog::Accepted;
            answer(id, accepted, accepted ? input->textValue() : QString());
            input->setTextValue({}); // a typed secret does not outlive the answer
        });
        dialog = input;
        break;
    }
    }
    m_open.insert(id, dialog);
    dialog->setProperty("interactionId", id);
    dialog->setAccessibleName(question);
    dialog->setAccessibleDescription(details);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::ApplicationModal);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    emit dialogShown(dialog);
}

} // namespace sandbox
