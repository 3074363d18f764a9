#include "AcpBridge.h"
#include "AcpParams.h"
#include "JsonRpcLine.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QJsonArray>
#include <QTimer>

namespace sandbox {

using namespace acpparams;

void AcpBridge::ask(const HostInteractionRequest &request)
{
    if (!m_editorOpen || m_done) {
        m_client->answerInteraction(HostInteractionResponse{ request.id, false, QString() });
        return;
    }
    QJsonArray options;
    switch (request.kind) {
    case HostInteractionRequest::Kind::Confirm:
        options.append(QJsonObject{ { QStringLiteral("optionId"), QStringLiteral("allow") },
                                    { QStringLiteral("name"), tr("Allow") },
                                    { QStringLiteral("kind"), QStringLiteral("allow_once") } });
        break;
    case HostInteractionRequest::Kind::Choice:
        for (const SelectOption &option : request.options)
            options.append(
                QJsonObject{ { QStringLiteral("optionId"), QString(QStringLiteral("choice:") + option.value) },
                             { QStringLiteral("name"), option.label },
                             { QStringLiteral("kind"), QStringLiteral("allow_once") } });
        break;
    case HostInteractionRequest::Kind::Text:
        if (m_editorTakesForms && !m_lastSessionId.isEmpty()) {
            askWithForm(request);
            return;
        }
        // A permission request has no text field: refused, and said so.
        if (m_editorTakesForms)
            qWarning().noquote()
                << tr("refused the question \"%1\": no session is open yet to ask the editor in").arg(request.title);
        else
            qWarning().noquote() << tr("refused the question \"%1\": the editor offers no form elicitation, "
                                       "and a permission request cannot carry a typed answer")
                                        .arg(request.title);
        m_client->answerInteraction(HostInteractionResponse{ request.id, false, QString() });
        return;
    case HostInteractionRequest::Kind::Secret:
        // An elicitation form shows what is typed in clear and passes it through the editor:
        // secrets are entered in Studio, the terminal UI or sandboxctl, never here.
        qWarning().noquote() << tr("refused the question \"%1\": secrets are not asked through the editor; "
                                   "answer it in Sandbox Studio, sandboxctl tui or sandboxctl")
                                    .arg(request.title);
        m_client->answerInteraction(HostInteractionResponse{ request.id, false, QString() });
        return;
    }
    options.append(QJsonObject{ { QStringLiteral("optionId"), QStringLiteral("reject") },
                                { QStringLiteral("name"), tr("Deny") },
                                { QStringLiteral("kind"), QStringLiteral("reject_once") } });
    const QString text
        = request.message.isEmpty() ? request.title : QString(request.title + QStringLiteral("\n\n") + request.message);
    const QJsonObject toolCall{ { QStringLiteral("toolCallId"), QString(QStringLiteral("sandbox-") + request.id) },
                                { QStringLiteral("title"), request.title },
                                { QStringLiteral("kind"), QStringLiteral("execute") },
                                { QStringLiteral("status"), QStringLiteral("pending") },
                                { QStringLiteral("content"),
                                  QJsonArray{
                                      QJsonObject{ { QStringLiteral("type"), QStringLiteral("content") },
                                                   { QStringLiteral("content"),
                                                     QJsonObject{ { QStringLiteral("type"), QStringLiteral("text") },
                                                                  { QStringLiteral("text"), text } } } } } } };
    const QString requestId = openQuestion(request, false);
    toEditor(JsonRpcLine::request(requestId, QStringLiteral("session/request_permission"),
                                  QJsonObject{ { QStringLiteral("sessionId"), m_lastSessionId },
                                               { QStringLiteral("toolCall"), toolCall },
                                               { QStringLiteral("options"), options } }));
}

QString AcpBridge::openQuestion(const HostInteractionRequest &request, bool form)
{
    const QString requestId = ourIdPrefix + QString::number(m_nextRequest++);
    const QString key = JsonRpcLine::idKey(requestId);
    Question question{ request, new QTimer(this), form };
    question.timer->setSingleShot(true);
    connect(question.timer, &QTimer::timeout, this, [this, key] { answerQuestion(key, false, QString()); });
    question.timer->start(m_options.answerTimeoutMs);
    m_questions.insert(key, question);
    return requestId;
}

// A question answered with text, as a form of one required text field.
void AcpBridge::askWithForm(const HostInteractionRequest &request)
{
    QJsonObject field{ { QStringLiteral("type"), QStringLiteral("string") },
                       { QStringLiteral("title"), request.title } };
    if (!request.message.isEmpty())
        field.insert(QStringLiteral("description"), request.message);
    if (!request.defaultValue.isEmpty())
        field.insert(QStringLiteral("default"), request.defaultValue);
    const QJsonObject schema{ { QStringLiteral("type"), QStringLiteral("object") },
                              { QStringLiteral("title"), request.title },
                              { QStringLiteral("properties"), QJsonObject{ { QStringLiteral("value"), field } } },
                              { QStringLiteral("required"), QJsonArray{ QStringLiteral("value") } } };
    const QString text
        = request.message.isEmpty() ? request.title : QString(request.title + QStringLiteral("\n\n") + request.message);
    const QString requestId = openQuestion(request, true);
    toEditor(JsonRpcLine::request(requestId, QStringLiteral("elicitation/create"),
                                  QJsonObject{ { QStringLiteral("sessionId"), m_lastSessionId },
                                               { QStringLiteral("mode"), QStringLiteral("form") },
                                               { QStringLiteral("message"), text },
                                               { QStringLiteral("requestedSchema"), schema } }));
}

void AcpBridge::handleQuestionResponse(const QString &key, const QJsonObject &response)
{
    if (!m_questions.contains(key))
        return; // answered already (timed out): the late answer changes nothing
    if (m_questions.value(key).form)
        handleFormOutcome(key, response);
    else
        handlePermissionOutcome(key, response);
}

// Only "accept" with a text value answers; decline, cancel, an error or anything else denies.
void AcpBridge::handleFormOutcome(const QString &key, const QJsonObject &response)
{
    const QJsonObject result = response.value(QLatin1String("result")).toObject();
    const QJsonValue value = result.value(QLatin1String("content")).toObject().value(QLatin1String("value"));
    if (result.value(QLatin1String("action")).toString() != QLatin1String("accept") || !value.isString()) {
        answerQuestion(key, false, QString());
        return;
    }
    answerQuestion(key, true, value.toString());
}

void AcpBridge::handlePermissionOutcome(const QString &key, const QJsonObject &response)
{
    const HostInteractionRequest &request = m_questions.value(key).request;
    const QJsonObject outcome
        = response.value(QLatin1String("result")).toObject().value(QLatin1String("outcome")).toObject();
    if (outcome.value(QLatin1String("outcome")).toString() != QLatin1String("selected")) {
        answerQuestion(key, false, QString());
        return;
    }
    const QString option = outcome.value(QLatin1String("optionId")).toString();
    if (request.kind == HostInteractionRequest::Kind::Confirm && option == QLatin1String("allow")) {
        answerQuestion(key, true, QString());
        return;
    }
    if (request.kind == HostInteractionRequest::Kind::Choice && option.startsWith(QLatin1String("choice:"))) {
        const QString value = option.mid(7);
        for (const SelectOption &candidate : request.options) {
            if (candidate.value == value) {
                answerQuestion(key, true, value);
                return;
            }
        }
    }
    answerQuestion(key, false, QString());
}

void AcpBridge::answerQuestion(const QString &key, bool accepted, const QString &value)
{
    if (!m_questions.contains(key))
        return;
    const Question question = m_questions.take(key);
    question.timer->deleteLater();
    m_client->answerInteraction(HostInteractionResponse{ question.request.id, accepted, value });
}

void AcpBridge::denyOpenQuestions()
{
    for (const QString &key : m_questions.keys())
        answerQuestion(key, false, QString());
}

void AcpBridge::forgetSettledQuestion(const QString &requestId)
{
    // Settled elsewhere: the editor's answer, if one still comes, answers nothing.
    for (auto it = m_questions.begin(); it != m_questions.end(); ++it) {
        if (it->request.id == requestId) {
            it->timer->deleteLater();
            m_questions.erase(it);
            return;
        }
    }
}

} // namespace sandbox
