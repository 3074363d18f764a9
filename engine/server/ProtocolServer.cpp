#include "ProtocolServer.h"

#include "ProtocolMethods.h"
#include "ServerLog.h"
#include "ServerSession.h"
#include "Transport.h"
#include "core/Engine.h"
#include "protocol/JsonReader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QSet>

namespace sandbox {

Q_LOGGING_CATEGORY(lcServer, "sandbox.server")

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::ProtocolServer", text);
}

// Process output is cut into pieces so that each notification stays far below the
// message limit once base64-encoded.
constexpr qsizetype OutputChunk = 1024 * 1024;

RpcError invalidParams(const Error &error)
{
    return RpcError::fromError(RpcErrorCode::InvalidParams, error);
}

RpcError engineError(const Error &error)
{
    return RpcError::fromError(RpcErrorCode::EngineError, error);
}

QString param(const QString &key)
{
    return QStringLiteral("params.") + key;
}

Result<BackendRef> readRef(const QJsonObject &params)
{
    const QJsonValue value = params.value(QStringLiteral("ref"));
    if (value.isUndefined())
        return Error{ param(QStringLiteral("ref")), tr("missing; expected a backend reference"), {} };
    if (value.isString()) {
        // Hand-written clients may use the canonical text form ("builtin:auto").
        Result<BackendRef> parsed = BackendRef::parse(value.toString());
        if (!parsed.ok())
            return Error{ param(QStringLiteral("ref")), parsed.error().message, {} };
        return parsed;
    }
    return BackendRef::fromJson(value, param(QStringLiteral("ref")));
}

Result<QString> readString(const QJsonObject &params, const QString &key)
{
    const QJsonValue value = params.value(key);
    if (value.isUndefined())
        return Error{ param(key), tr("missing; expected a string"), {} };
    if (!value.isString() || value.toString().isEmpty())
        return Error{ param(key), tr("expected a non-empty string, got %1").arg(JsonReader::typeName(value)), {} };
    return value.toString();
}

Result<quint64> readProcessId(const QJsonObject &params)
{
    const QJsonValue value = params.value(QStringLiteral("processId"));
    if (value.isUndefined())
        return Error{ param(QStringLiteral("processId")), tr("missing; expected a process id"), {} };
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number < 1 || number != double(quint64(number)) || number > 9007199254740991.0)
        return Error{ param(QStringLiteral("processId")),
                      tr("expected a positive integer, got %1").arg(JsonReader::typeName(value)),
                      {} };
    return quint64(number);
}

Result<QList<SecretUpdate>> readSecretUpdates(const QJsonObject &params)
{
    const QJsonValue value = params.value(QStringLiteral("secrets"));
    if (value.isUndefined())
        return QList<SecretUpdate>{};
    if (!value.isArray())
        return Error{ param(QStringLiteral("secrets")),
                      tr("expected an array, got %1").arg(JsonReader::typeName(value)),
                      {} };
    QList<SecretUpdate> updates;
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        Result<SecretUpdate> update = SecretUpdate::fromJson(array.at(i), param(QStringLiteral("secrets[%1]").arg(i)));
        if (!update.ok())
            return update.error();
        updates.append(std::move(update).value());
    }
    return updates;
}

template <typename T, typename F> void whenFinished(QObject *context, const QFuture<T> &future, F &&fn)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, fn = std::forward<F>(fn)]() mutable {
        watcher->deleteLater();
        fn(watcher->future());
    });
    watcher->setFuture(future);
}

Error cancelled(const QString &where)
{
    return Error{ where, tr("the engine abandoned the operation (shutting down?)"), {} };
}

} // namespace

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

void ProtocolServer::backendsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const BackendInfo &info : m_engine.backends())
        list.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("backends"), list } });
}

void ProtocolServer::backendsDescribe(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    const Result<BackendInfo> info = m_engine.backend(ref.value());
    if (!info.ok())
        return s->respondError(id, engineError(info.error()));
    s->respond(id, QJsonObject{ { QStringLiteral("backend"), info.value().toJson() } });
}

void ProtocolServer::backendsActivate(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    std::optional<SettingsValues> candidate;
    if (params.contains(QStringLiteral("values"))) {
        Result<SettingsValues> values
            = SettingsValues::fromJson(params.value(QStringLiteral("values")), param(QStringLiteral("values")));
        if (!values.ok())
            return s->respondError(id, invalidParams(values.error()));
        candidate = std::move(values).value();
    }
    const Result<QList<SecretUpdate>> secrets = readSecretUpdates(params);
    if (!secrets.ok())
        return s->respondError(id, invalidParams(secrets.error()));

    // The activation runs to its end even if this client goes away; only the reply is dropped.
    QPointer<ServerSession> session(s);
    whenFinished(this, m_engine.activate(ref.value(), candidate, secrets.value()),
                 [session, id](const QFuture<ActivationResult> &future) {
                     if (!session)
                         return;
                     if (future.isCanceled() || future.resultCount() == 0)
                         return session->respondError(id, engineError(cancelled(Method::BackendsActivate)));
                     session->respond(id, future.result().toJson());
                 });
}

void ProtocolServer::settingsGet(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    const Result<SettingsView> view = m_engine.settings(ref.value());
    if (!view.ok())
        return s->respondError(id, engineError(view.error()));
    s->respond(id, view.value().toJson());
}

void ProtocolServer::settingsUpdate(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    if (!params.contains(QStringLiteral("values")))
        return s->respondError(
            id,
            invalidParams(
                Error{ param(QStringLiteral("values")), tr("missing; expected an object of setting values"), {} }));
    const Result<SettingsValues> values
        = SettingsValues::fromJson(params.value(QStringLiteral("values")), param(QStringLiteral("values")));
    if (!values.ok())
        return s->respondError(id, invalidParams(values.error()));
    const Result<QList<SecretUpdate>> secrets = readSecretUpdates(params);
    if (!secrets.ok())
        return s->respondError(id, invalidParams(secrets.error()));
    const Status status = m_engine.updateSettings(ref.value(), values.value(), secrets.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::secretsReplace(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    updateSecret(s, id, params, false);
}

void ProtocolServer::secretsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    updateSecret(s, id, params, true);
}

void ProtocolServer::updateSecret(ServerSession *s, const QJsonValue &id, const QJsonObject &params, bool remove)
{
    const Result<BackendRef> ref = readRef(params);
    if (!ref.ok())
        return s->respondError(id, invalidParams(ref.error()));
    const Result<QString> field = readString(params, QStringLiteral("field"));
    if (!field.ok())
        return s->respondError(id, invalidParams(field.error()));
    SecretUpdate update;
    update.fieldId = field.value();
    update.action = remove ? SecretUpdate::Action::Remove : SecretUpdate::Action::Replace;
    if (!remove) {
        const Result<QString> value = readString(params, QStringLiteral("value"));
        if (!value.ok()) // an empty secret means "no change" elsewhere; here it is a mistake
            return s->respondError(id, invalidParams(value.error()));
        update.value = value.value();
    }
    const Result<SettingsView> current = m_engine.settings(ref.value());
    if (!current.ok())
        return s->respondError(id, engineError(current.error()));
    const Status status = m_engine.updateSettings(ref.value(), current.value().values, { update });
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::policyGet(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    s->respond(id, QJsonObject{ { QStringLiteral("policy"), m_engine.policy().toJson() } });
}

void ProtocolServer::policySet(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<Policy> policy
        = Policy::fromJson(params.value(QStringLiteral("policy")), param(QStringLiteral("policy")));
    if (!policy.ok())
        return s->respondError(id, invalidParams(policy.error()));
    const Status status = m_engine.setPolicy(policy.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::credentialsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    const Result<QList<CredentialInfo>> list = m_engine.credentials();
    if (!list.ok())
        return s->respondError(id, engineError(list.error()));
    QJsonArray array;
    for (const CredentialInfo &info : list.value())
        array.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("credentials"), array } });
}

void ProtocolServer::credentialsSet(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<QString> name = readString(params, QStringLiteral("name"));
    if (!name.ok())
        return s->respondError(id, invalidParams(name.error()));
    const Result<QString> value = readString(params, QStringLiteral("value"));
    if (!value.ok())
        return s->respondError(id, invalidParams(value.error()));
    const Status status = m_engine.setCredential(name.value(), value.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::credentialsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<QString> name = readString(params, QStringLiteral("name"));
    if (!name.ok())
        return s->respondError(id, invalidParams(name.error()));
    const Status status = m_engine.removeCredential(name.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::credentialsRotateAuthority(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    const Result<QByteArray> certificate = m_engine.rotateCertificateAuthority();
    if (!certificate.ok())
        return s->respondError(id, engineError(certificate.error()));
    s->respond(id, QJsonObject{ { QStringLiteral("certificate"), QString::fromLatin1(certificate.value()) } });
}

void ProtocolServer::holdSpawnsUntil(const QFuture<ActivationResult> &restore)
{
    m_restore = restore;
}

void ProtocolServer::processSpawn(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    if (m_restore.isValid() && !m_restore.isFinished()) {
        QPointer<ServerSession> session(s);
        whenFinished(this, m_restore, [this, session, id, params](const QFuture<ActivationResult> &) {
            if (session)
                processSpawn(session, id, params);
        });
        return;
    }
    const Result<SpawnRequest> request
        = SpawnRequest::fromJson(params.value(QStringLiteral("request")), param(QStringLiteral("request")));
    if (!request.ok())
        return s->respondError(id, invalidParams(request.error()));
    quint64 processId = 0;
    const Result<std::shared_ptr<SandboxProcess>> spawned = m_engine.spawn(request.value(), &processId);
    if (!spawned.ok())
        return s->respondError(id, engineError(spawned.error()));
    const std::shared_ptr<SandboxProcess> process = spawned.value();
    s->processes().insert(processId, process);
    const qint64 pid = qint64(processId);

    connect(process.get(), &SandboxProcess::started, s, [this, s, pid] {
        const std::optional<ProcessInfo> started = m_engine.process(quint64(pid));
        const QJsonObject info = started ? started->toJson() : QJsonObject();
        s->notify(Notification::ProcessStarted,
                  { { QStringLiteral("processId"), pid }, { QStringLiteral("info"), info } });
    });
    connect(process.get(), &SandboxProcess::failedToStart, s, [s, pid](const Error &error) {
        s->notify(Notification::ProcessFailedToStart,
                  { { QStringLiteral("processId"), pid }, { QStringLiteral("error"), error.toJson() } });
        s->processEnded(quint64(pid));
    });
    auto output = [s, pid](const QString &stream, const QByteArray &data) {
        for (qsizetype offset = 0; offset < data.size(); offset += OutputChunk) {
            s->notify(Notification::ProcessOutput,
                      { { QStringLiteral("processId"), pid },
                        { QStringLiteral("stream"), stream },
                        { QStringLiteral("data"), QString::fromLatin1(data.mid(offset, OutputChunk).toBase64()) } });
        }
    };
    connect(process.get(), &SandboxProcess::stdoutReady, s,
            [output](const QByteArray &data) { output(QStringLiteral("stdout"), data); });
    connect(process.get(), &SandboxProcess::stderrReady, s,
            [output](const QByteArray &data) { output(QStringLiteral("stderr"), data); });
    connect(process.get(), &SandboxProcess::finished, s, [this, s, pid](const ExitStatus &status) {
        // The engine's record is the complete one (it knows when its own timeout killed it).
        ExitStatus effective = status;
        if (const std::optional<ProcessInfo> info = m_engine.process(quint64(pid)); info && !info->running)
            effective = info->exit;
        s->notify(Notification::ProcessExited,
                  { { QStringLiteral("processId"), pid }, { QStringLiteral("exit"), effective.toJson() } });
        s->processEnded(quint64(pid));
    });
    s->respond(id, QJsonObject{ { QStringLiteral("processId"), pid } });
}

void ProtocolServer::processWrite(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    const QJsonValue data = params.value(QStringLiteral("data"));
    if (!data.isString())
        return s->respondError(id,
                               invalidParams(Error{ param(QStringLiteral("data")),
                                                    tr("expected base64 text, got %1").arg(JsonReader::typeName(data)),
                                                    {} }));
    const auto decoded
        = QByteArray::fromBase64Encoding(data.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return s->respondError(id, invalidParams(Error{ param(QStringLiteral("data")), tr("not valid base64"), {} }));
    if (s->hasEnded(processId.value()))
        return s->respond(id, QJsonObject{});
    const std::shared_ptr<SandboxProcess> process = s->processes().value(processId.value());
    if (!process) // stdin belongs to whoever spawned the process
        return s->respondError(
            id,
            engineError(Error{ param(QStringLiteral("processId")),
                               tr("no running process %1 spawned by this client").arg(processId.value()),
                               {} }));
    process->writeStdin(*decoded);
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processResize(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    QJsonObject size = params;
    size.remove(QStringLiteral("processId"));
    const Result<TerminalSize> terminal = TerminalSize::fromJson(size, QStringLiteral("params"));
    if (!terminal.ok())
        return s->respondError(id, invalidParams(terminal.error()));
    if (s->hasEnded(processId.value()))
        return s->respond(id, QJsonObject{});
    const std::shared_ptr<SandboxProcess> process = s->processes().value(processId.value());
    if (!process) // its terminal belongs to whoever spawned the process
        return s->respondError(
            id,
            engineError(Error{ param(QStringLiteral("processId")),
                               tr("no running process %1 spawned by this client").arg(processId.value()),
                               {} }));
    process->resizeTerminal(terminal.value());
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processCloseStdin(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    if (s->hasEnded(processId.value()))
        return s->respond(id, QJsonObject{});
    const std::shared_ptr<SandboxProcess> process = s->processes().value(processId.value());
    if (!process)
        return s->respondError(
            id,
            engineError(Error{ param(QStringLiteral("processId")),
                               tr("no running process %1 spawned by this client").arg(processId.value()),
                               {} }));
    process->closeStdin();
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processKill(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    const QJsonValue signalName = params.value(QStringLiteral("signal"));
    std::optional<ProcessSignal> signal;
    if (!signalName.isUndefined()) {
        signal = processSignalFromName(signalName.toString());
        if (!signalName.isString() || !signal)
            return s->respondError(id,
                                   invalidParams(Error{ param(QStringLiteral("signal")),
                                                        tr("expected \"interrupt\", \"terminate\" or \"hangup\""),
                                                        {} }));
    }
    const Status status
        = signal ? m_engine.deliverSignal(processId.value(), *signal) : m_engine.kill(processId.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const ProcessInfo &info : m_engine.processes())
        list.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("processes"), list } });
}

void ProtocolServer::packsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const PackInfo &info : m_engine.packs())
        list.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("packs"), list } });
}

void ProtocolServer::packsInstall(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<QString> path = readString(params, QStringLiteral("path"));
    if (!path.ok())
        return s->respondError(id, invalidParams(path.error()));
    if (!QDir::isAbsolutePath(path.value()))
        return s->respondError(
            id, invalidParams(Error{ param(QStringLiteral("path")), tr("the pack's path must be absolute"), {} }));
    QPointer<ServerSession> session(s);
    whenFinished(this, m_engine.installPackFrom(path.value()), [session, id](const QFuture<Result<PackInfo>> &done) {
        if (!session)
            return;
        if (done.isCanceled() || done.resultCount() == 0)
            return session->respondError(id, engineError(cancelled(QStringLiteral("packs"))));
        const Result<PackInfo> installed = done.result();
        if (!installed.ok())
            return session->respondError(id, engineError(installed.error()));
        session->respond(id, QJsonObject{ { QStringLiteral("pack"), installed.value().toJson() } });
    });
}

void ProtocolServer::packsEnable(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    packOperation(s, id, params, 0);
}

void ProtocolServer::packsDisable(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    packOperation(s, id, params, 1);
}

void ProtocolServer::packsRemove(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    packOperation(s, id, params, 2);
}

void ProtocolServer::packOperation(ServerSession *s, const QJsonValue &id, const QJsonObject &params, int operation)
{
    const Result<QString> packId = readString(params, QStringLiteral("packId"));
    if (!packId.ok())
        return s->respondError(id, invalidParams(packId.error()));
    QFuture<Status> future = operation == 0 ? m_engine.enablePack(packId.value())
        : operation == 1                    ? m_engine.disablePack(packId.value())
                                            : m_engine.removePack(packId.value());
    QPointer<ServerSession> session(s);
    whenFinished(this, future, [session, id](const QFuture<Status> &done) {
        if (!session)
            return;
        if (done.isCanceled() || done.resultCount() == 0)
            return session->respondError(id, engineError(cancelled(QStringLiteral("packs"))));
        const Status status = done.result();
        if (!status.ok())
            return session->respondError(id, engineError(status.error()));
        session->respond(id, QJsonObject{});
    });
}

void ProtocolServer::interactionAnswer(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<HostInteractionResponse> answer
        = HostInteractionResponse::fromJson(params.value(QStringLiteral("answer")), param(QStringLiteral("answer")));
    if (!answer.ok())
        return s->respondError(id, invalidParams(answer.error()));
    m_engine.answerInteraction(answer.value());
    s->respond(id, QJsonObject{});
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

void ProtocolServer::refusalsList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const Refusal &refusal : m_engine.refusals())
        list.append(refusal.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("refusals"), list } });
}

void ProtocolServer::refusalsSubscribe(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    // From here on every refusal reaches it; one recorded while this answer is made may
    // arrive both in the answer and as a notification (clients drop ids they have seen).
    s->followRefusals();
    refusalsList(s, id, params);
}

} // namespace sandbox
