#include "client/ClientProcess.h"

#include "client/ProtocolMethods.h"

namespace sandbox {

namespace {
// Stdin travels in pieces well below the frame limit (base64 grows data by a third).
constexpr auto StdinChunk = qsizetype(StdinChunkBytes);
} // namespace

ClientProcess::ClientProcess(Sender sender, QObject *parent)
    : RemoteProcess(parent)
    , m_sender(std::move(sender))
{ }

ClientProcess::~ClientProcess() = default;

void ClientProcess::writeStdin(const QByteArray &data)
{
    if (m_stdinClosed || m_done || data.isEmpty())
        return;
    if (m_id == 0) {
        m_queuedStdin.append(data);
        return;
    }
    for (qsizetype offset = 0; offset < data.size(); offset += StdinChunk) {
        if (m_sender)
            m_sender(Method::ProcessWrite,
                     { { QStringLiteral("processId"), qint64(m_id) },
                       { QStringLiteral("data"), QString::fromLatin1(data.mid(offset, StdinChunk).toBase64()) } });
    }
}

void ClientProcess::closeStdin()
{
    if (m_stdinClosed)
        return;
    m_stdinClosed = true;
    if (m_id != 0 && !m_done && m_sender)
        m_sender(Method::ProcessCloseStdin, { { QStringLiteral("processId"), qint64(m_id) } });
}

void ClientProcess::kill()
{
    if (m_done)
        return;
    if (m_id == 0) {
        m_killRequested = true;
        return;
    }
    if (m_sender)
        m_sender(Method::ProcessKill, { { QStringLiteral("processId"), qint64(m_id) } });
}

void ClientProcess::deliverSignal(ProcessSignal signal)
{
    if (m_done)
        return;
    if (m_id == 0) {
        m_signalRequested = signal;
        return;
    }
    if (m_sender)
        m_sender(
            Method::ProcessKill,
            { { QStringLiteral("processId"), qint64(m_id) }, { QStringLiteral("signal"), processSignalName(signal) } });
}

void ClientProcess::resizeTerminal(const TerminalSize &size)
{
    if (m_done)
        return;
    if (m_id == 0) {
        m_resizeRequested = size;
        return;
    }
    if (m_sender)
        m_sender(Method::ProcessResize,
                 { { QStringLiteral("processId"), qint64(m_id) },
                   { QStringLiteral("rows"), size.rows },
                   { QStringLiteral("columns"), size.columns } });
}

void ClientProcess::assignId(quint64 id)
{
    m_id = id;
    const QByteArrayList queued = std::exchange(m_queuedStdin, {});
    const bool closeAfter = m_stdinClosed;
    m_stdinClosed = false;
    for (const QByteArray &data : queued)
        writeStdin(data);
    if (closeAfter)
        closeStdin();
    if (const std::optional<TerminalSize> size = std::exchange(m_resizeRequested, std::nullopt))
        resizeTerminal(*size);
    if (m_signalRequested && !m_killRequested)
        deliverSignal(*m_signalRequested);
    if (m_killRequested)
        kill();
}

void ClientProcess::fail(const Error &error)
{
    if (m_done)
        return;
    m_done = true;
    // Queued: a spawn refused at once must still reach slots connected after spawn() returned.
    QMetaObject::invokeMethod(
        this, [this, error] { emit failedToStart(error); }, Qt::QueuedConnection);
}

void ClientProcess::detachSender()
{
    m_sender = nullptr;
}

void ClientProcess::handleNotification(const QString &method, const QJsonObject &params)
{
    if (m_done)
        return;
    if (method == Notification::ProcessOutput) {
        const QByteArray data = QByteArray::fromBase64(params.value(QStringLiteral("data")).toString().toLatin1());
        if (params.value(QStringLiteral("stream")).toString() == QLatin1String("stderr"))
            emit stderrReady(data);
        else
            emit stdoutReady(data);
    } else if (method == Notification::ProcessStarted) {
        const auto info = ProcessInfo::fromJson(params.value(QStringLiteral("info")), QStringLiteral("params.info"));
        emit started(info.ok() ? info.value() : ProcessInfo{});
    } else if (method == Notification::ProcessFailedToStart) {
        m_done = true;
        emit failedToStart(Error::fromJson(params.value(QStringLiteral("error")).toObject()));
    } else if (method == Notification::ProcessExited) {
        const auto exit = ExitStatus::fromJson(params.value(QStringLiteral("exit")), QStringLiteral("params.exit"));
        m_done = true;
        emit finished(exit.ok() ? exit.value() : ExitStatus{});
    }
}

} // namespace sandbox
