#include "RemoteDockerProcess.h"

#include "ContainerPool.h"
#include "core/launcher/SandboxInitRefusal.h"
#include "core/workspace/TarArchive.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>
#include <QTemporaryFile>
#include <QUrl>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <unistd.h>

namespace sandbox::power {

namespace {

constexpr int blockSize = 512;
// As many refusals as sandbox-init reports for one command at most.
constexpr int maxReportedRefusals = 64;
// The status file holds a few lines per refusal at most; more is not the helper's.
constexpr int maxStatusBytes = 1024 * 1024;

void putOctal(QByteArray &header, int offset, int width, qint64 value)
{
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(width - 1, '0');
    std::copy(digits.cbegin(), digits.cend(), header.begin() + offset);
}

QByteArray tarHeader(const QByteArray &name, int mode, uint uid, uint gid, qint64 size, char type)
{
    QByteArray header(blockSize, '\0');
    std::copy(name.cbegin(), name.cend(), header.begin());
    putOctal(header, 100, 8, mode);
    putOctal(header, 108, 8, uid);
    putOctal(header, 116, 8, gid);
    putOctal(header, 124, 12, size);
    putOctal(header, 136, 12, 0);
    header[156] = type;
    const QByteArray magic("ustar\0"
                           "00",
                           8);
    std::copy(magic.cbegin(), magic.cend(), header.begin() + 257);
    std::fill(header.begin() + 148, header.begin() + 156, ' ');
    uint sum = 0;
    for (const char byte : std::as_const(header))
        sum += uchar(byte);
    putOctal(header, 148, 7, sum);
    return header;
}

QByteArray padded(QByteArray data)
{
    if (const qsizetype rest = data.size() % blockSize; rest != 0)
        data.append(QByteArray(blockSize - rest, '\0'));
    return data;
}

QString archivePath(const QString &containerId, const QString &path)
{
    return QStringLiteral("/containers/") + containerId + QStringLiteral("/archive?path=")
        + QString::fromLatin1(QUrl::toPercentEncoding(path));
}

} // namespace

RemoteDockerProcess::RemoteDockerProcess(DockerApi api, ContainerSpec spec, SpawnRequest request, const Policy &policy,
                                         QJsonObject labels, QString remote, LinkCheck linkLost, ProxyOpener openProxy,
                                         ConnectionHold holdConnection)
    : m_api(std::move(api))
    , m_spec(std::move(spec))
    , m_request(std::move(request))
    , m_labels(std::move(labels))
    , m_remote(std::move(remote))
    , m_linkLost(std::move(linkLost))
    , m_openProxy(std::move(openProxy))
    , m_holdConnection(std::move(holdConnection))
    , m_statusName(QUuid::createUuid().toString(QUuid::Id128))
    , m_sync(m_request.effectiveWorkspace(), policy, *this, m_remote)
{
    connect(&m_sync, &WorkspaceSync::uploaded, this, [this] {
        if (m_ended)
            return;
        if (const std::optional<ExitStatus> ended = endedBySignal())
            return finish(*ended);
        m_commandRan = true;
        m_worker = std::thread([this] { run(); });
    });
    connect(&m_sync, &WorkspaceSync::uploadFailed, this, [this](const QString &why) {
        if (const std::optional<ExitStatus> ended = endedBySignal())
            return finish(*ended);
        fail(explain(why));
    });
    connect(&m_sync, &WorkspaceSync::note, this, &SandboxProcess::stderrReady);
    connect(&m_sync, &WorkspaceSync::broughtBack, this, &RemoteDockerProcess::finish);
}

RemoteDockerProcess::~RemoteDockerProcess()
{
    stopWorker();
}

Result<QByteArray> RemoteDockerProcess::helperArchive(const QString &helper, const QString &statusName, uint uid,
                                                      uint gid)
{
    QFile file(helper);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ helper, tr("the engine's helper (sandbox-init) cannot be read: %1").arg(file.errorString()), {} };
    const QByteArray program = file.readAll();
    const QByteArray status = QFileInfo(QString::fromLatin1(ContainerSpec::statusTarget)).fileName().toLatin1();
    const QByteArray helperName = QFileInfo(QString::fromLatin1(ContainerSpec::helperTarget)).fileName().toLatin1();
    QByteArray archive = tarHeader(helperName, 0555, 0, 0, program.size(), '0') + padded(program);
    archive += tarHeader(status + '/', 0755, 0, 0, 0, '5');
    archive += tarHeader(status + '/' + statusName.toLatin1(), 0600, uid, gid, 0, '0');
    archive += QByteArray(2 * blockSize, '\0');
    return archive;
}

void RemoteDockerProcess::terminate()
{
    ExecStreamProcess::terminate();
    // Before the command runs there is nothing to signal: the upload stops instead.
    if (!m_commandRan)
        m_sync.abort();
}

void RemoteDockerProcess::kill()
{
    ExecStreamProcess::kill();
    if (!m_commandRan)
        m_sync.abort();
}

std::optional<ExitStatus> RemoteDockerProcess::endedBySignal() const
{
    QMutexLocker locker(&m_mutex);
    if (m_signal == Signal::None)
        return std::nullopt;
    return ExitStatus{ 0, true, m_signal == Signal::Kill ? SIGKILL : SIGTERM, false };
}

QString RemoteDockerProcess::explain(const QString &what) const
{
    const QString lost = m_linkLost ? m_linkLost(true) : QString();
    return lost.isEmpty() ? what : lost;
}

void RemoteDockerProcess::start()
{
    {
        QMutexLocker locker(&m_mutex);
        m_running = true;
    }
    // Nothing of this object is touched off its thread but through copies: it may go first.
    // Held from before the container is made: no activation's sweep can take it for a leftover.
    const QString name = QStringLiteral("sandbox-studio-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    m_hold = ContainerLeftovers::hold(name);
    QtConcurrent::run([api = m_api, spec = m_spec, labels = m_labels, name, statusName = m_statusName,
                       linkLost = m_linkLost, openProxy = m_openProxy] {
        return create(api, spec, labels, name, statusName, linkLost, openProxy);
    }).then(this, [this](const Created &result) { created(result); });
}

RemoteDockerProcess::Created RemoteDockerProcess::create(const DockerApi &api, ContainerSpec spec,
                                                         const QJsonObject &labels, const QString &name,
                                                         const QString &statusName, const LinkCheck &linkLost,
                                                         const ProxyOpener &openProxy)
{
    auto explain = [&linkLost](const QString &what) {
        const QString lost = linkLost ? linkLost(true) : QString();
        return lost.isEmpty() ? what : lost;
    };
    // The proxy's forward exists before the container that mounts its folder, and goes after it.
    std::optional<RemoteProxy> proxy;
    if (spec.proxied()) {
        if (!openProxy)
            return Created{ {}, tr("no filtering proxy is available to this backend"), {} };
        Result<RemoteProxy> opened = openProxy(spec);
        if (!opened.ok())
            return Created{ {}, opened.error().message, {} };
        proxy = opened.value();
        spec.setBridgeUser(proxy->bridgeUser);
    }
    Result<DockerApi::Response> made
        = api.post(QStringLiteral("/containers/create?name=") + name,
                   proxy ? spec.createBody(labels, {}, proxy->folder, proxy->socketName) : spec.createBody(labels),
                   ContainerPool::requestTimeoutMs);
    if (!made.ok())
        return Created{ {}, explain(made.error().message), proxy };
    if (made.value().status != 201)
        return Created{ {}, tr("the runtime refused to create the container: %1").arg(made.value().message()), proxy };
    const QString id = made.value().json().value(QStringLiteral("Id")).toString();
    const QStringList user = spec.user().split(QLatin1Char(':'));
    if (const QString why = putHelper(api, id, spec.helperProgram(), statusName, user.value(0).toUInt(),
                                      user.value(1).toUInt(), ContainerPool::requestTimeoutMs);
        !why.isEmpty()) {
        api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true&v=true"),
                   ContainerPool::requestTimeoutMs);
        return Created{ {}, explain(why), proxy };
    }
    return Created{ id, {}, proxy };
}

QString RemoteDockerProcess::putHelper(const DockerApi &api, const QString &containerId, const QString &helper,
                                       const QString &statusName, uint uid, uint gid, int timeoutMs)
{
    Result<QByteArray> archive = helperArchive(helper, statusName, uid, gid);
    if (!archive.ok())
        return archive.error().message;
    QTemporaryFile file(QDir::tempPath() + QStringLiteral("/sandbox-helper-XXXXXX.tar"));
    if (!file.open() || file.write(archive.value()) != archive.value().size() || !file.flush())
        return tr("the helper's archive cannot be written: %1").arg(file.errorString());
    Result<DockerApi::Response> put = api.putArchive(
        archivePath(containerId, QString::fromLatin1(ContainerSpec::remoteFolder)), file.fileName(), {}, timeoutMs);
    if (!put.ok())
        return tr("the engine's helper could not be put into the container: %1").arg(put.error().message);
    if (put.value().status != 200)
        return tr("the engine's helper could not be put into the container: %1").arg(put.value().message());
    return {};
}

void RemoteDockerProcess::created(const Created &result)
{
    m_proxy = result.proxy;
    if (!result.containerId.isEmpty()) {
        m_containerId = result.containerId;
        m_transfer = std::make_unique<DockerArchiveTransfer>(m_api, m_containerId, m_spec.workspace());
    }
    if (m_ended)
        return removeContainer();
    if (const std::optional<ExitStatus> ended = endedBySignal())
        return finish(*ended);
    if (!result.error.isEmpty())
        return fail(result.error);
    m_sync.upload();
}

void RemoteDockerProcess::send(const QString &archive, Progress progress, Done done)
{
    m_transfer->send(archive, std::move(progress), std::move(done));
}

void RemoteDockerProcess::fetch(Sink sink, Done done)
{
    m_transfer->fetch(std::move(sink), [this, done = std::move(done)](const QString &error) {
        done(error.isEmpty() ? error : explain(error));
    });
}

void RemoteDockerProcess::run()
{
    auto ended = [this](const ExitStatus &status, const QString &lost) {
        QMetaObject::invokeMethod(
            this, [this, status, lost] { commandEnded(status, lost); }, Qt::QueuedConnection);
    };
    auto failed = [this](const QString &why) {
        QMetaObject::invokeMethod(
            this, [this, why] { fail(why); }, Qt::QueuedConnection);
    };
    Result<DockerApi::Response> launched = m_api.post(
        QStringLiteral("/containers/") + m_containerId + QStringLiteral("/start"), {}, ContainerPool::requestTimeoutMs);
    if (!launched.ok())
        return failed(explain(launched.error().message));
    if (launched.value().status != 204 && launched.value().status != 304)
        return failed(tr("the runtime could not start the container: %1").arg(launched.value().message()));
    // The command may connect to the proxy at once: the bridge listens first.
    if (m_spec.proxied()) {
        Result<int> ready = ContainerPool::execute(m_api, m_containerId,
                                                   { QString::fromLatin1(ContainerSpec::helperTarget),
                                                     QStringLiteral("--proxy-bridge-wait"),
                                                     QString::number(ContainerSpec::proxyPort) },
                                                   m_spec.user());
        if (!ready.ok() || ready.value() != 0)
            return failed(
                explain(tr("the container's proxy bridge did not start: %1")
                            .arg(ready.ok() ? tr("exit status %1").arg(ready.value()) : ready.error().message)));
    }
    // The command starts where it asked to when that lies in the workspace, the only folder
    // of the host's there; else at the workspace's root.
    const QString cwd = Policy::isInside(QDir::cleanPath(m_request.cwd), m_spec.workspace())
        ? QDir::cleanPath(m_request.cwd)
        : m_spec.workspace();
    // The proxy variables replace the request's: it cannot point tools elsewhere (and there is
    // nowhere else to go).
    const QStringList proxyEnvironment = m_spec.proxyEnvironment();
    QSet<QString> reserved;
    for (const QString &variable : proxyEnvironment)
        reserved.insert(variable.section(QLatin1Char('='), 0, 0));
    QJsonArray env;
    for (auto it = m_request.env.cbegin(); it != m_request.env.cend(); ++it) {
        if (!reserved.contains(it.key()))
            env.append(QString(it.key() + QLatin1Char('=') + it.value()));
    }
    for (const QString &variable : proxyEnvironment)
        env.append(variable);
    const QJsonObject execBody{ { QStringLiteral("AttachStdin"), true },
                                { QStringLiteral("AttachStdout"), true },
                                { QStringLiteral("AttachStderr"), true },
                                { QStringLiteral("Tty"), false },
                                { QStringLiteral("Cmd"),
                                  QJsonArray::fromStringList(m_spec.gateArguments(m_request.argv, m_statusName, {})) },
                                { QStringLiteral("Env"), env },
                                { QStringLiteral("WorkingDir"), cwd },
                                { QStringLiteral("User"), m_spec.user() } };
    Result<DockerApi::Response> created
        = m_api.post(QStringLiteral("/containers/") + m_containerId + QStringLiteral("/exec"), execBody,
                     ContainerPool::requestTimeoutMs);
    if (!created.ok())
        return failed(explain(created.error().message));
    if (created.value().status != 201)
        return failed(tr("the runtime refused the command: %1").arg(created.value().message()));
    const QString execId = created.value().json().value(QStringLiteral("Id")).toString();
    Result<DockerApi::Stream> opened = m_api.startExec(execId, ContainerPool::requestTimeoutMs);
    if (!opened.ok())
        return failed(explain(opened.error().message));
    QMetaObject::invokeMethod(
        this, [this] { emit started(); }, Qt::QueuedConnection);
    stream(opened.value().fd, opened.value().pending);
    ::close(opened.value().fd);

    if (const std::optional<ExitStatus> killed = endedBySignal())
        return ended(*killed, {});
    // The stream ended with the command, or with the connection that carried it.
    if (const QString lost = m_linkLost ? m_linkLost(false) : QString(); !lost.isEmpty())
        return ended(ExitStatus{ 255, false, 0, false }, lost);
    ExitStatus status;
    QDeadlineTimer deadline(ContainerPool::requestTimeoutMs);
    for (;;) {
        Result<DockerApi::Response> done
            = m_api.get(QStringLiteral("/exec/") + execId + QStringLiteral("/json"), ContainerPool::requestTimeoutMs);
        if (!done.ok())
            return ended(ExitStatus{ 255, false, 0, false }, explain(done.error().message));
        const QJsonObject state = done.value().json();
        if (!state.value(QStringLiteral("Running")).toBool() || deadline.hasExpired()) {
            const int code = state.value(QStringLiteral("ExitCode")).toInt(-1);
            status.exitCode = code < 0 ? 127 : code;
            break;
        }
        // The exit code is recorded a moment after the stream ends.
        ::usleep(2000);
    }
    // What sandbox-init reported, now that it has ended.
    QByteArray statusArchive;
    const Status fetched = m_api.getArchive(
        archivePath(m_containerId, QString::fromLatin1(ContainerSpec::statusTarget) + QLatin1Char('/') + m_statusName),
        [&statusArchive](const QByteArray &chunk) {
            statusArchive += chunk;
            return statusArchive.size() <= maxStatusBytes;
        },
        ContainerPool::requestTimeoutMs);
    if (fetched.ok()) {
        Result<TarArchive> read = TarArchive::read(statusArchive);
        if (read.ok() && !read.value().files.isEmpty()) {
            const QByteArray &data = read.value().files.first().data;
            const QByteArray lines(data.constData(), data.size());
            QMetaObject::invokeMethod(
                this, [this, lines] { readStatus(lines); }, Qt::QueuedConnection);
        }
    }
    ended(status, {});
}

void RemoteDockerProcess::readStatus(const QByteArray &lines)
{
    int reported = 0;
    for (const QByteArray &raw : lines.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        // Only what sandbox-init refused is taken from it; what follows the kind came from the
        // command: data only.
        if (line.section(QLatin1Char(' '), 0, 0) != QLatin1String("refused") || reported >= maxReportedRefusals)
            continue;
        std::optional<Refusal> refusal
            = SandboxInitRefusal::fromStatus(line.section(QLatin1Char(' '), 1, 1), line.section(QLatin1Char(' '), 2));
        if (!refusal)
            continue;
        ++reported;
        emit refused(*refusal);
    }
}

void RemoteDockerProcess::stream(int fd, QByteArray pending)
{
    bool stdinOpen = true;
    for (;;) {
        emitFrames(pending);

        const Requests requests = takeRequests();
        // Nothing of the command may outlive it: removing its container ends all of it (the
        // engine cannot reach the remote host's processes one by one).
        if (requests.signal != Signal::None) {
            m_api.remove(QStringLiteral("/containers/") + m_containerId + QStringLiteral("?force=true&v=true"),
                         ContainerPool::requestTimeoutMs);
            return;
        }
        passInput(fd, requests, stdinOpen);
        pollfd fds[2] = { { fd, POLLIN, 0 }, { wakeFd(), POLLIN, 0 } };
        const int n = ::poll(fds, 2, -1);
        if (n < 0 && errno != EINTR)
            return;
        if (fds[1].revents & POLLIN)
            drainWake();
        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && !receive(fd, pending))
            return;
    }
}

void RemoteDockerProcess::commandEnded(const ExitStatus &status, const QString &lost)
{
    if (m_worker.joinable())
        m_worker.join();
    if (m_ended)
        return;
    if (!lost.isEmpty()) {
        // The reason is a sentence of its own, which the note goes on from.
        const QString reason = lost.endsWith(QLatin1Char('.')) ? lost.chopped(1) : lost;
        emit stderrReady(tr("sandbox: the command ended with the connection to %1: %2. Nothing of the workspace was "
                            "brought back. Activate the backend again.\n")
                             .arg(m_remote, reason)
                             .toUtf8());
        return finish(status);
    }
    // The forward ended under the command (its remote folder's keeper is gone): its
    // connections through the proxy failed from then on, and nothing else was open to it.
    if (m_proxy && m_proxy->holding && !m_proxy->holding())
        emit stderrReady(tr("sandbox: the filtering proxy's forward to %1 ended while the command ran; its "
                            "connections through the proxy failed from then on\n")
                             .arg(m_remote)
                             .toUtf8());
    // Killed: its container (the workspace's copy with it) is gone.
    if (status.signaled) {
        emit stderrReady(tr("sandbox: the workspace was not brought back from %1\n").arg(m_remote).toUtf8());
        return finish(status);
    }
    m_sync.bringBack(status);
}

void RemoteDockerProcess::removeContainer()
{
    std::optional<RemoteProxy> proxy = std::exchange(m_proxy, std::nullopt);
    if (m_containerId.isEmpty() && !proxy) {
        m_hold.reset();
        return;
    }
    // Not waited for: the command's result does not depend on it. The proxy's forward and its
    // remote folder go once nothing mounts them; the connection is held until both are done.
    // The container is let go once its removal was asked, whatever the answer: one the engine
    // did not remove is a leftover for the next activation's sweep.
    [[maybe_unused]] QFuture<void> removed = QtConcurrent::run(
        [api = m_api, id = m_containerId, proxy = std::move(proxy), hold = std::exchange(m_hold, {}),
         connection = m_holdConnection ? m_holdConnection() : std::shared_ptr<void>()]() mutable {
            if (!id.isEmpty())
                api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true&v=true"),
                           ContainerPool::requestTimeoutMs);
            hold.reset();
            proxy.reset();
            connection.reset();
        });
}

void RemoteDockerProcess::fail(const QString &why)
{
    if (m_worker.joinable())
        m_worker.join();
    if (m_ended)
        return;
    m_ended = true;
    removeContainer();
    {
        QMutexLocker locker(&m_mutex);
        m_running = false;
    }
    emit failedToStart(Error{ m_request.argv.value(0), why, {} });
}

void RemoteDockerProcess::finish(const ExitStatus &status)
{
    if (m_ended)
        return;
    m_ended = true;
    removeContainer();
    {
        QMutexLocker locker(&m_mutex);
        m_exit = status;
        m_running = false;
    }
    emit finished(status);
}

} // namespace sandbox::power
