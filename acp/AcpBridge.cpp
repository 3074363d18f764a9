#include "AcpBridge.h"

#include "AcpParams.h"
#include "AcpTerminal.h"
#include "AgentPeer.h"
#include "JsonRpcLine.h"
#include "client/Client.h"
#include "client/WhenReady.h"
#include "fdio/FdIo.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <unistd.h>

namespace sandbox {

using namespace acpparams;

namespace {

// Where `path` really is: symbolic links resolved, or, for a path that does not exist,
// the path cleaned of "." and ".." (the engine refuses a working directory that does not exist).
QString resolvedPath(const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(path) : canonical;
}

} // namespace

AcpBridge::AcpBridge(Client &client, Options options, QObject *parent)
    : QObject(parent)
    , m_client(&client)
    , m_options(std::move(options))
    , m_agent(std::make_unique<AgentPeer>())
    , m_editorLines(JsonRpcLine::maxLineBytes)
{
    if (m_options.workspace.isEmpty())
        m_options.workspace = QDir::currentPath();
    m_options.workspace = QDir::cleanPath(m_options.workspace);
    connect(m_agent.get(), &AgentPeer::lineReceived, this, &AcpBridge::handleAgentLine);
    connect(m_agent.get(), &AgentPeer::finished, this, &AcpBridge::agentFinished);
    followEngine();
}

void AcpBridge::followEngine()
{
    m_engineConnections = {
        connect(m_client, &Client::hostInteractionRequested, this, &AcpBridge::ask),
        connect(m_client, &Client::policyChanged, this, [this](const Policy &policy) { m_policy = policy; }),
        connect(m_client, &Client::disconnected, this, &AcpBridge::engineLost),
        connect(m_client, &Client::hostInteractionSettled, this, &AcpBridge::forgetSettledQuestion),
    };
}

void AcpBridge::engineLost(const QString &reason)
{
    if (!m_options.reachAnotherEngine || m_done || m_reaching) {
        m_engineGone = true;
        return;
    }
    m_reaching = true;
    // Not inside the lost Client's own signal: reaching another may run an event loop.
    QMetaObject::invokeMethod(
        this,
        [this, reason] {
            Client *next = m_options.reachAnotherEngine(reason);
            m_reaching = false;
            if (next)
                useEngine(*next);
            else
                m_engineGone = true;
            const QList<HeldCall> held = std::exchange(m_heldCalls, {});
            for (const HeldCall &call : held)
                serve(call.id, call.method, call.params, true);
        },
        Qt::QueuedConnection);
}

bool AcpBridge::retryOnNextEngine(const Client *used, const HeldCall &call, bool retried)
{
    if (retried || used->isConnected() || !m_options.reachAnotherEngine || m_done)
        return false;
    if (m_client != used) {
        serve(call.id, call.method, call.params, true);
        return true;
    }
    if (m_engineGone)
        return false;
    // The loss is being (or about to be) reported: the call waits for the next engine.
    m_heldCalls.append(call);
    return true;
}

void AcpBridge::useEngine(Client &client)
{
    // Reads and writes in flight through the old engine still end through it.
    for (const QMetaObject::Connection &connection : std::as_const(m_engineConnections))
        disconnect(connection);
    m_client = &client;
    m_engineGone = false;
    followEngine();
    readPolicy({});
}

void AcpBridge::readPolicy(std::function<void(bool read)> then)
{
    whenReady(this, m_client->policy(), [this, then = std::move(then)](const Result<Policy> &policy) {
        if (policy.ok())
            m_policy = policy.value();
        if (then)
            then(policy.ok());
    });
}

AcpBridge::~AcpBridge()
{
    m_terminals.clear();
}

void AcpBridge::start()
{
    // The editor is read once the policy is known: `initialize` advertises file access by
    // it, and an editor that sends it at once must not be offered what the policy denies.
    readPolicy([this](bool read) {
        if (!read)
            qWarning().noquote() << tr("The sandbox policy could not be read; file access is not offered to the "
                                       "agent.");
        m_editorNotifier = std::make_unique<QSocketNotifier>(m_options.editorFd, QSocketNotifier::Read);
        connect(m_editorNotifier.get(), &QSocketNotifier::activated, this, &AcpBridge::readEditor);
    });

    if (m_options.confineAgent)
        m_agent->startConfined(*m_client, m_options.agentArgv, m_options.workspace);
    else
        m_agent->startOnHost(m_options.agentArgv);
}

void AcpBridge::readEditor()
{
    char buffer[65536];
    const ssize_t n = ::read(m_options.editorFd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        const QByteArray rest = m_editorLines.takeRest();
        if (!rest.trimmed().isEmpty())
            handleEditorLine(rest, false);
        editorClosed();
        return;
    }
    for (const LineBuffer::Line &line : m_editorLines.append(QByteArray(buffer, n))) {
        if (!line.overlong && line.bytes.trimmed().isEmpty())
            continue;
        handleEditorLine(line.bytes, line.overlong);
    }
}

void AcpBridge::editorClosed()
{
    if (!m_editorOpen)
        return;
    m_editorOpen = false;
    m_editorNotifier->setEnabled(false);
    // Nobody is left to answer.
    denyOpenQuestions();
    m_agent->closeInput();
    // An agent that does not end once its input is gone is ended.
    QTimer::singleShot(5000, this, [this] { m_agent->kill(); });
}

void AcpBridge::handleEditorLine(const QByteArray &line, bool overlong)
{
    ++m_editorLineNumber;
    const QString where = tr("editor line %1").arg(m_editorLineNumber);
    if (overlong) {
        toEditor(JsonRpcLine::errorResponse(
            QJsonValue::Null, JsonRpcLine::ParseError,
            tr("%1: the message is longer than %2 bytes; ignored").arg(where).arg(JsonRpcLine::maxLineBytes)));
        return;
    }
    QJsonValue id;
    const Result<JsonRpcLine> parsed = JsonRpcLine::parse(line, where, &id);
    if (!parsed.ok()) {
        const bool json = !parsed.error().message.startsWith(QLatin1String("not JSON"));
        toEditor(JsonRpcLine::errorResponse(id, json ? JsonRpcLine::InvalidRequest : JsonRpcLine::ParseError,
                                            parsed.error().toString()));
        return;
    }
    const JsonRpcLine &message = parsed.value();
    if (message.kind == JsonRpcLine::Kind::Response) {
        if (message.id.isString() && message.id.toString().startsWith(ourIdPrefix)) {
            handleQuestionResponse(JsonRpcLine::idKey(message.id), message.object);
            return;
        }
        toAgent(message.object);
        return;
    }
    if (message.kind == JsonRpcLine::Kind::Request) {
        const QString key = JsonRpcLine::idKey(message.id);
        m_editorRequests.insert(key, message.id);
        if (message.method == QLatin1String("session/new") || message.method == QLatin1String("session/load")) {
            const QJsonObject params = message.params.toObject();
            // The editor names the session's workspace; the agent never does.
            const QString cwd = params.value(QLatin1String("cwd")).toString();
            const QString workspace = QDir::isAbsolutePath(cwd) ? QDir::cleanPath(cwd) : QString();
            m_sessionRequests.insert(key, workspace);
            if (message.method == QLatin1String("session/load")) {
                const QString session = params.value(QLatin1String("sessionId")).toString();
                m_sessionWorkspaces.insert(session, workspace);
                m_lastSessionId = session;
            }
        }
        if (message.method == QLatin1String("initialize")) {
            QJsonObject object = message.object;
            QJsonObject params = message.params.toObject();
            QJsonObject capabilities = params.value(QLatin1String("clientCapabilities")).toObject();
            m_editorTakesForms
                = capabilities.value(QLatin1String("elicitation")).toObject().value(QLatin1String("form")).isObject();
            // Unknown (the policy could not be read) offers nothing.
            const bool readable = m_policy && !m_policy->readable.isEmpty();
            const bool writable = m_policy && !m_policy->writable.isEmpty();
            capabilities.insert(QStringLiteral("fs"),
                                QJsonObject{ { QStringLiteral("readTextFile"), readable },
                                             { QStringLiteral("writeTextFile"), writable } });
            capabilities.insert(QStringLiteral("terminal"), true);
            params.insert(QStringLiteral("clientCapabilities"), capabilities);
            object.insert(QStringLiteral("params"), params);
            toAgent(object);
            return;
        }
    }
    m_agent->write(line + '\n');
}

void AcpBridge::handleAgentLine(const QByteArray &line, bool overlong)
{
    ++m_agentLineNumber;
    const QString where = tr("agent line %1").arg(m_agentLineNumber);
    if (overlong) {
        refuseToAgent(QJsonValue::Null, JsonRpcLine::ParseError,
                      tr("%1: the message is longer than %2 bytes; ignored").arg(where).arg(JsonRpcLine::maxLineBytes));
        return;
    }
    QJsonValue id;
    const Result<JsonRpcLine> parsed = JsonRpcLine::parse(line, where, &id);
    if (!parsed.ok()) {
        qWarning().noquote() << parsed.error().toString();
        const bool json = !parsed.error().message.startsWith(QLatin1String("not JSON"));
        refuseToAgent(id, json ? JsonRpcLine::InvalidRequest : JsonRpcLine::ParseError, parsed.error().toString());
        return;
    }
    const JsonRpcLine &message = parsed.value();
    if (message.kind == JsonRpcLine::Kind::Response) {
        const QString key = JsonRpcLine::idKey(message.id);
        m_editorRequests.remove(key);
        if (m_sessionRequests.contains(key)) {
            const QString cwd = m_sessionRequests.take(key);
            const QString session = message.result.toObject().value(QLatin1String("sessionId")).toString();
            if (!session.isEmpty()) {
                m_sessionWorkspaces.insert(session, cwd);
                m_lastSessionId = session;
            }
        }
        toEditorLine(line + '\n');
        return;
    }
    if (message.kind == JsonRpcLine::Kind::Request) {
        if (message.id.isString() && message.id.toString().startsWith(ourIdPrefix)) {
            refuseToAgent(
                message.id, JsonRpcLine::InvalidRequest,
                tr("%1: request ids starting with \"%2\" are reserved by sandbox-acp").arg(where, ourIdPrefix));
            return;
        }
        if (message.method.startsWith(QLatin1String("terminal/")) || message.method.startsWith(QLatin1String("fs/"))) {
            if (!message.params.isObject()) {
                refuseToAgent(message.id, JsonRpcLine::InvalidParams,
                              tr("%1: %2 needs params as an object").arg(where, message.method));
                return;
            }
            serve(message.id, message.method, message.params.toObject());
            return;
        }
    }
    toEditorLine(line + '\n');
}

void AcpBridge::agentFinished(int status, const QString &reason)
{
    if (m_done)
        return;
    m_done = true;
    const QString why = reason.isEmpty() ? tr("the agent exited with status %1").arg(status)
                                         : tr("the agent could not run: %1").arg(reason);
    if (!reason.isEmpty())
        qWarning().noquote() << why;
    for (const QJsonValue &id : std::as_const(m_editorRequests))
        toEditor(JsonRpcLine::errorResponse(id, JsonRpcLine::InternalError, why));
    m_editorRequests.clear();
    denyOpenQuestions();
    m_terminals.clear();
    emit finished(status);
}

void AcpBridge::serve(const QJsonValue &id, const QString &method, const QJsonObject &params, bool retried)
{
    const bool needsEngine = method == QLatin1String("terminal/create") || method == QLatin1String("fs/read_text_file")
        || method == QLatin1String("fs/write_text_file");
    if (needsEngine && m_reaching) {
        m_heldCalls.append(HeldCall{ id, method, params });
        return;
    }
    if (method == QLatin1String("terminal/create"))
        createTerminal(id, params, retried);
    else if (method == QLatin1String("terminal/output") || method == QLatin1String("terminal/wait_for_exit")
             || method == QLatin1String("terminal/kill") || method == QLatin1String("terminal/release"))
        terminalCall(id, method, params);
    else if (method == QLatin1String("fs/read_text_file"))
        readTextFile(id, params, retried);
    else if (method == QLatin1String("fs/write_text_file"))
        writeTextFile(id, params, retried);
    else
        refuseToAgent(id, JsonRpcLine::MethodNotFound, tr("%1: no such client method").arg(method));
}

QString AcpBridge::workspaceFor(const QString &sessionId) const
{
    const QString cwd = m_sessionWorkspaces.value(sessionId);
    return cwd.isEmpty() ? m_options.workspace : cwd;
}

void AcpBridge::createTerminal(const QJsonValue &id, const QJsonObject &params, bool retried)
{
    const QString method = QStringLiteral("terminal/create");
    ParamReader read{ params, method, {} };
    const QString session = read.string(QStringLiteral("sessionId"), true);
    const QString command = read.string(QStringLiteral("command"), true);
    const QString cwd = read.absolutePath(QStringLiteral("cwd"), false);
    const std::optional<qint64> limit = read.integer(QStringLiteral("outputByteLimit"));
    SpawnRequest request;
    request.argv.append(command);
    const QJsonValue args = params.value(QLatin1String("args"));
    if (!args.isUndefined() && !args.isNull() && !args.isArray() && read.problem.isEmpty())
        read.problem = tr("%1: params.args must be an array of strings").arg(method);
    for (qsizetype i = 0; i < args.toArray().size(); ++i) {
        const QJsonValue arg = args.toArray().at(i);
        if (!arg.isString() && read.problem.isEmpty())
            read.problem = tr("%1: params.args[%2] must be a string").arg(method).arg(i);
        request.argv.append(arg.toString());
    }
    const QJsonValue env = params.value(QLatin1String("env"));
    if (!env.isUndefined() && !env.isNull() && !env.isArray() && read.problem.isEmpty())
        read.problem = tr("%1: params.env must be an array of {name, value}").arg(method);
    for (qsizetype i = 0; i < env.toArray().size(); ++i) {
        const QJsonObject variable = env.toArray().at(i).toObject();
        const QJsonValue name = variable.value(QLatin1String("name"));
        const QJsonValue value = variable.value(QLatin1String("value"));
        if ((!name.isString() || name.toString().isEmpty() || name.toString().contains(QLatin1Char('='))
             || !value.isString())
            && read.problem.isEmpty())
            read.problem
                = tr("%1: params.env[%2] must be {name, value} with a non-empty name without '='").arg(method).arg(i);
        request.env.insert(name.toString(), value.toString());
    }
    if (command.isEmpty() && read.problem.isEmpty())
        read.problem = tr("%1: params.command must not be empty").arg(method);
    if (!read.problem.isEmpty()) {
        refuseToAgent(id, JsonRpcLine::InvalidParams, read.problem);
        return;
    }
    // The terminal starts where the agent asks, but only inside the session's workspace,
    // and the policy's ${workspace} stays that workspace.
    const QString workspace = workspaceFor(session);
    if (!cwd.isEmpty() && !Policy::isInside(resolvedPath(cwd), resolvedPath(workspace))) {
        refuseToAgent(id, JsonRpcLine::Refused,
                      tr("%1: the working directory %2 is outside the session's workspace %3; nothing was run")
                          .arg(method, cwd, workspace));
        return;
    }
    request.cwd = cwd.isEmpty() ? workspace : QDir::cleanPath(cwd);
    request.workspace = workspace;
    if (!request.env.contains(QStringLiteral("PATH")))
        request.env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    if (!session.isEmpty())
        m_lastSessionId = session;

    const QString terminalId = QStringLiteral("term-%1").arg(m_nextTerminal++);
    auto terminal = std::make_unique<AcpTerminal>(*m_client, request, limit.value_or(-1));
    AcpTerminal *raw = terminal.get();
    m_terminals.emplace(terminalId, std::move(terminal));
    connect(raw, &AcpTerminal::started, this, [this, id, terminalId] {
        toAgent(JsonRpcLine::response(id, QJsonObject{ { QStringLiteral("terminalId"), terminalId } }));
    });
    const Client *used = m_client;
    connect(raw, &AcpTerminal::failedToStart, this,
            [this, id, terminalId, command, method, used, params, retried](const Error &error) {
                if (!retryOnNextEngine(used, HeldCall{ id, method, params }, retried))
                    refuseToAgent(
                        id, JsonRpcLine::Refused,
                        tr("terminal/create: the sandbox refused to run %1: %2").arg(command, error.toString()));
                // The terminal is still emitting this signal: it goes once control is back in the loop.
                const auto found = m_terminals.find(terminalId);
                if (found != m_terminals.end()) {
                    found->second.release()->deleteLater();
                    m_terminals.erase(found);
                }
            });
    connect(raw, &AcpTerminal::exited, this, [this, raw, terminalId] {
        if (!raw->hasStarted())
            return;
        const QList<QJsonValue> waiters = m_exitWaiters.values(terminalId);
        m_exitWaiters.remove(terminalId);
        for (const QJsonValue &waiter : waiters)
            toAgent(JsonRpcLine::response(waiter, raw->exitStatusJson()));
    });
}

void AcpBridge::terminalCall(const QJsonValue &id, const QString &method, const QJsonObject &params)
{
    ParamReader read{ params, method, {} };
    read.string(QStringLiteral("sessionId"), true);
    const QString terminalId = read.string(QStringLiteral("terminalId"), true);
    if (!read.problem.isEmpty()) {
        refuseToAgent(id, JsonRpcLine::InvalidParams, read.problem);
        return;
    }
    const auto found = m_terminals.find(terminalId);
    if (found == m_terminals.end() || !found->second->hasStarted()) {
        refuseToAgent(id, JsonRpcLine::InvalidParams,
                      tr("%1: no terminal \"%2\" (never created, or released)").arg(method, terminalId));
        return;
    }
    AcpTerminal &terminal = *found->second;
    if (method == QLatin1String("terminal/output")) {
        toAgent(JsonRpcLine::response(id, terminal.outputResponse()));
    } else if (method == QLatin1String("terminal/wait_for_exit")) {
        if (terminal.hasExited())
            toAgent(JsonRpcLine::response(id, terminal.exitStatusJson()));
        else
            m_exitWaiters.insert(terminalId, id);
    } else if (method == QLatin1String("terminal/kill")) {
        terminal.kill();
        toAgent(JsonRpcLine::response(id, QJsonObject()));
    } else {
        const QList<QJsonValue> waiters = m_exitWaiters.values(terminalId);
        m_exitWaiters.remove(terminalId);
        for (const QJsonValue &waiter : waiters)
            refuseToAgent(waiter, JsonRpcLine::Refused,
                          tr("terminal/wait_for_exit: terminal \"%1\" was released").arg(terminalId));
        m_terminals.erase(found); // kills the command when it still runs
        toAgent(JsonRpcLine::response(id, QJsonObject()));
    }
}

void AcpBridge::toEditor(const QJsonObject &message)
{
    toEditorLine(JsonRpcLine::serialize(message));
}

void AcpBridge::toEditorLine(const QByteArray &line)
{
    if (m_editorOpen)
        fdio::writeAll(m_options.outputFd, line.constData(), std::size_t(line.size()));
}

void AcpBridge::toAgent(const QJsonObject &message)
{
    m_agent->write(JsonRpcLine::serialize(message));
}

void AcpBridge::refuseToAgent(const QJsonValue &id, int code, const QString &message)
{
    toAgent(JsonRpcLine::errorResponse(id, code, message));
}

} // namespace sandbox
