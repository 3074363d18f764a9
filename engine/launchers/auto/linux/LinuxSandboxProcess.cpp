#include "LinuxSandboxProcess.h"

#include "core/launcher/SandboxInitRefusal.h"
#include "fdio/FdIo.h"
#include "handoff/InitHandoff.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandbox {

namespace {

// sandbox-init as every launch starts it (InitHandoff): an environment of its own, at "/",
// the configuration on fd 3 and the status channel on fd 4 of the child.
QProcess *startInit(const QString &initPath, int configFd, int statusWrite, QObject *parent)
{
    auto *process = new QProcess(parent);
    process->setProgram(initPath);
    QProcessEnvironment environment;
    environment.insert(QLatin1String(init::kEnvironmentName), QLatin1String(init::kEnvironmentValue));
    process->setProcessEnvironment(environment);
    process->setWorkingDirectory(QLatin1String(init::kWorkingDirectory));
    process->setChildProcessModifier([configFd, statusWrite] {
        if (!init::placeDescriptors(configFd, statusWrite))
            _exit(125);
    });
    return process;
}

// A sandbox-init started ahead of the command that will use it, blocked reading its
// configuration from a socket only the engine holds the other end of (unlike a pipe, a
// socket cannot be opened again through /proc/PID/fd, so no other process can write a
// configuration into it): its exec and start-up then happen between two commands instead
// of in front of one. One per engine thread, and
// only where commands keep coming (a thread's third launch on), so an engine that runs
// one command starts none.
struct Spare
{
    QPointer<QProcess> process;
    QString initPath;
    int configWrite = -1; // the engine's end of the configuration socket
    int statusRead = -1; // non-blocking

    Spare() = default;
    Spare(const Spare &) = delete;
    Spare &operator=(const Spare &) = delete;
    // At the thread's end: the process went with the thread, its descriptors go here.
    ~Spare() { closeDescriptors(); }

    void discard()
    {
        if (process) {
            QObject::disconnect(process, nullptr, nullptr, nullptr);
            if (process->state() == QProcess::NotRunning) {
                process->deleteLater();
            } else {
                QObject::connect(process, &QProcess::finished, process, &QObject::deleteLater);
                process->kill();
            }
        }
        process.clear();
        closeDescriptors();
    }

    void closeDescriptors()
    {
        if (configWrite >= 0)
            close(configWrite);
        if (statusRead >= 0)
            close(statusRead);
        configWrite = statusRead = -1;
    }
};

thread_local Spare t_spare;
thread_local int t_launches = 0;
constexpr int kLaunchesBeforeSpares = 2;

bool onEngineThread()
{
    // Not on a program's main thread: what an idle spare holds is released when its thread
    // ends, and the main thread's end is the program's.
    return QCoreApplication::instance() && QThread::currentThread() != QCoreApplication::instance()->thread();
}

void prepareSpare(const QString &initPath)
{
    if (t_spare.process || !onEngineThread())
        return;
    int configChannel[2] = { -1, -1 };
    int statusPipe[2] = { -1, -1 };
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, configChannel) != 0)
        return;
    if (pipe2(statusPipe, O_CLOEXEC) != 0) {
        close(configChannel[0]);
        close(configChannel[1]);
        return;
    }
    QProcess *process = startInit(initPath, configChannel[0], statusPipe[1], nullptr);
    // It dies with its thread (PR_SET_PDEATHSIG); the object goes with it.
    QObject::connect(QThread::currentThread(), &QThread::finished, process, &QObject::deleteLater);
    process->start(QIODevice::ReadWrite);
    close(configChannel[0]);
    close(statusPipe[1]);
    if (process->state() == QProcess::NotRunning) {
        delete process;
        close(configChannel[1]);
        close(statusPipe[0]);
        return;
    }
    fcntl(statusPipe[0], F_SETFL, fcntl(statusPipe[0], F_GETFL) | O_NONBLOCK);
    t_spare.process = process;
    t_spare.initPath = initPath;
    t_spare.configWrite = configChannel[1];
    t_spare.statusRead = statusPipe[0];
    // A spare that ends on its own (killed from outside) is no spare.
    QObject::connect(process, &QProcess::finished, process, [process] {
        if (t_spare.process == process)
            t_spare.discard();
    });
}

// The spare, given `config`; null when there is none for `initPath` or it cannot take
// this configuration whole without blocking (it is then discarded).
QProcess *takeSpare(const QString &initPath, const QByteArray &config, int *statusRead)
{
    if (!t_spare.process || t_spare.initPath != initPath || t_spare.process->state() == QProcess::NotRunning
        || t_spare.process->bytesAvailable() > 0) {
        t_spare.discard();
        return nullptr;
    }
    qsizetype done = 0;
    while (done < config.size()) {
        const ssize_t n = send(t_spare.configWrite, config.constData() + done,
                               static_cast<size_t>(config.size() - done), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += n;
    }
    if (done < config.size()) {
        t_spare.discard();
        return nullptr;
    }
    close(t_spare.configWrite);
    t_spare.configWrite = -1;
    QProcess *process = t_spare.process;
    QObject::disconnect(process, nullptr, nullptr, nullptr);
    QObject::disconnect(QThread::currentThread(), &QThread::finished, process, nullptr);
    *statusRead = t_spare.statusRead;
    t_spare.statusRead = -1;
    t_spare.process.clear();
    return process;
}

} // namespace

LinuxSandboxProcess::LinuxSandboxProcess(QString initPath, QString where, ConfigBuilder builder,
                                         std::function<void()> onEnded, bool terminal, QObject *parent)
    : SandboxProcess(parent)
    , m_initPath(std::move(initPath))
    , m_where(std::move(where))
    , m_builder(std::move(builder))
    , m_onEnded(std::move(onEnded))
    , m_terminal(terminal)
{ }

LinuxSandboxProcess::~LinuxSandboxProcess()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        // Nothing outlives its process object: sandbox-init takes the whole sandbox down
        // when asked to end; SIGKILL is the fallback.
        const auto pid = static_cast<pid_t>(m_process->processId());
        init::askToEnd(pid);
        if (!m_process->waitForFinished(init::kKillFallbackMs)) {
            init::forceEnd(pid);
            m_process->waitForFinished(5000);
        }
    }
    if (m_statusFd >= 0)
        close(m_statusFd);
    if (m_masterFd >= 0)
        close(m_masterFd);
    if (m_state != State::Ended && m_onEnded)
        m_onEnded();
}

void LinuxSandboxProcess::startWith(bool exposeHostExecution)
{
    QMetaObject::invokeMethod(
        this, [this, exposeHostExecution] { launch(exposeHostExecution); }, Qt::QueuedConnection);
}

void LinuxSandboxProcess::startAfter(QFuture<HostInteractionResponse> answer)
{
    m_answerWatcher = new QFutureWatcher<HostInteractionResponse>(this);
    connect(m_answerWatcher, &QFutureWatcherBase::finished, this, [this] {
        bool accepted = false;
        if (!m_answerWatcher->isCanceled() && m_answerWatcher->future().resultCount() > 0)
            accepted = m_answerWatcher->result().accepted;
        if (m_state == State::Pending)
            launch(accepted);
    });
    m_answerWatcher->setFuture(answer);
}

void LinuxSandboxProcess::launch(bool exposeHostExecution)
{
    if (m_state != State::Pending)
        return;
    m_state = State::Starting;
    Result<QByteArray> config = m_builder(exposeHostExecution);
    if (!config) {
        endWithoutStart(config.error().message);
        return;
    }
    ++t_launches;
    int spareStatus = -1;
    // A spare's status channel is a pipe, which carries no descriptor: a terminal needs a socket.
    if (QProcess *spare = m_terminal ? nullptr : takeSpare(m_initPath, config.value(), &spareStatus)) {
        m_process = spare;
        m_process->setParent(this);
        m_statusFd = spareStatus;
        watchProcess();
        afterStart();
        return;
    }
    const int configFd
        = init::sealedConfiguration(std::string_view(config.value().constData(), size_t(config.value().size())));
    int statusPipe[2] = { -1, -1 };
    const bool channelMade = m_terminal ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, statusPipe) == 0
                                        : pipe2(statusPipe, O_CLOEXEC) == 0;
    if (configFd < 0 || !channelMade) {
        if (configFd >= 0)
            close(configFd);
        endWithoutStart(
            tr("cannot pass the configuration to sandbox-init: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return;
    }
    m_statusFd = statusPipe[0];
    // Never block the event loop on it, not even when draining at the end.
    fcntl(m_statusFd, F_SETFL, fcntl(m_statusFd, F_GETFL) | O_NONBLOCK);
    const int statusWrite = statusPipe[1];
    m_process = startInit(m_initPath, configFd, statusWrite, this);
    watchProcess();
    m_process->start(QIODevice::ReadWrite);
    close(configFd);
    close(statusWrite);
    afterStart();
}

void LinuxSandboxProcess::watchProcess()
{
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { emit stdoutReady(m_process->readAllStandardOutput()); });
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { emit stderrReady(m_process->readAllStandardError()); });
    connect(m_process, &QProcess::finished, this, &LinuxSandboxProcess::onProcessFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && m_state == State::Starting)
            endWithoutStart(tr("cannot run %1: %2").arg(m_initPath, m_process->errorString()));
    });
    m_statusNotifier = new QSocketNotifier(m_statusFd, QSocketNotifier::Read, this);
    connect(m_statusNotifier, &QSocketNotifier::activated, this, &LinuxSandboxProcess::readStatus);
}

void LinuxSandboxProcess::afterStart()
{
    if (m_state != State::Starting || m_terminal)
        return; // failed to start, already reported; or input waits for the terminal
    if (!m_pendingStdin.isEmpty())
        m_process->write(m_pendingStdin);
    m_pendingStdin.clear();
    if (m_pendingClose)
        m_process->closeWriteChannel();
}

bool LinuxSandboxProcess::readStatus()
{
    if (m_statusFd < 0)
        return false;
    char buffer[1024];
    ssize_t n;
    if (m_terminal) {
        iovec data = { buffer, sizeof buffer };
        fdio::DescriptorControl control;
        msghdr message = {};
        message.msg_iov = &data;
        message.msg_iovlen = 1;
        message.msg_control = control.bytes;
        message.msg_controllen = sizeof control.bytes;
        n = recvmsg(m_statusFd, &message, MSG_CMSG_CLOEXEC);
        if (const int fd = n > 0 ? fdio::attachedDescriptor(message) : -1; fd >= 0)
            adoptTerminal(fd);
    } else {
        n = read(m_statusFd, buffer, sizeof buffer);
    }
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
            m_statusNotifier->setEnabled(false);
            close(m_statusFd);
            m_statusFd = -1;
        }
        return n < 0 && errno == EINTR;
    }
    m_statusBuffer.append(buffer, n);
    qsizetype newline;
    while ((newline = m_statusBuffer.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_statusBuffer.left(newline));
        m_statusBuffer.remove(0, newline + 1);
        const QString key = line.section(QLatin1Char(' '), 0, 0);
        const QString value = line.section(QLatin1Char(' '), 1);
        if (key == QLatin1String("started") && m_state == State::Starting) {
            m_state = State::Running;
            emit started();
        } else if (key == QLatin1String("error") && m_setupError.isEmpty()) {
            m_setupError = value;
        } else if (key == QLatin1String("exit") && !m_haveExit) {
            m_haveExit = true;
            m_exit = ExitStatus{ value.toInt(), false, 0, false };
        } else if (key == QLatin1String("signal") && !m_haveExit) {
            m_haveExit = true;
            m_exit = ExitStatus{ 0, true, value.toInt(), false };
        } else if (key == QLatin1String("supervised")) {
            m_supervision = Supervision{ value.section(QLatin1Char(' '), 0, 0).toLongLong(),
                                         value.section(QLatin1Char(' '), 1, 1).toLongLong() };
        } else if (key == QLatin1String("refused") && m_reportedRefusals < kMaxReportedRefusals) {
            reportRefusal(value.section(QLatin1Char(' '), 0, 0), value.section(QLatin1Char(' '), 1));
        }
    }
    return true;
}

void LinuxSandboxProcess::reportRefusal(const QString &kind, const QString &what)
{
    std::optional<Refusal> refusal = SandboxInitRefusal::fromStatus(kind, what);
    if (!refusal)
        return;
    ++m_reportedRefusals;
    emit refused(*refusal);
}

void LinuxSandboxProcess::onProcessFinished()
{
    if (m_state == State::Ended)
        return;
    // sandbox-init has exited, so everything it wrote is in the pipe: drain it, and what the
    // command wrote to its terminal (every process that held the terminal is gone).
    while (readStatus()) { }
    while (readTerminal()) { }
    emit stdoutReady(m_process->readAllStandardOutput());
    emit stderrReady(m_process->readAllStandardError());
    const bool ran = m_state == State::Running;
    if (!ran && m_killRequested) {
        // Killed while the sandbox was being set up (e.g. the engine's timeout): that is
        // how it ended, not a setup failure.
        endBeforeStart(SIGKILL);
        return;
    }
    if (!ran) {
        QString message = m_setupError;
        if (message.isEmpty())
            message = tr("sandbox-init ended (status %1) before starting the command").arg(m_process->exitCode());
        endWithoutStart(message);
        return;
    }
    if (!m_haveExit) {
        if (m_process->exitStatus() == QProcess::CrashExit)
            m_exit = ExitStatus{ 0, true, m_process->exitCode() > 0 ? m_process->exitCode() : SIGKILL, false };
        else
            m_exit = ExitStatus{ m_process->exitCode(), false, 0, false };
    }
    m_state = State::Ended;
    if (m_onEnded)
        m_onEnded();
    emit finished(m_exit);
    if (t_launches >= kLaunchesBeforeSpares)
        QTimer::singleShot(0, [initPath = m_initPath] { prepareSpare(initPath); });
}

void LinuxSandboxProcess::adoptTerminal(int masterFd)
{
    if (!m_terminal || m_masterFd >= 0) {
        close(masterFd);
        return;
    }
    m_masterFd = masterFd;
    fcntl(m_masterFd, F_SETFL, fcntl(m_masterFd, F_GETFL) | O_NONBLOCK);
    m_masterReadNotifier = new QSocketNotifier(m_masterFd, QSocketNotifier::Read, this);
    connect(m_masterReadNotifier, &QSocketNotifier::activated, this, &LinuxSandboxProcess::readTerminal);
    m_masterWriteNotifier = new QSocketNotifier(m_masterFd, QSocketNotifier::Write, this);
    m_masterWriteNotifier->setEnabled(false);
    connect(m_masterWriteNotifier, &QSocketNotifier::activated, this, &LinuxSandboxProcess::flushTerminalInput);
    if (const std::optional<TerminalSize> size = std::exchange(m_terminalSize, std::nullopt))
        resizeTerminal(*size);
    flushTerminalInput();
}

bool LinuxSandboxProcess::readTerminal()
{
    if (m_masterFd < 0 || !m_masterReadNotifier->isEnabled())
        return false;
    char buffer[65536];
    const ssize_t n = read(m_masterFd, buffer, sizeof buffer);
    if (n > 0) {
        emit stdoutReady(QByteArray(buffer, n));
        return true;
    }
    // EIO: no process holds the terminal any more; what it wrote has been read.
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        m_masterReadNotifier->setEnabled(false);
        m_masterWriteNotifier->setEnabled(false);
    }
    return n < 0 && errno == EINTR;
}

void LinuxSandboxProcess::flushTerminalInput()
{
    if (m_masterFd < 0 || !m_masterReadNotifier->isEnabled())
        return;
    while (!m_terminalInput.isEmpty()) {
        const ssize_t n = write(m_masterFd, m_terminalInput.constData(), static_cast<size_t>(m_terminalInput.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        m_terminalInput.remove(0, n);
    }
    m_masterWriteNotifier->setEnabled(!m_terminalInput.isEmpty());
}

void LinuxSandboxProcess::resizeTerminal(const TerminalSize &size)
{
    if (!m_terminal || m_state == State::Ended)
        return;
    if (m_masterFd < 0) {
        m_terminalSize = size;
        return;
    }
    winsize window = {};
    window.ws_row = static_cast<unsigned short>(size.rows);
    window.ws_col = static_cast<unsigned short>(size.columns);
    // The kernel sends SIGWINCH to the terminal's foreground process group.
    ioctl(m_masterFd, TIOCSWINSZ, &window);
}

void LinuxSandboxProcess::endWithoutStart(const QString &message)
{
    if (m_state == State::Ended)
        return;
    m_state = State::Ended;
    m_exit = ExitStatus{ 125, false, 0, false };
    if (m_onEnded)
        m_onEnded();
    emit failedToStart(
        Error{ m_where, tr("The sandbox could not be set up, so the command was not run: %1").arg(message), {} });
}

void LinuxSandboxProcess::endBeforeStart(int signal)
{
    m_state = State::Ended;
    m_exit = ExitStatus{ 0, true, signal, false };
    if (m_onEnded)
        m_onEnded();
    emit finished(m_exit);
}

qint64 LinuxSandboxProcess::pid() const
{
    return m_process ? m_process->processId() : 0;
}

bool LinuxSandboxProcess::isRunning() const
{
    return m_state != State::Ended;
}

void LinuxSandboxProcess::writeStdin(const QByteArray &data)
{
    if (m_terminal) {
        if (m_state != State::Ended) {
            m_terminalInput += data;
            flushTerminalInput();
        }
        return;
    }
    if (m_process && m_process->state() != QProcess::NotRunning)
        m_process->write(data);
    else if (m_state == State::Pending)
        m_pendingStdin += data;
}

void LinuxSandboxProcess::closeStdin()
{
    // A terminal's input has no end: Ctrl-D typed there is a byte for its line discipline.
    if (m_terminal)
        return;
    if (m_process)
        m_process->closeWriteChannel();
    else
        m_pendingClose = true;
}

void LinuxSandboxProcess::terminate()
{
    if (m_state == State::Pending) {
        endBeforeStart(SIGTERM);
        return;
    }
    if (m_state == State::Ended || !m_process || m_process->processId() <= 0)
        return;
    ::kill(static_cast<pid_t>(m_process->processId()), SIGTERM);
    QTimer::singleShot(kTerminateGraceMs, this, [this] {
        if (m_state != State::Ended)
            kill();
    });
}

void LinuxSandboxProcess::deliverSignal(ProcessSignal signal)
{
    const int number = signal == ProcessSignal::Interrupt ? SIGINT : signal == ProcessSignal::Hangup ? SIGHUP : SIGTERM;
    if (m_state == State::Pending) {
        endBeforeStart(number);
        return;
    }
    if (m_state == State::Ended || !m_process || m_process->processId() <= 0)
        return;
    // sandbox-init passes SIGINT, SIGTERM and SIGHUP on to the command's process group.
    ::kill(static_cast<pid_t>(m_process->processId()), number);
}

void LinuxSandboxProcess::kill()
{
    if (m_state == State::Pending) {
        endBeforeStart(SIGKILL);
        return;
    }
    if (m_state == State::Ended || !m_process || m_process->processId() <= 0)
        return;
    m_killRequested = true;
    // sandbox-init kills the whole sandbox when asked to end; SIGKILL to it is the fallback
    // (its pid 1 / command die with it through PR_SET_PDEATHSIG).
    const auto pid = static_cast<pid_t>(m_process->processId());
    init::askToEnd(pid);
    QTimer::singleShot(init::kKillFallbackMs, this, [this, pid] {
        if (m_state != State::Ended && m_process && m_process->processId() == pid)
            init::forceEnd(pid);
    });
}

} // namespace sandbox
