#include "ContainerPool.h"

#include <QCoreApplication>
#include <QUuid>

namespace sandbox::power {

ContainerPool::ContainerPool(DockerApi api, QString instanceLabel)
    : m_api(std::move(api))
    , m_instanceLabel(std::move(instanceLabel))
{ }

ContainerPool::~ContainerPool()
{
    removeAll(5000);
}

Result<QString> ContainerPool::containerFor(const ContainerSpec &spec)
{
    const QString key = spec.key();
    // One creation at a time: two first commands in one workspace share one container.
    QMutexLocker locker(&m_mutex);
    if (const auto it = m_containers.constFind(key); it != m_containers.constEnd())
        return it.value();

    const QString name = QStringLiteral("sandbox-studio-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    const QJsonObject labels{ { QStringLiteral("dev.sandbox-studio.launcher"), m_instanceLabel },
                              { QStringLiteral("dev.sandbox-studio.engine-pid"),
                                QString::number(QCoreApplication::applicationPid()) } };
    Result<DockerApi::Response> created
        = m_api.post(QStringLiteral("/containers/create?name=") + name, spec.createBody(labels), requestTimeoutMs);
    if (!created.ok())
        return created.error();
    if (created.value().status != 201)
        return Error{ spec.workspace(),
                      tr("the runtime refused to create the container: %1").arg(created.value().message()),
                      {} };
    const QString id = created.value().json().value(QStringLiteral("Id")).toString();
    if (id.isEmpty())
        return Error{ spec.workspace(), tr("the runtime created a container but did not name it"), {} };
    Result<DockerApi::Response> started
        = m_api.post(QStringLiteral("/containers/") + id + QStringLiteral("/start"), {}, requestTimeoutMs);
    if (!started.ok() || (started.value().status != 204 && started.value().status != 304)) {
        const QString why = started.ok() ? started.value().message() : started.error().message;
        m_api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true"), requestTimeoutMs);
        return Error{ spec.workspace(), tr("the runtime could not start the container: %1").arg(why), {} };
    }
    m_containers.insert(key, id);
    return id;
}

Status ContainerPool::removeAll(int timeoutMs)
{
    QMutexLocker locker(&m_mutex);
    QStringList failures;
    for (auto it = m_containers.begin(); it != m_containers.end();) {
        const QString id = it.value();
        Result<DockerApi::Response> removed
            = m_api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true&v=true"), timeoutMs);
        const bool gone = removed.ok() && (removed.value().status == 204 || removed.value().status == 404);
        if (!gone) {
            failures.append(removed.ok() ? removed.value().message() : removed.error().message);
            ++it;
            continue;
        }
        it = m_containers.erase(it);
    }
    if (!failures.isEmpty())
        return Error{ m_api.socketPath(),
                      tr("containers could not be removed: %1").arg(failures.join(QStringLiteral("; "))),
                      {} };
    return {};
}

} // namespace sandbox::power
