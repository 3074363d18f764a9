#include "VmMachine.h"

#include "GuestProtocol.h"
#include "launchers/vm/guest/GuestAgentRelay.h"
#include "launchers/vm/image/LittleEndian.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QThread>

#include <utility>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#endif
#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#endif

namespace sandbox {

namespace {

QString consoleTail(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const qint64 size = file.size();
    file.seek(qMax<qint64>(0, size - 600));
    return QString::fromUtf8(file.readAll()).trimmed();
}

struct IoThread
{
    QMutex mutex;
    QThread *thread = nullptr;
    QObject *context = nullptr;
};

IoThread &ioThread()
{
    static IoThread io;
    return io;
}

} // namespace

QObject *VmMachine::startedIoContext()
{
    IoThread &io = ioThread();
    QMutexLocker lock(&io.mutex);
    return io.context;
}

QObject *VmMachine::ioContext()
{
    IoThread &io = ioThread();
    QMutexLocker lock(&io.mutex);
    if (!io.context) {
        io.thread = new QThread;
        io.thread->setObjectName(QStringLiteral("vm-io"));
        io.context = new QObject;
        io.context->moveToThread(io.thread);
        io.thread->start();
        qAddPostRoutine([] {
            IoThread &started = ioThread();
            QObject *context = started.context;
            QMetaObject::invokeMethod(
                context, [context] { delete context; }, Qt::BlockingQueuedConnection);
            started.thread->quit();
            started.thread->wait();
            QMutexLocker stopped(&started.mutex);
            started.context = nullptr;
            delete std::exchange(started.thread, nullptr);
        });
    }
    return io.context;
}

VmMachine::VmMachine(VmDriver::Command command, VmSpec spec, GuestLayout layout, int bootTimeoutMs, bool restoring)
    : m_command(std::move(command))
    , m_spec(std::move(spec))
    , m_layout(std::move(layout))
    , m_layoutKey(m_layout.key())
    , m_heldShares(m_spec.openedShares)
    , m_bootTimeoutMs(bootTimeoutMs)
    , m_restoring(restoring)
{
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setWorkingDirectory(m_spec.runDirectory);
    if (m_spec.userNetwork) {
        m_network = new UserNetwork({ m_spec.openedAddresses, m_spec.closedAddresses }, this);
        connect(m_network, &UserNetwork::failed, this, [this](const QString &reason) {
            fail(reason);
            stop();
        });
    }
    // qboot.rom and other firmware are looked up by QEMU in its data directory.
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(tr("%1 could not be started: %2").arg(m_command.program, m_process.errorString()));
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus) {
        if (m_network)
            m_network->stop(); // its way out goes with it
        const QString output = QString::fromUtf8(m_process.readAll()).trimmed();
        if (m_restarting)
            return; // the restored VM discarded for its cold boot
        if (!m_stopping && m_restoring && !m_coldCommand.program.isEmpty()) {
            abandonRestore(tr("the restored VM stopped (status %1)%2")
                               .arg(code)
                               .arg(output.isEmpty() ? QString() : QStringLiteral(": ") + output.right(400)));
            return;
        }
        if (!m_stopping) {
            fail(tr("the VM stopped (status %1)%2%3")
                     .arg(code)
                     .arg(output.isEmpty() ? QString() : QStringLiteral(": ") + output.right(400))
                     .arg(m_ready ? QString() : QStringLiteral("; guest console: ") + consoleTail(m_spec.consoleLog)));
        }
        for (auto it = m_sinks.cbegin(); it != m_sinks.cend(); ++it)
            it.value()(0, tr("the VM running this command stopped").toUtf8());
        m_sinks.clear();
        for (const quint32 id : m_agents.keys())
            dropAgent(id);
    });
    m_connectTimer.setInterval(10);
    connect(&m_connectTimer, &QTimer::timeout, this, &VmMachine::tryConnect);
    m_bootTimer.setSingleShot(true);
    connect(&m_bootTimer, &QTimer::timeout, this, [this] {
        if (m_restoring && !m_coldCommand.program.isEmpty()) {
            abandonRestore(tr("the restored guest did not answer within %1 s").arg(m_bootTimeoutMs / 1000));
            return;
        }
        fail(tr("the guest did not report its exec agent ready within %1 s; guest console: %2")
                 .arg(m_bootTimeoutMs / 1000)
                 .arg(consoleTail(m_spec.consoleLog)));
        stop();
    });
    connect(&m_channel, &QLocalSocket::readyRead, this, &VmMachine::readFrames);
    connect(&m_channel, &QLocalSocket::disconnected, this, [this] {
        // Before the agent is ready, QEMU's exit (with its message) or the boot deadline says why.
        if (!m_stopping && m_ready)
            fail(tr("the exec agent's channel closed"));
    });
}

VmMachine::~VmMachine()
{
    stop();
}

void VmMachine::start()
{
    m_clock.start();
#ifdef Q_OS_UNIX
    m_process.setChildProcessModifier({});
#endif
    if (m_network)
        m_network->arm(m_process);
#ifdef Q_OS_UNIX
    // The share directories the engine holds open (close-on-exec, so no other child of the
    // engine ever gets them) are inherited by QEMU alone; and QEMU ends with the engine, even
    // one killed with SIGKILL (this thread lives as long as the engine does).
    const std::function<void()> before = m_process.childProcessModifier();
    const QList<int> inherited = m_spec.openedShares ? m_spec.openedShares->descriptors() : QList<int>();
    m_process.setChildProcessModifier([before, inherited] {
        for (const int descriptor : inherited)
            ::fcntl(descriptor, F_SETFD, 0);
        if (before)
            before();
#ifdef Q_OS_LINUX
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    });
#endif
    m_process.start(m_command.program, m_command.arguments);
    m_connectTimer.start();
    m_bootTimer.start(m_bootTimeoutMs);
}

void VmMachine::stop()
{
    m_stopping = true;
    m_connectTimer.stop();
    m_bootTimer.stop();
    m_channel.abort();
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    if (m_network)
        m_network->stop();
}

void VmMachine::fail(const QString &reason)
{
    if (!m_failure.isEmpty())
        return;
    m_failure = reason;
    m_connectTimer.stop();
    m_bootTimer.stop();
    for (auto it = m_sinks.cbegin(); it != m_sinks.cend(); ++it)
        it.value()(0, reason.toUtf8());
    m_sinks.clear();
    for (const quint32 id : m_agents.keys())
        dropAgent(id);
    emit failed(reason);
}

void VmMachine::tryConnect()
{
    if (m_channel.state() != QLocalSocket::UnconnectedState)
        return;
    if (!QFileInfo::exists(m_spec.agentSocket))
        return;
    m_channel.connectToServer(m_spec.agentSocket);
    // The socket file appears before QEMU listens on it: keep trying until the boot deadline.
    if (m_channel.waitForConnected(2000))
        m_connectTimer.stop();
    else
        m_channel.abort();
}

void VmMachine::readFrames()
{
    if (m_abandoning)
        return;
    m_input += m_channel.readAll();
    while (m_input.size() >= 4) {
        const quint32 length = readLittleEndianU32(m_input.constData());
        if (length < 5 || length > guest::kMaxFrame) {
            fail(tr("the exec agent sent a malformed frame"));
            stop();
            return;
        }
        if (quint32(m_input.size()) < 4 + length)
            return;
        const quint8 type = quint8(m_input.at(4));
        const quint32 id = readLittleEndianU32(m_input.constData() + 5);
        const QByteArray payload = m_input.mid(9, int(length) - 5);
        m_input.remove(0, int(4 + length));
        if (type == guest::Ready) {
            // A restored guest's agent said it before the baseline was saved.
            if (!m_restoring)
                becomeReady();
            continue;
        }
        if (type == guest::Log) {
            emit log(QString::fromUtf8(payload));
            continue;
        }
        if (type == guest::AgentOpen || type == guest::AgentData || type == guest::AgentEof || type == guest::AgentClose
            || type == guest::AgentCredit) {
            // A command that ended (or never had an agent) has no relay: its frames are late.
            GuestAgentRelay *relay = m_agents.value(id);
            if (relay && !relay->handle(type, payload)) {
                fail(tr("the exec agent sent a malformed SSH agent frame"));
                stop();
                return;
            }
            continue;
        }
        const auto sink = m_sinks.constFind(id);
        if (sink == m_sinks.cend())
            continue;
        const Sink deliver = sink.value();
        if (type == guest::Exited || type == guest::SpawnFailed) {
            m_sinks.remove(id);
            dropAgent(id);
        }
        deliver(type, payload);
    }
}

void VmMachine::becomeReady()
{
    if (m_ready)
        return;
    m_ready = true;
    m_bootMs = m_clock.elapsed();
    m_bootTimer.stop();
    for (const QByteArray &frame : std::as_const(m_pending))
        m_channel.write(frame);
    m_pending.clear();
    emit ready();
}

void VmMachine::confirmRestored(const QByteArray &spawnPayload, const QByteArray &input)
{
    if (hasFailed() || m_ready)
        return;
    m_stateLoadedMs = m_clock.elapsed();
    auto errors = std::make_shared<QByteArray>();
    m_sinks.insert(kHandshakeId, [this, errors](quint8 type, const QByteArray &payload) {
        if (type == guest::Stderr && errors->size() < 2000)
            errors->append(payload);
        if (type == guest::Exited && payload.size() >= 9 && readLittleEndianU32(payload.constData()) == 0
            && payload.at(4) == 0) {
            m_handshakeDoneMs = m_clock.elapsed();
            if (m_layout.shares.isEmpty() || m_coldCommand.program.isEmpty())
                becomeReady();
            else
                attachShares();
        } else if (type == guest::Exited || type == guest::SpawnFailed) {
            abandonRestore(tr("the restored guest's agent did not complete the handshake (%1)")
                               .arg(type == guest::SpawnFailed
                                        ? QString::fromUtf8(payload)
                                        : tr("exit status %1%2")
                                              .arg(qint32(readLittleEndianU32(payload.constData())))
                                              .arg(errors->isEmpty()
                                                       ? QString()
                                                       : QStringLiteral(": ") + QString::fromUtf8(errors->trimmed()))));
        }
    });
    // The agent is listening already: these go out now, not after "ready".
    writeNow(guest::Spawn, kHandshakeId, spawnPayload);
    if (!input.isEmpty())
        writeNow(guest::Stdin, kHandshakeId, input);
    writeNow(guest::StdinEof, kHandshakeId, QByteArray());
}

void VmMachine::writeNow(quint8 type, quint32 id, const QByteArray &payload)
{
    QByteArray frame = littleEndianU32(quint32(payload.size() + 5));
    frame += char(type);
    frame += littleEndianU32(id);
    frame += payload;
    m_channel.write(frame);
}

void VmMachine::attachShares()
{
    m_sinks.insert(kAttachId, [this](quint8 type, const QByteArray &payload) {
        if (type == guest::Exited && payload.size() >= 9 && readLittleEndianU32(payload.constData()) == 0
            && payload.at(4) == 0) {
            m_restoredReady = true;
            becomeReady();
        } else if (type == guest::Exited || type == guest::SpawnFailed) {
            abandonRestore(
                tr("the restored guest did not mount its shares: %1")
                    .arg(type == guest::SpawnFailed ? QString::fromUtf8(payload).left(600) : tr("unexpected answer")));
        }
    });
    writeNow(guest::Attach, kAttachId, m_layout.layoutFile());
}

GuestLayout VmMachine::servingLayout() const
{
    QStringList removed;
    {
        QMutexLocker locker(&m_heldMutex);
        if (m_heldShares)
            removed = m_heldShares->removed();
    }
    GuestLayout serving = m_layout;
    serving.shares.removeIf([&](const GuestLayout::Share &share) { return removed.contains(share.hostPath); });
    return serving;
}

void VmMachine::setColdFallback(VmDriver::Command coldCommand, VmSpec coldSpec, int coldTimeoutMs)
{
    m_coldCommand = std::move(coldCommand);
    m_coldSpec = std::move(coldSpec);
    m_coldTimeoutMs = coldTimeoutMs;
}

void VmMachine::abandonRestore(const QString &reason)
{
    if (!m_restoring || m_ready || hasFailed() || m_stopping || m_abandoning)
        return;
    if (m_coldCommand.program.isEmpty()) {
        fail(reason);
        stop();
        return;
    }
    // Nothing more from the discarded guest is read; the restart happens outside the signal
    // of the channel or process that may have brought the failure.
    m_abandoning = true;
    QMetaObject::invokeMethod(
        this, [this, reason] { bootCold(reason); }, Qt::QueuedConnection);
}

void VmMachine::bootCold(const QString &reason)
{
    m_abandoning = false;
    if (m_stopping || hasFailed())
        return;
    // Nothing of a half-attached guest survives: the process goes, then the cold boot starts
    // on a clean run directory with the commands still waiting for it.
    m_restoring = false;
    m_restarting = true;
    m_connectTimer.stop();
    m_bootTimer.stop();
    m_channel.abort();
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    m_restarting = false;
    m_sinks.remove(kHandshakeId);
    m_sinks.remove(kAttachId);
    m_input.clear();
    QFile::remove(m_spec.agentSocket);
    if (!m_spec.monitorSocket.isEmpty())
        QFile::remove(m_spec.monitorSocket);
    m_command = std::exchange(m_coldCommand, VmDriver::Command{});
    m_spec = m_coldSpec;
    {
        QMutexLocker locker(&m_heldMutex);
        m_heldShares = m_spec.openedShares;
    }
    m_bootTimeoutMs = m_coldTimeoutMs;
    emit fellBack(reason);
    start();
}

void VmMachine::writeFrame(quint8 type, quint32 id, const QByteArray &payload)
{
    QByteArray frame = littleEndianU32(quint32(payload.size() + 5));
    frame += char(type);
    frame += littleEndianU32(id);
    frame += payload;
    if (!m_ready) {
        m_pending.append(frame);
        return;
    }
    if (m_overrun)
        return;
    // A guest that stops reading its channel while its own frames make the engine answer
    // (agent connections and their credits) would grow this queue without end. Past the bound
    // the VM is ended, after the frame being handled (a relay may be the caller). Stdin, which
    // the engine's clients send, is not bounded here.
    const bool answer = type == guest::AgentData || type == guest::AgentCredit || type == guest::AgentClose;
    if (answer && m_channel.bytesToWrite() + frame.size() > kMaxChannelBacklog) {
        m_overrun = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                fail(tr("the guest stopped reading its channel (%1 MiB waiting to be sent); the VM is ended")
                         .arg(kMaxChannelBacklog / (1024 * 1024)));
                stop();
            },
            Qt::QueuedConnection);
        return;
    }
    m_channel.write(frame);
}

void VmMachine::open(quint32 id, const Sink &sink, const QByteArray &spawnPayload, const QString &agentSocket)
{
    if (hasFailed()) {
        sink(0, m_failure.toUtf8());
        return;
    }
    m_sinks.insert(id, sink);
    if (!agentSocket.isEmpty()) {
        m_agents.insert(id,
                        new GuestAgentRelay(
                            agentSocket,
                            [this, id](quint8 type, const QByteArray &payload) { writeFrame(type, id, payload); },
                            this));
    }
    if (!m_ready) {
        m_bootWatchers.insert(id);
        for (const QString &note : std::as_const(m_bootNotes))
            sink(kBootNote, note.toUtf8());
    }
    writeFrame(guest::Spawn, id, spawnPayload);
}

void VmMachine::noteBoot(const QString &note)
{
    m_bootNotes.append(note);
    for (const quint32 id : std::as_const(m_bootWatchers)) {
        const auto sink = m_sinks.constFind(id);
        if (sink != m_sinks.cend())
            sink.value()(kBootNote, note.toUtf8());
    }
}

void VmMachine::send(quint8 type, quint32 id, const QByteArray &payload)
{
    if (!m_sinks.contains(id))
        return;
    // Stdin in pieces the agent accepts.
    for (qsizetype at = 0; at < payload.size() || (at == 0 && payload.isEmpty()); at += 65536) {
        writeFrame(type, id, payload.mid(at, 65536));
        if (payload.isEmpty())
            break;
    }
}

void VmMachine::close(quint32 id)
{
    m_bootWatchers.remove(id);
    m_sinks.remove(id);
    dropAgent(id);
}

void VmMachine::dropAgent(quint32 id)
{
    if (GuestAgentRelay *relay = m_agents.take(id))
        relay->deleteLater();
}

} // namespace sandbox
