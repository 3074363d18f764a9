#pragma once

#include "protocol/HostInteraction.h"

#include <QMap>
#include <QObject>
#include <QString>

namespace sandbox {

class Client;

// Answers Host Interaction questions for the CLI: from --answer KEY=VALUE when given,
// else by prompting on a terminal, else refusing with an error that names the question and
// its answer key (a script cannot answer, and must not hang waiting).
class InteractionResponder final : public QObject
{
    Q_OBJECT

public:
    InteractionResponder(Client &client, QMap<QString, QString> answers, QObject *parent = nullptr);

    // Only a command that can cause a question (activate, run, packs ...) answers them;
    // other commands leave them to whichever presenter asked for the work.
    void setEnabled(bool enabled) { m_enabled = enabled; }
    // A question came that could not be answered here (the command must fail).
    bool hadUnanswerable() const { return m_unanswerable; }
    void forgetUnanswerable() { m_unanswerable = false; }

    // The KEY of --answer KEY=VALUE for `request`: what it asks about (its subject, the same
    // each time the question is asked), else its id.
    static QString answerKey(const HostInteractionRequest &request);
    // Turns VALUE into a response for `request`; an error message when it does not fit.
    static std::optional<HostInteractionResponse> responseFor(const HostInteractionRequest &request,
                                                              const QString &value, QString *error);

private:
    void onRequest(const HostInteractionRequest &request);
    std::optional<HostInteractionResponse> prompt(const HostInteractionRequest &request);

    Client &m_client;
    QMap<QString, QString> m_answers;
    bool m_enabled = false;
    bool m_unanswerable = false;
};

} // namespace sandbox
