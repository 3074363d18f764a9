#include "VmProcess.h"

#include "GuestProtocol.h"
#include "VmMachine.h"
#include "core/launcher/SandboxInitRefusal.h"

#include <QCoreApplication>
#include <QDir>

#include <csignal>

namespace sandbox {

namespace {

// The first two tab-separated fields of a guest's report, and the rest as the third.
QList<QByteArray> tabFields(const QByteArray &payload)
{
    const qsizetype first = payload.indexOf('\t');
    const qsizetype second = first < 0 ? -1 : payload.indexOf('\t', first + 1);
    return { payload.left(first < 0 ? payload.size() : first),
             first < 0 ? QByteArray() : payload.mid(first + 1, second < 0 ? -1 : second - first - 1),
             second < 0 ? QByteArray() : payload.mid(second + 1) };
}

constexpr int kTerminateGraceMs = 3000;

qint32 readI32(const QByteArray &data, int at)
{
    quint32 value = 0;
    for (int i = 0; i < 4; ++i)
        value |= quint32(quint8(data.at(at + i))) << (8 * i);
    return qint32(value);
}

QByteArray u32(quint32 value)
{
    QByteArray out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[i] = char((value >> (8 * i)) & 0xff);
    return out;
}

} // namespace

VmProcess::VmProcess(std::shared_ptr<VmMachine> machine, quint32 id)
    : m_machine(std::move(machine))
    , m_id(id)
{
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, [this] { signal(SIGKILL); });
}

VmProcess::~VmProcess()
{
    releaseAgent();
    if (m_running) {
        VmMachine *machine = m_machine.get();
        const quint32 id = m_id;
        QMetaObject::invokeMethod(machine, [machine, id] {
            machine->send(guest::Signal, id, u32(SIGKILL));
            machine->close(id);
        });
    }
}

void VmProcess::setAgent(const QString &agentSocket, std::shared_ptr<const void> lease, const QString &folder)
{
    m_agentSocket = agentSocket;
    m_agentLease = std::move(lease);
    m_agentFolder = folder;
}

void VmProcess::releaseAgent()
{
    if (!m_agentLease && m_agentFolder.isEmpty())
        return;
    m_agentLease.reset(); // the agent stops listening
    if (!m_agentFolder.isEmpty())
        QDir(std::exchange(m_agentFolder, QString())).removeRecursively();
}

void VmProcess::begin(const QByteArray &spawnPayload, const std::shared_ptr<VmProcess> &self)
{
    std::weak_ptr<VmProcess> weak = self;
    VmMachine *machine = m_machine.get();
    const quint32 id = m_id;
    QMetaObject::invokeMethod(machine, [machine, id, weak, spawnPayload, agentSocket = m_agentSocket] {
        machine->open(
            id,
            [weak](quint8 type, const QByteArray &payload) {
                // Holding the process inside the queued call keeps it alive until it has
                // been delivered, in its own thread.
                if (std::shared_ptr<VmProcess> process = weak.lock()) {
                    QMetaObject::invokeMethod(process.get(),
                                              [process, type, payload] { process->deliver(type, payload); });
                }
            },
            spawnPayload, agentSocket);
    });
}

void VmProcess::deliver(quint8 type, const QByteArray &payload)
{
    if (!m_running)
        return;
    switch (type) {
    case guest::Started:
        m_started = true;
        m_hostPid = m_machine->hostPid();
        emit started();
        if (m_killRequested)
            signal(SIGKILL);
        break;
    case guest::Stdout:
        emit stdoutReady(payload);
        break;
    case guest::Stderr:
        emit stderrReady(payload);
        break;
    case VmMachine::kBootNote:
        emit noted(QString::fromUtf8(payload));
        break;
    case guest::Refusal: {
        // "<syscall name>\t<command>": sandbox-init refused a call of the deny list.
        const QList<QByteArray> parts = tabFields(payload);
        const QString message = tr("sandbox: refused the system call %1 (made by %2)\n")
                                    .arg(QString::fromUtf8(parts.value(0)), QString::fromUtf8(parts.value(1)));
        qInfo("builtin:vm: %s", qUtf8Printable(message.trimmed()));
        emit stderrReady(message.toUtf8());
        if (const std::optional<Refusal> refusal
            = SandboxInitRefusal::fromStatus(QStringLiteral("call"), QString::fromUtf8(payload)))
            emit refused(*refusal);
        break;
    }
    case guest::GateRefusal: {
        // "<kind> <what>": the command's write gate refused a write or a connection.
        const QString line = QString::fromUtf8(payload);
        if (const std::optional<Refusal> refusal
            = SandboxInitRefusal::fromStatus(line.section(QLatin1Char(' '), 0, 0), line.section(QLatin1Char(' '), 1))) {
            qInfo("builtin:vm: refused %s", qUtf8Printable(refusal->what));
            emit refused(*refusal);
        }
        break;
    }
    case guest::AgentRefused: {
        // This command (or, when it was none of the VM's commands, another process) connected
        // to another command's agent socket: the guest's agent closed it at once.
        // "<pid>\t<program>\t<socket path>": the path is the rest, whatever it holds.
        const QList<QByteArray> parts = tabFields(payload);
        Refusal refusal;
        refusal.kind = Refusal::Kind::HostSocket;
        refusal.what = tr("%1 (connected by %2, process %3 of the guest)")
                           .arg(QString::fromUtf8(parts.value(2)), QString::fromUtf8(parts.value(1)),
                                QString::fromUtf8(parts.value(0)));
        refusal.rule = tr("unix sockets: a command's SSH agent serves only the processes of that command's own "
                          "session (refused by the guest's exec agent)");
        qInfo("builtin:vm: %s", qUtf8Printable(refusal.what));
        emit refused(refusal);
        break;
    }
    case guest::Exited:
        if (payload.size() >= 9) {
            ExitStatus status;
            status.signaled = payload.at(4) != 0;
            status.exitCode = status.signaled ? 0 : readI32(payload, 0);
            status.signal = status.signaled ? readI32(payload, 5) : 0;
            end(status);
        }
        break;
    case guest::SpawnFailed:
    default: {
        // A failure to start, or the VM itself stopped (type 0).
        const Error error{ QStringLiteral("builtin:vm"), QString::fromUtf8(payload), {} };
        if (!m_started) {
            m_running = false;
            m_graceTimer.stop();
            if (m_killRequested) {
                end(ExitStatus{ 0, true, SIGKILL, false });
                return;
            }
            releaseAgent();
            emit failedToStart(error);
            m_exit = ExitStatus{ 127, false, 0, false };
            return;
        }
        emit stderrReady((tr("sandbox: %1").arg(error.message) + QLatin1Char('\n')).toUtf8());
        end(ExitStatus{ 0, true, SIGKILL, false });
        break;
    }
    }
}

void VmProcess::end(const ExitStatus &status)
{
    m_exit = status;
    m_running = false;
    m_graceTimer.stop();
    releaseAgent();
    emit finished(status);
}

void VmProcess::signal(int number)
{
    if (!m_running)
        return;
    VmMachine *machine = m_machine.get();
    const quint32 id = m_id;
    QMetaObject::invokeMethod(machine,
                              [machine, id, number] { machine->send(guest::Signal, id, u32(quint32(number))); });
}

void VmProcess::writeStdin(const QByteArray &data)
{
    if (!m_running || data.isEmpty())
        return;
    VmMachine *machine = m_machine.get();
    const quint32 id = m_id;
    QMetaObject::invokeMethod(machine, [machine, id, data] { machine->send(guest::Stdin, id, data); });
}

void VmProcess::closeStdin()
{
    if (!m_running)
        return;
    VmMachine *machine = m_machine.get();
    const quint32 id = m_id;
    QMetaObject::invokeMethod(machine, [machine, id] { machine->send(guest::StdinEof, id, {}); });
}

void VmProcess::terminate()
{
    signal(SIGTERM);
    if (m_running)
        m_graceTimer.start(kTerminateGraceMs);
}

void VmProcess::kill()
{
    if (!m_started)
        m_killRequested = true;
    signal(SIGKILL);
}

} // namespace sandbox
