#include "client/Client.h"

#include "client/ClientProcess.h"
#include "client/ProtocolMethods.h"
#include "client/RpcMessage.h"
#include "client/Transport.h"
#include "protocol/TextCatalog.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QPointer>
#include <QPromise>

#include <functional>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::Client", text);
}

template <typename T> Result<QList<T>> decodeList(const QJsonValue &result, const QString &key)
{
    const QJsonValue list = result.toObject().value(key);
    const QString path = QStringLiteral("result.") + key;
    if (!list.isArray())
        return Error{ path, tr("expected an array"), {} };
    QList<T> items;
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        auto item = T::fromJson(array.at(i), path + QLatin1Char('[') + QString::number(i) + QLatin1Char(']'));
        if (!item.ok())
            return item.error();
        items.append(std::move(item).value());
    }
    return items;
}

// One entry this client cannot read never hides the others: it is listed by its ref as
// unavailable, saying why; an entry without a readable ref is left out with a warning.
Result<QList<BackendInfo>> decodeBackendList(const QJsonValue &result)
{
    const QString path = QStringLiteral("result.backends");
    const QJsonValue list = result.toObject().value(QStringLiteral("backends"));
    if (!list.isArray())
        return Error{ path, tr("expected an array"), {} };
    QList<BackendInfo> items;
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString itemPath = path + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
        Result<BackendInfo> item = BackendInfo::fromJson(array.at(i), itemPath);
        if (item.ok()) {
            items.append(std::move(item).value());
            continue;
        }
        const Result<BackendRef> ref = BackendRef::fromJson(array.at(i).toObject().value(QStringLiteral("ref")),
                                                            itemPath + QStringLiteral(".ref"));
        if (!ref.ok()) {
            qWarning("sandbox client: a backend entry was left out: %s", qPrintable(item.error().toString()));
            continue;
        }
        BackendInfo unreadable;
        unreadable.ref = ref.value();
        unreadable.descriptor.name = ref.value().toString();
        unreadable.sourceLabel = ref.value().toString();
        unreadable.availability = Availability{
            false, tr("This backend's description could not be read, so it cannot be used: %1").arg(item.error().where)
        };
        items.append(unreadable);
    }
    return items;
}

// What a result carries that the engine wrote, in the client's language.
template <typename T> void translateTexts(const TextCatalog &, T &) { }
void translateTexts(const TextCatalog &catalog, BackendInfo &info)
{
    catalog.translate(info);
}
void translateTexts(const TextCatalog &catalog, QList<BackendInfo> &list)
{
    for (BackendInfo &info : list)
        catalog.translate(info);
}
void translateTexts(const TextCatalog &catalog, PackInfo &pack)
{
    catalog.translate(pack);
}
void translateTexts(const TextCatalog &catalog, QList<PackInfo> &list)
{
    for (PackInfo &pack : list)
        catalog.translate(pack);
}
void translateTexts(const TextCatalog &catalog, ActivationResult &result)
{
    catalog.translate(result);
}
void translateTexts(const TextCatalog &catalog, ActivationEvent &event)
{
    catalog.translate(event);
}
void translateTexts(const TextCatalog &catalog, CleanupWarning &warning)
{
    catalog.translate(warning);
}
void translateTexts(const TextCatalog &catalog, HostInteractionRequest &request)
{
    catalog.translate(request);
}
void translateTexts(const TextCatalog &catalog, QJsonObject &status)
{
    QJsonArray warnings = status.value(QStringLiteral("warnings")).toArray();
    for (qsizetype i = 0; i < warnings.size(); ++i) {
        if (warnings.at(i).isString())
            warnings.replace(i, catalog.translate(warnings.at(i).toString()));
    }
    if (status.contains(QStringLiteral("warnings")))
        status.insert(QStringLiteral("warnings"), warnings);
}

} // namespace

class Client::Private
{
public:
    using Resolver = std::function<void(const RpcMessage &reply)>;

    Client *q = nullptr;
    std::unique_ptr<Transport> transport;
    qint64 nextId = 1;
    QHash<qint64, Resolver> pending;
    QHash<qint64, QPointer<ClientProcess>> spawning; // request id -> process awaiting its id
    QHash<quint64, QPointer<ClientProcess>> processes;
    quint64 lastRefusalId = 0; // the newest refusal reported to this client
    bool gone = false;
    QString goneReason;
    std::shared_ptr<const TextCatalog> catalog;

    template <typename T> T translated(T value) const
    {
        if (catalog)
            translateTexts(*catalog, value);
        return value;
    }
    Error translated(Error error) const
    {
        if (catalog)
            catalog->translate(error);
        return error;
    }
    QString translated(const QString &text) const { return catalog ? catalog->translate(text) : text; }

    qint64 sendRequest(const QString &method, const QJsonObject &params, Resolver resolver)
    {
        const qint64 id = nextId++;
        if (gone || !transport->send(RpcMessage::request(id, method, params).toJson())) {
            RpcMessage reply = RpcMessage::errorResponse(
                QJsonValue(id),
                RpcError{ RpcErrorCode::InternalError,
                          gone ? tr("not connected to the engine: %1").arg(goneReason)
                               : tr("the request is larger than the protocol's message limit"),
                          {} });
            resolver(reply);
            return id;
        }
        pending.insert(id, std::move(resolver));
        return id;
    }

    template <typename T>
    QFuture<Result<T>> call(const QString &method, const QJsonObject &params,
                            std::function<Result<T>(const QJsonValue &)> decode)
    {
        auto promise = std::make_shared<QPromise<Result<T>>>();
        promise->start();
        QFuture<Result<T>> future = promise->future();
        sendRequest(method, params, [this, promise, method, decode](const RpcMessage &reply) {
            if (reply.kind == RpcMessage::Kind::ErrorResponse) {
                promise->addResult(Result<T>(translated(reply.error.toError(method))));
            } else {
                Result<T> decoded = decode(reply.result);
                promise->addResult(decoded.ok() ? Result<T>(translated(std::move(decoded).value()))
                                                : Result<T>(translated(decoded.error())));
            }
            promise->finish();
        });
        return future;
    }

    QFuture<Status> callStatus(const QString &method, const QJsonObject &params)
    {
        auto promise = std::make_shared<QPromise<Status>>();
        promise->start();
        QFuture<Status> future = promise->future();
        sendRequest(method, params, [this, promise, method](const RpcMessage &reply) {
            if (reply.kind == RpcMessage::Kind::ErrorResponse)
                promise->addResult(Status(translated(reply.error.toError(method))));
            else
                promise->addResult(Status::success());
            promise->finish();
        });
        return future;
    }

    void onMessage(const QJsonObject &object)
    {
        const Result<RpcMessage> decoded = RpcMessage::fromJson(object);
        if (!decoded.ok()) {
            qWarning("sandbox client: ignoring a malformed message from the engine: %s",
                     qPrintable(decoded.error().toString()));
            return;
        }
        const RpcMessage &message = decoded.value();
        switch (message.kind) {
        case RpcMessage::Kind::Response:
        case RpcMessage::Kind::ErrorResponse: {
            if (!message.id.isDouble()) {
                // The server could not tie an error to a request (e.g. our stream broke).
                if (message.kind == RpcMessage::Kind::ErrorResponse)
                    qWarning("sandbox client: engine reported: %s", qPrintable(message.error.message));
                return;
            }
            const qint64 id = qint64(message.id.toDouble());
            const Resolver resolver = pending.take(id);
            if (resolver)
                resolver(message);
            return;
        }
        case RpcMessage::Kind::Notification:
            onNotification(message.method, message.params);
            return;
        case RpcMessage::Kind::Request:
            qWarning("sandbox client: ignoring a request from the engine: %s", qPrintable(message.method));
            return;
        }
    }

    void onNotification(const QString &method, const QJsonObject &params)
    {
        if (method.startsWith(QLatin1String("process."))) {
            const quint64 processId = quint64(params.value(QStringLiteral("processId")).toDouble());
            const QPointer<ClientProcess> process = processes.value(processId);
            if (!process)
                return;
            process->handleNotification(method, params);
            if (process && process->isDone())
                processes.remove(processId);
            return;
        }
        if (method == Notification::ActivationEvent) {
            if (auto e
                = ActivationEvent::fromJson(params.value(QStringLiteral("event")), QStringLiteral("params.event")))
                emit q->activationEvent(translated(e.value()));
            else
                undecodable(method, e.error());
        } else if (method == Notification::ActivationFinished) {
            if (auto r
                = ActivationResult::fromJson(params.value(QStringLiteral("result")), QStringLiteral("params.result")))
                emit q->activationFinished(translated(r.value()));
            else
                undecodable(method, r.error());
        } else if (method == Notification::CleanupWarning) {
            if (auto w
                = CleanupWarning::fromJson(params.value(QStringLiteral("warning")), QStringLiteral("params.warning")))
                emit q->cleanupWarning(translated(w.value()));
            else
                undecodable(method, w.error());
        } else if (method == Notification::InteractionRequest) {
            const QJsonValue request = params.value(QStringLiteral("request"));
            if (auto r = HostInteractionRequest::fromJson(request, QStringLiteral("params.request"))) {
                emit q->hostInteractionRequested(translated(r.value()));
            } else {
                undecodable(method, r.error());
                refuseInteraction(request.toObject().value(QStringLiteral("id")));
            }
        } else if (method == Notification::InteractionSettled) {
            const QJsonValue id = params.value(QStringLiteral("id"));
            if (id.isString() && !id.toString().isEmpty())
                emit q->hostInteractionSettled(id.toString());
            else
                undecodable(method, Error{ QStringLiteral("params.id"), tr("must be a non-empty string"), {} });
        } else if (method == Notification::EngineStopping) {
            emit q->engineStopping();
        } else if (method == Notification::BackendsChanged) {
            emit q->backendsChanged();
        } else if (method == Notification::ActiveBackendChanged) {
            if (auto r = BackendRef::fromJson(params.value(QStringLiteral("ref")), QStringLiteral("params.ref")))
                emit q->activeBackendChanged(r.value());
            else
                undecodable(method, r.error());
        } else if (method == Notification::PolicyChanged) {
            if (auto p = Policy::fromJson(params.value(QStringLiteral("policy")), QStringLiteral("params.policy")))
                emit q->policyChanged(p.value());
            else
                undecodable(method, p.error());
        } else if (method == Notification::CredentialsChanged) {
            emit q->credentialsChanged();
        } else if (method == Notification::RefusalReported) {
            if (auto r = Refusal::fromJson(params.value(QStringLiteral("refusal")), QStringLiteral("params.refusal"))) {
                // Ids only grow: one already seen (in the subscription's answer) is not news.
                if (r.value().id > lastRefusalId) {
                    lastRefusalId = r.value().id;
                    emit q->refusalReported(r.value());
                }
            } else {
                undecodable(method, r.error());
            }
        } else if (method == Notification::ProcessesChanged) {
            if (auto p
                = ProcessInfo::fromJson(params.value(QStringLiteral("process")), QStringLiteral("params.process")))
                emit q->processChanged(p.value());
            else
                undecodable(method, p.error());
        }
    }

    // A notification nobody can act on still says what went wrong: a dropped one would
    // leave the user looking at stale state with no trace of why.
    static void undecodable(const QString &method, const Error &error)
    {
        qWarning("sandbox client: ignoring a %s notification the client cannot decode: %s", qPrintable(method),
                 qPrintable(error.toString()));
    }

    // A question this client cannot show is answered as refused, so the engine (and the
    // launcher that asked) does not wait for an answer that would never come.
    void refuseInteraction(const QJsonValue &id)
    {
        if (!id.isString() || id.toString().isEmpty())
            return; // nothing to answer; the engine's own timeout ends the question
        const HostInteractionResponse refusal{ id.toString(), false, {} };
        sendRequest(
            Method::InteractionAnswer, { { QStringLiteral("answer"), refusal.toJson() } }, [](const RpcMessage &reply) {
                if (reply.kind == RpcMessage::Kind::ErrorResponse && reply.error.code != RpcErrorCode::InternalError)
                    qWarning("sandbox client: refusing an undecodable question failed: %s",
                             qPrintable(reply.error.message));
            });
    }

    void onGone(const QString &reason)
    {
        if (gone)
            return;
        gone = true;
        goneReason = reason.isEmpty() ? tr("the engine closed the connection") : reason;
        const auto resolvers = std::exchange(pending, {});
        for (auto it = resolvers.begin(); it != resolvers.end(); ++it) {
            it.value()(RpcMessage::errorResponse(QJsonValue(it.key()),
                                                 RpcError{ RpcErrorCode::InternalError, goneReason, {} }));
        }
        const auto live = std::exchange(processes, {});
        for (const QPointer<ClientProcess> &process : live) {
            if (process)
                process->detachSender();
        }
        emit q->disconnected(translated(goneReason));
    }
};

Client::Client(std::unique_ptr<Transport> transport, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->transport = std::move(transport);
    d->transport->setParent(nullptr);
    connect(d->transport.get(), &Transport::messageReceived, this, [this](const QJsonObject &m) { d->onMessage(m); });
    connect(d->transport.get(), &Transport::malformedMessage, this, [](const QString &error) {
        qWarning("sandbox client: malformed message from the engine: %s", qPrintable(error));
    });
    connect(d->transport.get(), &Transport::protocolError, this, [this](const QString &error) {
        d->transport->close();
        d->onGone(error);
    });
    connect(d->transport.get(), &Transport::disconnected, this, [this](const QString &reason) { d->onGone(reason); });

    // The handshake goes first; the server handles requests in order, so calls made
    // right after construction are answered after it.
    d->sendRequest(Method::Hello,
                   { { QStringLiteral("protocolVersion"), ProtocolVersion },
                     { QStringLiteral("client"), QCoreApplication::applicationName() } },
                   [this](const RpcMessage &reply) {
                       if (reply.kind == RpcMessage::Kind::ErrorResponse && !d->gone) {
                           const QString reason
                               = tr("the engine refused the handshake: %1").arg(d->translated(reply.error.message));
                           d->transport->close();
                           d->onGone(reason);
                       }
                   });
}

bool Client::isConnected() const
{
    return !d->gone;
}

Client::~Client()
{
    disconnect(d->transport.get(), nullptr, this, nullptr);
    const auto resolvers = std::exchange(d->pending, {});
    d->gone = true;
    d->goneReason = tr("the client was destroyed");
    for (auto it = resolvers.begin(); it != resolvers.end(); ++it)
        it.value()(RpcMessage::errorResponse(QJsonValue(it.key()),
                                             RpcError{ RpcErrorCode::InternalError, d->goneReason, {} }));
    for (const QPointer<ClientProcess> &process : std::as_const(d->processes)) {
        if (process)
            process->detachSender();
    }
    for (const QPointer<ClientProcess> &process : std::as_const(d->spawning)) {
        if (process)
            process->detachSender();
    }
}

void Client::setTextCatalog(std::shared_ptr<const TextCatalog> catalog)
{
    d->catalog = std::move(catalog);
}

QString Client::translated(const QString &engineText) const
{
    return d->translated(engineText);
}

QFuture<Result<QList<BackendInfo>>> Client::backends()
{
    return d->call<QList<BackendInfo>>(Method::BackendsList, {},
                                       [](const QJsonValue &result) { return decodeBackendList(result); });
}

QFuture<Result<BackendInfo>> Client::describe(const BackendRef &ref)
{
    return d->call<BackendInfo>(Method::BackendsDescribe, { { QStringLiteral("ref"), ref.toJson() } },
                                [](const QJsonValue &result) {
                                    return BackendInfo::fromJson(result.toObject().value(QStringLiteral("backend")),
                                                                 QStringLiteral("result.backend"));
                                });
}

QFuture<Result<SettingsView>> Client::settings(const BackendRef &ref)
{
    return d->call<SettingsView>(
        Method::SettingsGet, { { QStringLiteral("ref"), ref.toJson() } },
        [](const QJsonValue &result) { return SettingsView::fromJson(result, QStringLiteral("result")); });
}

namespace {
QJsonArray secretsToJson(const QList<SecretUpdate> &secrets)
{
    QJsonArray array;
    for (const SecretUpdate &update : secrets)
        array.append(update.toJson());
    return array;
}
} // namespace

QFuture<Status> Client::updateSettings(const BackendRef &ref, const SettingsValues &values,
                                       const QList<SecretUpdate> &secrets)
{
    return d->callStatus(Method::SettingsUpdate,
                         { { QStringLiteral("ref"), ref.toJson() },
                           { QStringLiteral("values"), values.toJson() },
                           { QStringLiteral("secrets"), secretsToJson(secrets) } });
}

QFuture<Result<ActivationResult>> Client::activate(const BackendRef &ref, std::optional<SettingsValues> candidate,
                                                   const QList<SecretUpdate> &secrets)
{
    QJsonObject params{ { QStringLiteral("ref"), ref.toJson() } };
    if (candidate)
        params.insert(QStringLiteral("values"), candidate->toJson());
    if (!secrets.isEmpty())
        params.insert(QStringLiteral("secrets"), secretsToJson(secrets));
    return d->call<ActivationResult>(Method::BackendsActivate, params, [](const QJsonValue &result) {
        return ActivationResult::fromJson(result, QStringLiteral("result"));
    });
}

QFuture<Result<Policy>> Client::policy()
{
    return d->call<Policy>(Method::PolicyGet, {}, [](const QJsonValue &result) {
        return Policy::fromJson(result.toObject().value(QStringLiteral("policy")), QStringLiteral("result.policy"));
    });
}

QFuture<Status> Client::setPolicy(const Policy &policy)
{
    return d->callStatus(Method::PolicySet, { { QStringLiteral("policy"), policy.toJson() } });
}

QFuture<Result<QList<CredentialInfo>>> Client::credentials()
{
    return d->call<QList<CredentialInfo>>(Method::CredentialsList, {}, [](const QJsonValue &result) {
        return decodeList<CredentialInfo>(result, QStringLiteral("credentials"));
    });
}

QFuture<Status> Client::setCredential(const QString &name, const QString &value)
{
    return d->callStatus(Method::CredentialsSet,
                         { { QStringLiteral("name"), name }, { QStringLiteral("value"), value } });
}

QFuture<Status> Client::removeCredential(const QString &name)
{
    return d->callStatus(Method::CredentialsRemove, { { QStringLiteral("name"), name } });
}

QFuture<Result<QByteArray>> Client::rotateCertificateAuthority()
{
    return d->call<QByteArray>(
        Method::CredentialsRotateAuthority, {}, [](const QJsonValue &result) -> Result<QByteArray> {
            const QJsonValue pem = result.toObject().value(QStringLiteral("certificate"));
            if (!pem.isString() || !pem.toString().startsWith(QLatin1String("-----BEGIN CERTIFICATE-----")))
                return Error{ QStringLiteral("result.certificate"), tr("expected a PEM certificate"), {} };
            return pem.toString().toLatin1();
        });
}

std::unique_ptr<RemoteProcess> Client::spawn(const SpawnRequest &request)
{
    Private *p = d.get();
    auto process = std::make_unique<ClientProcess>([p](const QString &method, const QJsonObject &params) {
        p->sendRequest(method, params, [method](const RpcMessage &reply) {
            // Only the engine's refusals are worth a warning; a connection that is gone is
            // reported once, through disconnected().
            if (reply.kind == RpcMessage::Kind::ErrorResponse && reply.error.code != RpcErrorCode::InternalError)
                qWarning("sandbox client: %s failed: %s", qPrintable(method), qPrintable(reply.error.message));
        });
    });
    QPointer<ClientProcess> weak(process.get());
    const qint64 requestId = d->nextId;
    d->spawning.insert(requestId, weak);
    d->sendRequest(Method::ProcessSpawn, { { QStringLiteral("request"), request.toJson() } },
                   [p, weak, requestId](const RpcMessage &reply) {
                       p->spawning.remove(requestId);
                       if (!weak)
                           return;
                       if (reply.kind == RpcMessage::Kind::ErrorResponse) {
                           weak->fail(p->translated(reply.error.toError(Method::ProcessSpawn)));
                           return;
                       }
                       const QJsonValue id = reply.result.toObject().value(QStringLiteral("processId"));
                       if (!id.isDouble() || id.toDouble() < 1) {
                           weak->fail(Error{ QStringLiteral("result.processId"), tr("missing process id"), {} });
                           return;
                       }
                       p->processes.insert(quint64(id.toDouble()), weak);
                       weak->assignId(quint64(id.toDouble()));
                   });
    return process;
}

QFuture<Result<QList<ProcessInfo>>> Client::processes()
{
    return d->call<QList<ProcessInfo>>(Method::ProcessList, {}, [](const QJsonValue &result) {
        return decodeList<ProcessInfo>(result, QStringLiteral("processes"));
    });
}

QFuture<Status> Client::kill(quint64 processId)
{
    return d->callStatus(Method::ProcessKill, { { QStringLiteral("processId"), qint64(processId) } });
}

QFuture<Result<QList<PackInfo>>> Client::packs()
{
    return d->call<QList<PackInfo>>(Method::PacksList, {}, [](const QJsonValue &result) {
        return decodeList<PackInfo>(result, QStringLiteral("packs"));
    });
}

QFuture<Result<PackInfo>> Client::installPack(const QString &path)
{
    return d->call<PackInfo>(Method::PacksInstall, { { QStringLiteral("path"), path } }, [](const QJsonValue &result) {
        return PackInfo::fromJson(result.toObject().value(QStringLiteral("pack")), QStringLiteral("result.pack"));
    });
}

QFuture<Status> Client::enablePack(const QString &packId)
{
    return d->callStatus(Method::PacksEnable, { { QStringLiteral("packId"), packId } });
}

QFuture<Status> Client::disablePack(const QString &packId)
{
    return d->callStatus(Method::PacksDisable, { { QStringLiteral("packId"), packId } });
}

QFuture<Status> Client::removePack(const QString &packId)
{
    return d->callStatus(Method::PacksRemove, { { QStringLiteral("packId"), packId } });
}

QFuture<Status> Client::answerInteraction(const HostInteractionResponse &response)
{
    return d->callStatus(Method::InteractionAnswer, { { QStringLiteral("answer"), response.toJson() } });
}

QFuture<Result<QJsonObject>> Client::status()
{
    return d->call<QJsonObject>(Method::EngineStatus, {}, [](const QJsonValue &result) -> Result<QJsonObject> {
        if (!result.isObject())
            return Error{ QStringLiteral("result"), tr("expected an object"), {} };
        return result.toObject();
    });
}

QFuture<Result<QList<Refusal>>> Client::refusals()
{
    return d->call<QList<Refusal>>(Method::RefusalsList, {}, [](const QJsonValue &result) {
        return decodeList<Refusal>(result, QStringLiteral("refusals"));
    });
}

QFuture<Result<QList<Refusal>>> Client::followRefusals()
{
    Private *priv = d.get();
    return d->call<QList<Refusal>>(Method::RefusalsSubscribe, {}, [priv](const QJsonValue &result) {
        Result<QList<Refusal>> list = decodeList<Refusal>(result, QStringLiteral("refusals"));
        if (list.ok() && !list.value().isEmpty())
            priv->lastRefusalId = qMax(priv->lastRefusalId, list.value().last().id);
        return list;
    });
}

} // namespace sandbox
