#include "ProtocolServer.h"

#include "ServerLog.h"
#include "ServerParams.h"
#include "ServerSession.h"
#include "client/ProtocolMethods.h"
#include "client/Transport.h"
#include "core/Engine.h"
#include "protocol/JsonReader.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

namespace sandbox {

Q_LOGGING_CATEGORY(lcServer, "sandbox.server")

struct ProtocolServer::Route
{
    QLatin1String method;
    QStringList params; // every parameter the method accepts; others are rejected
    Handler handler;
};

const QList<ProtocolServer::Route> &ProtocolServer::routes()
{
    using S = QStringList;
    static const QList<Route> table{
        { Method::Hello, S{ QStringLiteral("protocolVersion"), QStringLiteral("client") }, &ProtocolServer::hello },
        { Method::BackendsList, S{}, &ProtocolServer::backendsList },
        { Method::BackendsDescribe, S{ QStringLiteral("ref") }, &ProtocolServer::backendsDescribe },
        { Method::BackendsActivate, S{ QStringLiteral("ref"), QStringLiteral("values"), QStringLiteral("secrets") },
          &ProtocolServer::backendsActivate },
        { Method::SettingsGet, S{ QStringLiteral("ref") }, &ProtocolServer::settingsGet },
        { Method::SettingsUpdate, S{ QStringLiteral("ref"), QStringLiteral("values"), QStringLiteral("secrets") },
          &ProtocolServer::settingsUpdate },
        { Method::SecretsReplace, S{ QStringLiteral("ref"), QStringLiteral("field"), QStringLiteral("value") },
          &ProtocolServer::secretsReplace },
        { Method::SecretsRemove, S{ QStringLiteral("ref"), QStringLiteral("field") }, &ProtocolServer::secretsRemove },
        { Method::PolicyGet, S{}, &ProtocolServer::policyGet },
        { Method::PolicySet, S{ QStringLiteral("policy") }, &ProtocolServer::policySet },
        { Method::CredentialsList, S{}, &ProtocolServer::credentialsList },
        { Method::CredentialsSet, S{ QStringLiteral("name"), QStringLiteral("value") },
          &ProtocolServer::credentialsSet },
        { Method::CredentialsRemove, S{ QStringLiteral("name") }, &ProtocolServer::credentialsRemove },
        { Method::CredentialsRotateAuthority, S{}, &ProtocolServer::credentialsRotateAuthority },
        { Method::ProcessSpawn, S{ QStringLiteral("request") }, &ProtocolServer::processSpawn },
        { Method::ProcessWrite, S{ QStringLiteral("processId"), QStringLiteral("data") },
          &ProtocolServer::processWrite },
        { Method::ProcessCloseStdin, S{ QStringLiteral("processId") }, &ProtocolServer::processCloseStdin },
        { Method::ProcessKill, S{ QStringLiteral("processId"), QStringLiteral("signal") },
          &ProtocolServer::processKill },
        { Method::ProcessResize, S{ QStringLiteral("processId"), QStringLiteral("rows"), QStringLiteral("columns") },
          &ProtocolServer::processResize },
        { Method::ProcessList, S{}, &ProtocolServer::processList },
        { Method::PacksList, S{}, &ProtocolServer::packsList },
        { Method::PacksInstall, S{ QStringLiteral("path") }, &ProtocolServer::packsInstall },
        { Method::PacksEnable, S{ QStringLiteral("packId") }, &ProtocolServer::packsEnable },
        { Method::PacksDisable, S{ QStringLiteral("packId") }, &ProtocolServer::packsDisable },
        { Method::PacksRemove, S{ QStringLiteral("packId") }, &ProtocolServer::packsRemove },
        { Method::InteractionAnswer, S{ QStringLiteral("answer") }, &ProtocolServer::interactionAnswer },
        { Method::EngineStatus, S{}, &ProtocolServer::engineStatus },
        { Method::RefusalsList, S{}, &ProtocolServer::refusalsList },
        { Method::RefusalsSubscribe, S{}, &ProtocolServer::refusalsSubscribe },
    };
    return table;
}

ProtocolServer::ProtocolServer(Engine &engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    // The engine emits from its worker threads; these connections queue to our thread.
    connect(&m_engine, &Engine::activationEvent, this, [this](const ActivationEvent &event) {
        broadcast(Notification::ActivationEvent, { { QStringLiteral("event"), event.toJson() } });
    });
    connect(&m_engine, &Engine::activationFinished, this, [this](const ActivationResult &result) {
        broadcast(Notification::ActivationFinished, { { QStringLiteral("result"), result.toJson() } });
    });
    connect(&m_engine, &Engine::cleanupWarning, this, [this](const CleanupWarning &warning) {
        broadcast(Notification::CleanupWarning, { { QStringLiteral("warning"), warning.toJson() } });
    });
    connect(&m_engine, &Engine::hostInteractionRequested, this, [this](const HostInteractionRequest &request) {
        broadcast(Notification::InteractionRequest, { { QStringLiteral("request"), request.toJson() } });
    });
    connect(&m_engine, &Engine::hostInteractionSettled, this, [this](const QString &id) {
        broadcast(Notification::InteractionSettled, { { QStringLiteral("id"), id } });
    });
    connect(&m_engine, &Engine::backendsChanged, this, [this] { broadcast(Notification::BackendsChanged, {}); });
    connect(&m_engine, &Engine::activeBackendChanged, this, [this](const BackendRef &ref) {
        broadcast(Notification::ActiveBackendChanged, { { QStringLiteral("ref"), ref.toJson() } });
    });
    connect(&m_engine, &Engine::policyChanged, this, [this](const Policy &policy) {
        broadcast(Notification::PolicyChanged, { { QStringLiteral("policy"), policy.toJson() } });
    });
    connect(&m_engine, &Engine::credentialsChanged, this, [this] { broadcast(Notification::CredentialsChanged, {}); });
    // The table's news reaches every client after what this turn of the event loop owes the
    // process's own client: the spawn's answer, the sandbox's start, process.exited.
    connect(&m_engine, &Engine::processStarted, this, [this](const ProcessInfo &info) {
        QMetaObject::invokeMethod(
            this,
            [this, process = info.toJson()] {
                broadcast(Notification::ProcessesChanged, { { QStringLiteral("process"), process } });
            },
            Qt::QueuedConnection);
    });
    connect(&m_engine, &Engine::processNoted, this, [this](const ProcessInfo &info) {
        broadcast(Notification::ProcessesChanged, { { QStringLiteral("process"), info.toJson() } });
    });
    connect(&m_engine, &Engine::refusalReported, this, [this](const Refusal &refusal) {
        const QJsonObject params{ { QStringLiteral("refusal"), refusal.toJson() } };
        for (ServerSession *session : std::as_const(m_sessions)) {
            if (session->isReady() && session->followsRefusals())
                session->notify(Notification::RefusalReported, params);
        }
    });
    connect(&m_engine, &Engine::processFinished, this, [this](quint64 processId, const ExitStatus &status) {
        std::optional<ProcessInfo> info = m_engine.process(processId);
        if (!info)
            return;
        info->running = false;
        info->exit = status;
        QMetaObject::invokeMethod(
            this,
            [this, process = info->toJson()] {
                broadcast(Notification::ProcessesChanged, { { QStringLiteral("process"), process } });
            },
            Qt::QueuedConnection);
    });
}

ProtocolServer::~ProtocolServer()
{
    killAllProcesses();
    const QList<ServerSession *> sessions = std::exchange(m_sessions, {});
    qDeleteAll(sessions);
}

void ProtocolServer::addConnection(std::unique_ptr<Transport> transport)
{
    Transport *t = transport.get();
    auto *session = new ServerSession(m_nextSessionId++, std::move(transport), this);
    m_sessions.append(session);
    connect(t, &Transport::messageReceived, session,
            [this, session](const QJsonObject &object) { onMessage(session, object); });
    connect(t, &Transport::malformedMessage, session, [session](const QString &error) {
        session->respondError(QJsonValue(QJsonValue::Null), RpcError{ RpcErrorCode::ParseError, error, {} });
    });
    connect(t, &Transport::protocolError, session, [session](const QString &error) {
        session->closeWithError(QJsonValue(QJsonValue::Null), RpcError{ RpcErrorCode::TooLarge, error, {} });
    });
    connect(t, &Transport::disconnected, session,
            [this, session](const QString &reason) { onSessionGone(session, reason); });
    qCInfo(lcServer, "client connected (session %llu, %s)", session->id(), qPrintable(session->peer()));
    emit sessionOpened(session->id(), session->peer());
}

int ProtocolServer::sessionCount() const
{
    return int(m_sessions.size());
}

void ProtocolServer::killAllProcesses()
{
    bool running = false;
    for (ServerSession *session : std::as_const(m_sessions)) {
        for (const std::shared_ptr<SandboxProcess> &process : std::as_const(session->processes()))
            running = running || process->isRunning();
    }
    // Their clients say why their commands end, instead of a bare kill.
    if (running)
        broadcast(Notification::EngineStopping, {});
    for (ServerSession *session : std::as_const(m_sessions)) {
        for (auto it = session->processes().cbegin(); it != session->processes().cend(); ++it) {
            if (it.value()->isRunning())
                m_engine.kill(it.key());
        }
    }
}

void ProtocolServer::onSessionGone(ServerSession *session, const QString &reason)
{
    if (!m_sessions.removeOne(session))
        return;
    // Its processes die with it: nobody is left to read their output or stop them.
    int killed = 0;
    for (auto it = session->processes().cbegin(); it != session->processes().cend(); ++it) {
        if (it.value()->isRunning()) {
            m_engine.kill(it.key());
            ++killed;
        }
    }
    qCInfo(lcServer, "client disconnected (session %llu, %s)%s%s; %d process(es) killed", session->id(),
           qPrintable(session->peer()), reason.isEmpty() ? "" : ": ", qPrintable(reason), killed);
    emit sessionClosed(session->id(), session->peer(), reason);
    session->deleteLater();
}

void ProtocolServer::broadcast(const QString &method, const QJsonObject &params)
{
    for (ServerSession *session : std::as_const(m_sessions)) {
        if (session->isReady())
            session->notify(method, params);
    }
}

void ProtocolServer::onMessage(ServerSession *session, const QJsonObject &object)
{
    const Result<RpcMessage> decoded = RpcMessage::fromJson(object);
    if (!decoded.ok()) {
        session->respondError(RpcMessage::salvageId(object),
                              RpcError::fromError(RpcErrorCode::InvalidRequest, decoded.error()));
        return;
    }
    const RpcMessage &message = decoded.value();
    if (message.kind != RpcMessage::Kind::Request) {
        // Clients send no notifications or responses in this protocol; a response needs an
        // id and a notification gets no answer, so these are dropped.
        return;
    }
    const Route *route = nullptr;
    for (const Route &candidate : routes()) {
        if (candidate.method == message.method) {
            route = &candidate;
            break;
        }
    }
    if (!route) {
        session->respondError(
            message.id,
            RpcError{
                RpcErrorCode::MethodNotFound, tr("unknown method \"%1\"").arg(message.method),
                Error{ QStringLiteral("method"), tr("unknown method \"%1\"").arg(message.method), {} }.toJson() });
        return;
    }
    if (!session->isReady() && route->handler != &ProtocolServer::hello) {
        session->respondError(message.id,
                              RpcError{ RpcErrorCode::HelloRequired,
                                        tr("the first request must be \"hello\" with the protocol version"),
                                        {} });
        return;
    }
    for (auto it = message.params.begin(); it != message.params.end(); ++it) {
        if (!route->params.contains(it.key())) {
            session->respondError(
                message.id,
                invalidParams(Error{ param(it.key()), tr("unknown parameter of %1").arg(message.method), {} }));
            return;
        }
    }
    (this->*route->handler)(session, message.id, message.params);
}

void ProtocolServer::hello(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue version = params.value(QStringLiteral("protocolVersion"));
    if (!version.isDouble() || version.toDouble() != double(int(version.toDouble()))) {
        s->respondError(id,
                        invalidParams(Error{ param(QStringLiteral("protocolVersion")),
                                             version.isUndefined()
                                                 ? tr("missing; expected an integer")
                                                 : tr("expected an integer, got %1").arg(JsonReader::typeName(version)),
                                             {} }));
        return;
    }
    const QJsonValue client = params.value(QStringLiteral("client"));
    if (!client.isUndefined() && !client.isString()) {
        s->respondError(id,
                        invalidParams(Error{ param(QStringLiteral("client")),
                                             tr("expected a string, got %1").arg(JsonReader::typeName(client)),
                                             {} }));
        return;
    }
    if (version.toInt() != ProtocolVersion) {
        s->closeWithError(id,
                          RpcError{ RpcErrorCode::VersionMismatch,
                                    tr("protocol version %1 is not supported; this engine speaks version %2")
                                        .arg(version.toInt())
                                        .arg(ProtocolVersion),
                                    {} });
        return;
    }
    s->markReady(client.toString());
    s->respond(id,
               QJsonObject{ { QStringLiteral("protocolVersion"), ProtocolVersion },
                            { QStringLiteral("server"), QStringLiteral("sandbox-studio engine") },
                            { QStringLiteral("version"), QStringLiteral(SANDBOX_VERSION) },
                            { QStringLiteral("pid"), QCoreApplication::applicationPid() } });
}

void ProtocolServer::engineStatus(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    int running = 0;
    for (const ProcessInfo &info : m_engine.processes())
        running += info.running ? 1 : 0;
    const std::optional<BackendRef> active = m_engine.activeRef();
    s->respond(id,
               QJsonObject{
                   { QStringLiteral("active"), active ? QJsonValue(active->toJson()) : QJsonValue() },
                   { QStringLiteral("warnings"), QJsonArray::fromStringList(m_engine.warnings()) },
                   { QStringLiteral("processes"), running },
                   { QStringLiteral("clients"), sessionCount() },
                   { QStringLiteral("server"),
                     QJsonObject{ { QStringLiteral("version"), QStringLiteral(SANDBOX_VERSION) },
                                  { QStringLiteral("pid"), QCoreApplication::applicationPid() },
                                  { QStringLiteral("protocolVersion"), ProtocolVersion } } },
               });
}

} // namespace sandbox
