#pragma once

#include "LineBuffer.h"
#include "protocol/HostInteraction.h"
#include "protocol/Policy.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QSocketNotifier;
class QTimer;

namespace sandbox {

class AcpTerminal;
class AgentPeer;
class Client;

// The ACP bridge: the editor's agent (on our stdin/stdout), the real agent behind it. It
// relays every message unchanged except that it offers the agent the client terminal and
// file-system capabilities and serves those methods itself, through the engine (the
// active backend, under the policy), and turns the engine's Host Interaction questions
// into session/request_permission toward the editor, or, for a question answered with
// text, into a form elicitation when the editor offers forms (no answer means deny).
class AcpBridge final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QStringList agentArgv;
        bool confineAgent = false; // run the agent itself through the engine
        QString workspace; // where sessions without a cwd work (the current directory)
        int answerTimeoutMs = 60000; // a question the editor leaves unanswered this long is denied
        int editorFd = 0;
        int outputFd = 1;
        // Called when the engine in use goes away: the Client of another one (reached or
        // hosted; it must outlive the bridge), or nullptr. Unset: the bridge does not go on
        // without its engine, and what needs one is refused.
        std::function<Client *(const QString &reason)> reachAnotherEngine;
    };

    AcpBridge(Client &client, Options options, QObject *parent = nullptr);
    ~AcpBridge() override;

    void start();
    // Serves from now on through `client` (the engine in use went away and another was
    // reached or hosted); `client` must outlive the bridge, as must the one it replaces,
    // which the terminals started through it still hold.
    void useEngine(Client &client);

signals:
    // The agent ended (its shell status) or could not start; the bridge is done.
    void finished(int status);

private:
    struct Question
    {
        HostInteractionRequest request;
        QTimer *timer = nullptr;
        bool form = false; // asked with elicitation/create, not session/request_permission
    };

    void readEditor();
    void editorClosed();
    void handleEditorLine(const QByteArray &line, bool overlong);
    void handleAgentLine(const QByteArray &line, bool overlong);
    void agentFinished(int status, const QString &reason);

    void serve(const QJsonValue &id, const QString &method, const QJsonObject &params, bool retried = false);
    void createTerminal(const QJsonValue &id, const QJsonObject &params, bool retried);
    void terminalCall(const QJsonValue &id, const QString &method, const QJsonObject &params);
    void readTextFile(const QJsonValue &id, const QJsonObject &params, bool retried);
    void writeTextFile(const QJsonValue &id, const QJsonObject &params, bool retried);
    QString workspaceFor(const QString &sessionId) const;

    void ask(const HostInteractionRequest &request);
    void askWithForm(const HostInteractionRequest &request);
    QString openQuestion(const HostInteractionRequest &request, bool form);
    void answerQuestion(const QString &key, bool accepted, const QString &value);
    void denyOpenQuestions();
    void forgetSettledQuestion(const QString &requestId);
    void handleQuestionResponse(const QString &key, const QJsonObject &response);
    void handlePermissionOutcome(const QString &key, const QJsonObject &response);
    void handleFormOutcome(const QString &key, const QJsonObject &response);

    void toEditor(const QJsonObject &message);
    void toEditorLine(const QByteArray &line);
    void toAgent(const QJsonObject &message);
    void refuseToAgent(const QJsonValue &id, int code, const QString &message);

    struct HeldCall
    {
        QJsonValue id;
        QString method;
        QJsonObject params;
    };

    void followEngine();
    // Reads the policy from the engine in use into m_policy (left as it was when it cannot
    // be read), then calls `then` with whether it was read.
    void readPolicy(std::function<void(bool read)> then);
    void engineLost(const QString &reason);
    // A call that could not reach the engine because `used` went away runs again through
    // the next engine, once; true when it will.
    bool retryOnNextEngine(const Client *used, const HeldCall &call, bool retried);

    Client *m_client;
    QList<QMetaObject::Connection> m_engineConnections; // questions, policy changes, its loss
    bool m_reaching = false; // another engine is being reached: calls that need one wait
    bool m_engineGone = false; // the engine went away and no other could be reached
    QList<HeldCall> m_heldCalls;
    Options m_options;
    std::unique_ptr<AgentPeer> m_agent;
    std::unique_ptr<QSocketNotifier> m_editorNotifier;
    LineBuffer m_editorLines;
    qint64 m_editorLineNumber = 0;
    qint64 m_agentLineNumber = 0;
    bool m_editorOpen = true;
    bool m_editorTakesForms = false; // the editor offered clientCapabilities.elicitation.form
    bool m_done = false;
    std::optional<Policy> m_policy;

    QHash<QString, QJsonValue> m_editorRequests; // editor -> agent, awaiting the agent's answer
    QHash<QString, QString> m_sessionRequests; // session/new or load id -> its cwd
    QHash<QString, QString> m_sessionWorkspaces; // sessionId -> cwd
    QString m_lastSessionId;

    std::map<QString, std::unique_ptr<AcpTerminal>> m_terminals;
    QMultiHash<QString, QJsonValue> m_exitWaiters; // terminalId -> agent request ids
    quint64 m_nextTerminal = 1;

    QHash<QString, Question> m_questions; // our request id key -> question
    quint64 m_nextRequest = 1;
};

} // namespace sandbox
