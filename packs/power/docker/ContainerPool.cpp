#include "ContainerPool.h"

#include "EngineRuntime.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QUuid>

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace sandbox::power {

ContainerPool::ContainerPool(DockerApi api, QString instanceLabel, QString statusRoot, ChannelOpener openChannel,
                             QString runtime)
    : m_api(std::move(api))
    , m_instanceLabel(std::move(instanceLabel))
    , m_statusRoot(std::move(statusRoot))
    , m_openChannel(std::move(openChannel))
    , m_runtime(std::move(runtime))
{ }

ContainerPool::~ContainerPool()
{
    removeAll(5000);
}

Result<ContainerPool::Instance> ContainerPool::containerFor(const ContainerSpec &spec)
{
    const QString key = spec.key();
    // One creation at a time: two first commands in one workspace share one container.
    QMutexLocker locker(&m_mutex);
    if (const auto it = m_containers.constFind(key); it != m_containers.constEnd())
        return Instance{ it.value().id, it.value().statusDirectory };

    Container container;
    if (spec.proxied()) {
        if (!m_openChannel)
            return Error{ QStringLiteral("policy.network"), tr("no filtering proxy is available to this backend"), {} };
        Result<std::shared_ptr<ProxyChannel>> channel
            = m_openChannel(spec.allowedDomains(), spec.deniedDomains(), spec.credentials(), spec.extraCaCertificates(),
                            spec.upstreamProxy());
        if (!channel.ok())
            return channel.error();
        container.channel = channel.value();
    }

    const QString name = QStringLiteral("sandbox-studio-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    container.hold = ContainerLeftovers::hold(name);
    // The commands' status FIFOs: a folder of this container's own, owner-only on the host.
    const QFile::Permissions ownerOnly = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
    if (m_statusRoot.isEmpty() || !QDir().mkpath(m_statusRoot) || !QFile::setPermissions(m_statusRoot, ownerOnly))
        return Error{ m_statusRoot, tr("no folder for the commands' status channels"), {} };
    container.statusDirectory = QDir(m_statusRoot).filePath(name);
    if (!QDir().mkdir(container.statusDirectory) || !QFile::setPermissions(container.statusDirectory, ownerOnly))
        return Error{ container.statusDirectory, tr("cannot create this folder"), {} };
    auto removeStatus = [&container] { QDir(container.statusDirectory).removeRecursively(); };
    const QJsonObject labels = ContainerLeftovers::labels(m_instanceLabel);
    Result<DockerApi::Response> created = m_api.post(
        QStringLiteral("/containers/create?name=") + name,
        container.channel ? spec.createBody(labels, container.statusDirectory, container.channel->directory(),
                                            container.channel->socketName())
                          : spec.createBody(labels, container.statusDirectory),
        requestTimeoutMs);
    if (!created.ok()) {
        removeStatus();
        return created.error();
    }
    if (created.value().status != 201) {
        removeStatus();
        return Error{ spec.workspace(),
                      tr("the runtime refused to create the container: %1").arg(created.value().message()),
                      {} };
    }
    const QString id = created.value().json().value(QStringLiteral("Id")).toString();
    if (id.isEmpty()) {
        removeStatus();
        return Error{ spec.workspace(), tr("the runtime created a container but did not name it"), {} };
    }
    // The claims name the kernel of the runtime activation measured: not one the engine
    // changed to since (its default, say).
    if (!m_runtime.isEmpty()) {
        const QString used = EngineRuntime::runtimeOf(m_api, id, requestTimeoutMs);
        if (!used.isEmpty() && used != m_runtime) {
            m_api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true"), requestTimeoutMs);
            removeStatus();
            return Error{ spec.workspace(),
                          tr("the runtime made the container under the OCI runtime %1, not %2 as when the backend "
                             "was activated; activate it again")
                              .arg(used, m_runtime),
                          {} };
        }
    }
    Result<DockerApi::Response> started
        = m_api.post(QStringLiteral("/containers/") + id + QStringLiteral("/start"), {}, requestTimeoutMs);
    if (!started.ok() || (started.value().status != 204 && started.value().status != 304)) {
        const QString why = started.ok() ? started.value().message() : started.error().message;
        m_api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true"), requestTimeoutMs);
        removeStatus();
        return Error{ spec.workspace(), tr("the runtime could not start the container: %1").arg(why), {} };
    }
    if (container.channel) {
        // The first command may connect to the proxy at once: wait until the bridge listens.
        Result<int> ready
            = execute(m_api, id,
                      { QString::fromLatin1(ContainerSpec::helperTarget), QStringLiteral("--proxy-bridge-wait"),
                        QString::number(ContainerSpec::proxyPort) },
                      spec.user());
        if (!ready.ok() || ready.value() != 0) {
            m_api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true"), requestTimeoutMs);
            removeStatus();
            return Error{ spec.workspace(),
                          tr("the container's proxy bridge did not start: %1")
                              .arg(ready.ok() ? tr("exit status %1").arg(ready.value()) : ready.error().message),
                          {} };
        }
    }
    container.id = id;
    m_containers.insert(key, container);
    return Instance{ id, container.statusDirectory };
}

Result<int> ContainerPool::execute(const DockerApi &api, const QString &id, const QStringList &argv,
                                   const QString &user)
{
    const QJsonObject body{ { QStringLiteral("AttachStdin"), false },
                            { QStringLiteral("AttachStdout"), true },
                            { QStringLiteral("AttachStderr"), true },
                            { QStringLiteral("Cmd"), QJsonArray::fromStringList(argv) },
                            { QStringLiteral("User"), user } };
    Result<DockerApi::Response> created
        = api.post(QStringLiteral("/containers/") + id + QStringLiteral("/exec"), body, requestTimeoutMs);
    if (!created.ok())
        return created.error();
    if (created.value().status != 201)
        return Error{ argv.first(), created.value().message(), {} };
    const QString execId = created.value().json().value(QStringLiteral("Id")).toString();
    // Attached: the stream ends when the program does (a detached exec's state is not
    // always updated by Podman).
    Result<DockerApi::Stream> stream = api.startExec(execId, requestTimeoutMs);
    if (!stream.ok())
        return stream.error();
    QDeadlineTimer deadline(requestTimeoutMs);
    char buffer[4096];
    for (;;) {
        pollfd ready{ stream.value().fd, POLLIN, 0 };
        const int remaining = int(qMax<qint64>(0, deadline.remainingTime()));
        const int polled = ::poll(&ready, 1, remaining);
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0) {
            ::close(stream.value().fd);
            return Error{ argv.first(), tr("did not finish in time"), {} };
        }
        const ssize_t n = ::read(stream.value().fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
    }
    ::close(stream.value().fd);
    for (;;) {
        Result<DockerApi::Response> state
            = api.get(QStringLiteral("/exec/") + execId + QStringLiteral("/json"), requestTimeoutMs);
        if (!state.ok())
            return state.error();
        const QJsonObject json = state.value().json();
        if (!json.value(QStringLiteral("Running")).toBool())
            return json.value(QStringLiteral("ExitCode")).toInt(-1);
        if (deadline.hasExpired())
            return Error{ argv.first(), tr("did not finish in time"), {} };
        // The exit code is recorded a moment after the stream ends.
        ::usleep(2000);
    }
}

QString ContainerPool::remove(const Container &container, int timeoutMs)
{
    Result<DockerApi::Response> removed
        = m_api.remove(QStringLiteral("/containers/") + container.id + QStringLiteral("?force=true&v=true"), timeoutMs);
    if (!removed.ok())
        return removed.error().message;
    if (removed.value().status != 204 && removed.value().status != 404)
        return removed.value().message();
    QDir(container.statusDirectory).removeRecursively();
    return {};
}

void ContainerPool::discard(const QString &id)
{
    QMutexLocker locker(&m_mutex);
    for (auto it = m_containers.begin(); it != m_containers.end(); ++it) {
        if (it.value().id != id)
            continue;
        // Forgotten even when the runtime fails to remove it: no later command may run in it.
        remove(it.value(), requestTimeoutMs);
        m_containers.erase(it);
        return;
    }
}

Status ContainerPool::removeAll(int timeoutMs)
{
    QMutexLocker locker(&m_mutex);
    QStringList failures;
    for (auto it = m_containers.begin(); it != m_containers.end();) {
        if (const QString failure = remove(it.value(), timeoutMs); !failure.isEmpty()) {
            failures.append(failure);
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
