#include "DockerProcess.h"

#include "core/launcher/SandboxInitRefusal.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QScopeGuard>
#include <QSet>
#include <QUuid>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox::power {

namespace {

constexpr const char *tagVariable = "SANDBOX_STUDIO_EXEC";
constexpr int terminateGraceMs = 5000;
// As many refusals as sandbox-init reports for one command at most.
constexpr unsigned maxReportedRefusals = 64;

qint64 parentOf(const QString &pid)
{
    QFile stat(QStringLiteral("/proc/") + pid + QStringLiteral("/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 ? -1 : line.mid(close + 2).split(' ').value(1).toLongLong();
}

bool carriesTag(const QString &pid, const QByteArray &entry)
{
    QFile environ(QStringLiteral("/proc/") + pid + QStringLiteral("/environ"));
    if (!environ.open(QIODevice::ReadOnly))
        return false;
    return environ.readAll().split('\0').contains(entry);
}

} // namespace

DockerProcess::DockerProcess(std::shared_ptr<ContainerPool> pool, ContainerSpec spec, SpawnRequest request,
                             AgentOpener openAgent)
    : m_pool(std::move(pool))
    , m_spec(std::move(spec))
    , m_request(std::move(request))
    , m_openAgent(std::move(openAgent))
    , m_tag(QUuid::createUuid().toString(QUuid::Id128))
{ }

DockerProcess::~DockerProcess()
{
    stopWorker();
}

void DockerProcess::start()
{
    {
        QMutexLocker locker(&m_mutex);
        m_running = true;
    }
    m_worker = std::thread([this] { run(); });
}

qint64 DockerProcess::pid() const
{
    QMutexLocker locker(&m_mutex);
    return m_pid;
}

void DockerProcess::fail(const Error &error)
{
    {
        QMutexLocker locker(&m_mutex);
        m_running = false;
        m_ended = true;
    }
    QMetaObject::invokeMethod(
        this, [this, error] { emit failedToStart(error); }, Qt::QueuedConnection);
}

void DockerProcess::finish(const ExitStatus &status)
{
    QMetaObject::invokeMethod(
        this,
        [this, status] {
            {
                QMutexLocker locker(&m_mutex);
                m_exit = status;
                m_running = false;
                m_ended = true;
            }
            emit finished(status);
        },
        Qt::QueuedConnection);
}

void DockerProcess::endAll(int signal)
{
    // The command's processes: those carrying its tag, and everything below its first one.
    const QByteArray entry = QByteArray(tagVariable) + '=' + m_tag.toLatin1();
    qint64 root = 0;
    {
        QMutexLocker locker(&m_mutex);
        root = m_pid;
    }
    for (int round = 0; round < 50; ++round) {
        QHash<qint64, qint64> parents;
        QSet<qint64> targets;
        for (const QString &name : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            bool numeric = false;
            const qint64 pid = name.toLongLong(&numeric);
            if (!numeric || pid == QCoreApplication::applicationPid())
                continue;
            parents.insert(pid, parentOf(name));
            if (carriesTag(name, entry))
                targets.insert(pid);
        }
        if (root > 0 && parents.contains(root))
            targets.insert(root);
        bool grew = true;
        while (grew) {
            grew = false;
            for (auto it = parents.cbegin(); it != parents.cend(); ++it) {
                if (!targets.contains(it.key()) && targets.contains(it.value())) {
                    targets.insert(it.key());
                    grew = true;
                }
            }
        }
        if (targets.isEmpty() || signal != SIGKILL) {
            for (const qint64 pid : std::as_const(targets))
                ::kill(pid_t(pid), signal);
            return;
        }
        for (const qint64 pid : std::as_const(targets))
            ::kill(pid_t(pid), SIGKILL);
        // Killed processes leave /proc once reaped by the container's keeper.
        QDeadlineTimer settle(20);
        while (!settle.hasExpired())
            ::usleep(2000);
    }
}

void DockerProcess::run()
{
    const DockerApi &api = m_pool->api();
    Result<ContainerPool::Instance> container = m_pool->containerFor(m_spec);
    if (!container.ok())
        return fail(container.error());
    {
        QMutexLocker locker(&m_mutex);
        m_containerId = container.value().id;
        if (m_signal == Signal::Kill) {
            locker.unlock();
            return finish(ExitStatus{ 0, true, SIGKILL, false });
        }
    }

    // The command's own SSH agent, in the container's status folder (the command reaches no
    // other unix socket); it serves until this function returns, after the command has ended.
    LauncherHost::SshAgentSandbox agent;
    if (m_spec.sshAgent()) {
        if (!m_openAgent)
            return fail(Error{ QStringLiteral("policy.sshAgent"), tr("This engine offers no SSH agent."), {} });
        Result<LauncherHost::SshAgentSandbox> opened
            = m_openAgent(container.value().statusDirectory, QString::fromLatin1(ContainerSpec::statusTarget),
                          [this](const Refusal &refusal) {
                              QMetaObject::invokeMethod(
                                  this, [this, refusal] { emit refused(refusal); }, Qt::QueuedConnection);
                          });
        if (!opened.ok())
            return fail(opened.error());
        agent = opened.value();
    }
    // The proxy and agent variables replace the request's: it cannot point tools elsewhere
    // (and there is nowhere else to go).
    QStringList proxyEnvironment = m_spec.proxyEnvironment();
    for (auto it = agent.environment.cbegin(); it != agent.environment.cend(); ++it)
        proxyEnvironment.append(it.key() + QLatin1Char('=') + it.value());
    QSet<QString> reserved{ QString::fromLatin1(tagVariable) };
    for (const QString &variable : proxyEnvironment)
        reserved.insert(variable.section(QLatin1Char('='), 0, 0));
    QJsonArray env;
    for (auto it = m_request.env.cbegin(); it != m_request.env.cend(); ++it) {
        if (!reserved.contains(it.key()))
            env.append(QString(it.key() + QLatin1Char('=') + it.value()));
    }
    env.append(QString(QLatin1String(tagVariable) + QLatin1Char('=') + m_tag));
    for (const QString &variable : proxyEnvironment)
        env.append(variable);
    // The command's status FIFO, owner-only and write-only: sandbox-init opens it for writing,
    // nothing in the container can read it, and the write gate refuses every other writer.
    const QString statusName = m_tag;
    const QByteArray fifo = QFile::encodeName(QDir(container.value().statusDirectory).filePath(statusName));
    const bool made = ::mkfifo(fifo.constData(), 0600) == 0;
    if (made)
        m_statusFd = ::open(fifo.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (made && (m_statusFd < 0 || ::chmod(fifo.constData(), 0200) != 0)) {
        const int saved = errno;
        if (m_statusFd >= 0)
            ::close(m_statusFd);
        m_statusFd = -1;
        ::unlink(fifo.constData());
        errno = saved;
    }
    if (m_statusFd < 0)
        return fail(Error{
            QFile::decodeName(fifo),
            tr("cannot create the command's status channel: %1").arg(QString::fromLocal8Bit(std::strerror(errno))),
            {} });
    // Gone from the folder once the command has ended, whichever way it ends.
    const auto removeStatus = qScopeGuard([this, fifo] {
        ::unlink(fifo.constData());
        readStatus();
        ::close(m_statusFd);
        m_statusFd = -1;
    });
    const QJsonObject execBody{ { QStringLiteral("AttachStdin"), true },
                                { QStringLiteral("AttachStdout"), true },
                                { QStringLiteral("AttachStderr"), true },
                                { QStringLiteral("Tty"), false },
                                { QStringLiteral("Cmd"),
                                  QJsonArray::fromStringList(m_spec.gateArguments(m_request.argv, statusName,
                                                                                  container.value().statusDirectory,
                                                                                  agent.socketName)) },
                                { QStringLiteral("Env"), env },
                                { QStringLiteral("WorkingDir"), m_request.cwd },
                                { QStringLiteral("User"), m_spec.user() } };
    Result<DockerApi::Response> created
        = api.post(QStringLiteral("/containers/") + container.value().id + QStringLiteral("/exec"), execBody,
                   ContainerPool::requestTimeoutMs);
    if (!created.ok())
        return fail(created.error());
    if (created.value().status != 201)
        return fail(Error{
            m_request.argv.first(), tr("the runtime refused the command: %1").arg(created.value().message()), {} });
    const QString execId = created.value().json().value(QStringLiteral("Id")).toString();
    Result<DockerApi::Stream> stream = api.startExec(execId, ContainerPool::requestTimeoutMs);
    if (!stream.ok())
        return fail(stream.error());

    Result<DockerApi::Response> inspected
        = api.get(QStringLiteral("/exec/") + execId + QStringLiteral("/json"), ContainerPool::requestTimeoutMs);
    if (inspected.ok()) {
        QMutexLocker locker(&m_mutex);
        m_pid = qint64(inspected.value().json().value(QStringLiteral("Pid")).toDouble());
    }
    QMetaObject::invokeMethod(
        this, [this] { emit started(); }, Qt::QueuedConnection);

    this->stream(stream.value().fd, stream.value().pending);
    ::close(stream.value().fd);
    // sandbox-init has ended (its output with it): what it reported is all in the FIFO.
    readStatus();

    Signal signal = Signal::None;
    {
        QMutexLocker locker(&m_mutex);
        signal = m_signal;
    }
    // Nothing of the command outlives it: what it left running in the background ends too.
    endAll(SIGKILL);
    // sandbox-init ended without saying so, and the engine did not end it: the command killed
    // it (commands share the container's pid namespace), so what it left may have dropped the
    // command's tag and escaped endAll(). The container goes with it.
    if (!m_initEnded && signal == Signal::None)
        m_pool->discard(container.value().id);
    ExitStatus status;
    if (signal != Signal::None) {
        status.signaled = true;
        status.signal = signal == Signal::Kill ? SIGKILL : SIGTERM;
    } else {
        // The exit code is recorded a moment after the stream ends.
        QDeadlineTimer deadline(ContainerPool::requestTimeoutMs);
        for (;;) {
            Result<DockerApi::Response> done
                = api.get(QStringLiteral("/exec/") + execId + QStringLiteral("/json"), ContainerPool::requestTimeoutMs);
            const QJsonObject state = done.ok() ? done.value().json() : QJsonObject();
            if (!done.ok() || !state.value(QStringLiteral("Running")).toBool() || deadline.hasExpired()) {
                const int code = state.value(QStringLiteral("ExitCode")).toInt(-1);
                status.exitCode = code < 0 ? 127 : code;
                break;
            }
            ::usleep(2000);
        }
    }
    finish(status);
}

bool DockerProcess::readStatus()
{
    if (m_statusFd < 0)
        return false;
    bool open = true;
    for (;;) {
        char buffer[4096];
        const ssize_t n = ::read(m_statusFd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        if (n <= 0) {
            open = false; // the writer has gone
            break;
        }
        m_statusBuffer.append(buffer, n);
    }
    qsizetype newline;
    while ((newline = m_statusBuffer.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_statusBuffer.left(newline));
        m_statusBuffer.remove(0, newline + 1);
        // Its last line says how the command ended, once it has ended everything of it.
        const QString first = line.section(QLatin1Char(' '), 0, 0);
        if (first == QLatin1String("exit") || first == QLatin1String("signal"))
            m_initEnded = true;
        // Only what sandbox-init refused is taken from it; the command's start and end are the
        // runtime's to tell. What follows the kind came from the command: data only.
        if (first != QLatin1String("refused") || m_reportedRefusals >= maxReportedRefusals)
            continue;
        std::optional<Refusal> refusal
            = SandboxInitRefusal::fromStatus(line.section(QLatin1Char(' '), 1, 1), line.section(QLatin1Char(' '), 2));
        if (!refusal)
            continue;
        ++m_reportedRefusals;
        QMetaObject::invokeMethod(
            this, [this, refusal = *refusal] { emit refused(refusal); }, Qt::QueuedConnection);
    }
    return open;
}

void DockerProcess::stream(int fd, QByteArray pending)
{
    bool stdinOpen = true;
    bool statusOpen = m_statusFd >= 0;
    bool termSent = false;
    QDeadlineTimer killAt = QDeadlineTimer::Forever;
    for (;;) {
        emitFrames(pending);

        const Requests requests = takeRequests();
        if (requests.signal == Signal::Kill) {
            endAll(SIGKILL);
            return;
        }
        if (requests.signal == Signal::Term && !termSent) {
            endAll(SIGTERM);
            termSent = true;
            killAt = QDeadlineTimer(terminateGraceMs);
        }
        if (termSent && killAt.hasExpired()) {
            endAll(SIGKILL);
            return;
        }
        passInput(fd, requests, stdinOpen);

        pollfd fds[3] = { { fd, POLLIN, 0 }, { wakeFd(), POLLIN, 0 }, { statusOpen ? m_statusFd : -1, POLLIN, 0 } };
        const int timeout = termSent ? int(qMax<qint64>(1, killAt.remainingTime())) : -1;
        const int n = ::poll(fds, 3, timeout);
        if (n < 0 && errno != EINTR)
            return;
        if (fds[1].revents & POLLIN)
            drainWake();
        if (fds[2].revents & (POLLIN | POLLHUP | POLLERR))
            statusOpen = readStatus();
        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && !receive(fd, pending))
            return;
    }
}

} // namespace sandbox::power
