#include "core/backends/HostInteractionBroker.h"

#include <QJsonObject>
#include <QTimer>
#include <QUuid>

namespace sandbox {

namespace {

void resolve(QPromise<HostInteractionResponse> &promise, const HostInteractionResponse &response)
{
    promise.addResult(response);
    promise.finish();
}

} // namespace

HostInteractionBroker::HostInteractionBroker(std::function<bool(const HostInteractionRequest &)> present,
                                             QObject *timerContext, int timeoutMs,
                                             std::function<void(const QString &id)> settled)
    : m_present(std::move(present))
    , m_settled(std::move(settled))
    , m_timerContext(timerContext)
    , m_timeoutMs(timeoutMs)
{ }

HostInteractionBroker::~HostInteractionBroker()
{
    refuseAll();
}

QFuture<HostInteractionResponse> HostInteractionBroker::ask(HostInteractionRequest request)
{
    if (request.id.isEmpty())
        request.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (const Status valid = validate(request); !valid.ok()) {
        qWarning("sandbox engine: refused a question from %s without showing it: %s",
                 qPrintable(request.hasRef ? request.ref.toString() : QStringLiteral("the engine")),
                 qPrintable(valid.error().toString()));
        return QtFuture::makeReadyFuture(HostInteractionResponse{ request.id, false, {} });
    }
    auto promise = std::make_shared<QPromise<HostInteractionResponse>>();
    promise->start();
    QFuture<HostInteractionResponse> future = promise->future();
    {
        QMutexLocker locker(&m_mutex);
        if (m_open.contains(request.id)) {
            resolve(*promise, HostInteractionResponse{ request.id, false, {} });
            return future;
        }
        m_open.insert(request.id, promise);
    }
    const QString id = request.id;
    if (!m_present(request)) {
        answer(HostInteractionResponse{ id, false, {} });
        return future;
    }
    QMetaObject::invokeMethod(m_timerContext, [this, id] {
        QTimer::singleShot(m_timeoutMs, m_timerContext, [this, id] {
            answer(HostInteractionResponse{ id, false, {} });
        });
    });
    return future;
}

bool HostInteractionBroker::answer(const HostInteractionResponse &response)
{
    std::shared_ptr<QPromise<HostInteractionResponse>> promise;
    {
        QMutexLocker locker(&m_mutex);
        promise = m_open.take(response.id);
    }
    if (!promise)
        return false;
    resolve(*promise, response);
    if (m_settled)
        m_settled(response.id);
    return true;
}

Status HostInteractionBroker::validate(const HostInteractionRequest &request)
{
    const Result<HostInteractionRequest> decoded = HostInteractionRequest::fromJson(request.toJson());
    if (!decoded.ok())
        return decoded.error();
    return {};
}

void HostInteractionBroker::refuseAll()
{
    QHash<QString, std::shared_ptr<QPromise<HostInteractionResponse>>> open;
    {
        QMutexLocker locker(&m_mutex);
        open.swap(m_open);
    }
    for (auto it = open.begin(); it != open.end(); ++it) {
        resolve(*it.value(), HostInteractionResponse{ it.key(), false, {} });
        if (m_settled)
            m_settled(it.key());
    }
}

} // namespace sandbox
