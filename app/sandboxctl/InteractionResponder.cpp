#include "InteractionResponder.h"

#include "Terminal.h"
#include "client/Client.h"

namespace sandbox {

InteractionResponder::InteractionResponder(Client &client, QMap<QString, QString> answers, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_answers(std::move(answers))
{
    connect(&m_client, &Client::hostInteractionRequested, this, &InteractionResponder::onRequest);
}

std::optional<HostInteractionResponse> InteractionResponder::responseFor(const HostInteractionRequest &request,
                                                                         const QString &value, QString *error)
{
    HostInteractionResponse response;
    response.id = request.id;
    switch (request.kind) {
    case HostInteractionRequest::Kind::Confirm: {
        const QString v = value.trimmed().toLower();
        static const QStringList yes{ QStringLiteral("y"), QStringLiteral("yes"), QStringLiteral("true"),
                                      QStringLiteral("1"), QStringLiteral("accept") };
        static const QStringList no{ QStringLiteral("n"), QStringLiteral("no"),     QStringLiteral("false"),
                                     QStringLiteral("0"), QStringLiteral("refuse"), QString() };
        if (yes.contains(v))
            response.accepted = true;
        else if (no.contains(v))
            response.accepted = false;
        else {
            *error = tr("answer yes or no");
            return std::nullopt;
        }
        return response;
    }
    case HostInteractionRequest::Kind::Choice: {
        QStringList values;
        for (const SelectOption &option : request.options) {
            values.append(option.value);
            if (option.value == value || option.label == value) {
                response.accepted = true;
                response.value = option.value;
                return response;
            }
        }
        *error = tr("choose one of: %1").arg(values.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    case HostInteractionRequest::Kind::Text:
    case HostInteractionRequest::Kind::Secret:
        response.accepted = true;
        response.value = value;
        return response;
    }
    return std::nullopt;
}

QString InteractionResponder::answerKey(const HostInteractionRequest &request)
{
    return request.subject.isEmpty() ? request.id : request.subject;
}

void InteractionResponder::onRequest(const HostInteractionRequest &request)
{
    if (!m_enabled)
        return;
    std::optional<HostInteractionResponse> response;
    const QString key = answerKey(request);
    // The id is accepted too: a question without a subject may still be answered by it.
    const QString given = m_answers.contains(key) ? key : request.id;
    if (m_answers.contains(given)) {
        QString error;
        response = responseFor(request, m_answers.value(given), &error);
        if (!response)
            Terminal::err(tr("sandboxctl: --answer %1: %2\n").arg(given, error));
    } else if (Terminal::isInteractive()) {
        response = prompt(request);
    } else {
        Terminal::err(tr("sandboxctl: the engine asks \"%1\" (%2, answer key %3): %4\n"
                         "sandboxctl: no terminal to answer on; refused. To answer, run again with --answer %3=VALUE\n")
                          .arg(request.title, HostInteractionRequest::kindName(request.kind), key, request.message));
    }
    if (!response) {
        m_unanswerable = true;
        response = HostInteractionResponse{ request.id, false, QString() };
    }
    m_client.answerInteraction(*response);
}

std::optional<HostInteractionResponse> InteractionResponder::prompt(const HostInteractionRequest &request)
{
    Terminal::err(QStringLiteral("%1\n%2\n").arg(request.title, request.message));
    for (int attempt = 0; attempt < 3; ++attempt) {
        std::optional<QString> value;
        switch (request.kind) {
        case HostInteractionRequest::Kind::Confirm:
            value = Terminal::readLine(tr("Continue? [y/N] "));
            break;
        case HostInteractionRequest::Kind::Choice:
            for (const SelectOption &option : request.options)
                Terminal::err(QStringLiteral("  %1  %2\n").arg(option.value, option.label));
            value = Terminal::readLine(tr("Choice: "));
            break;
        case HostInteractionRequest::Kind::Text:
            value = Terminal::readLine(request.defaultValue.isEmpty() ? tr("Answer: ")
                                                                      : tr("Answer [%1]: ").arg(request.defaultValue));
            if (value && value->isEmpty())
                value = request.defaultValue;
            break;
        case HostInteractionRequest::Kind::Secret:
            value = Terminal::readSecret(tr("Answer (not shown): "));
            break;
        }
        if (!value)
            return std::nullopt;
        QString error;
        if (auto response = responseFor(request, *value, &error))
            return response;
        Terminal::err(error + QLatin1Char('\n'));
    }
    return std::nullopt;
}

} // namespace sandbox
