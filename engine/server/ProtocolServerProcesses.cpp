#include "ProtocolServer.h"
#include "ServerParams.h"
#include "ServerSession.h"
#include "client/ProtocolMethods.h"
#include "core/Engine.h"
#include "protocol/JsonReader.h"

#include <QJsonArray>

namespace sandbox {

namespace {

// Process output is cut into pieces so that each notification stays far below the
// message limit once base64-encoded.
constexpr qsizetype OutputChunk = 1024 * 1024;

} // namespace

void ProtocolServer::holdSpawnsUntil(const QFuture<ActivationResult> &restore)
{
    m_restore = restore;
}

void ProtocolServer::processSpawn(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    if (m_restore.isValid() && !m_restore.isFinished()) {
        QPointer<ServerSession> session(s);
        whenFinished(this, m_restore, [this, session, id, params](const QFuture<ActivationResult> &) {
            if (session)
                processSpawn(session, id, params);
        });
        return;
    }
    const Result<SpawnRequest> request
        = SpawnRequest::fromJson(params.value(QStringLiteral("request")), param(QStringLiteral("request")));
    if (!request.ok())
        return s->respondError(id, invalidParams(request.error()));
    quint64 processId = 0;
    const Result<std::shared_ptr<SandboxProcess>> spawned = m_engine.spawn(request.value(), &processId);
    if (!spawned.ok())
        return s->respondError(id, engineError(spawned.error()));
    const std::shared_ptr<SandboxProcess> process = spawned.value();
    s->processes().insert(processId, process);
    const qint64 pid = qint64(processId);

    connect(process.get(), &SandboxProcess::started, s, [this, s, pid] {
        const std::optional<ProcessInfo> started = m_engine.process(quint64(pid));
        const QJsonObject info = started ? started->toJson() : QJsonObject();
        s->notify(Notification::ProcessStarted,
                  { { QStringLiteral("processId"), pid }, { QStringLiteral("info"), info } });
    });
    connect(process.get(), &SandboxProcess::failedToStart, s, [s, pid](const Error &error) {
        s->notify(Notification::ProcessFailedToStart,
                  { { QStringLiteral("processId"), pid }, { QStringLiteral("error"), error.toJson() } });
        s->processEnded(quint64(pid));
    });
    auto output = [s, pid](const QString &stream, const QByteArray &data) {
        for (qsizetype offset = 0; offset < data.size(); offset += OutputChunk) {
            s->notify(Notification::ProcessOutput,
                      { { QStringLiteral("processId"), pid },
                        { QStringLiteral("stream"), stream },
                        { QStringLiteral("data"), QString::fromLatin1(data.mid(offset, OutputChunk).toBase64()) } });
        }
    };
    connect(process.get(), &SandboxProcess::stdoutReady, s,
            [output](const QByteArray &data) { output(QStringLiteral("stdout"), data); });
    connect(process.get(), &SandboxProcess::stderrReady, s,
            [output](const QByteArray &data) { output(QStringLiteral("stderr"), data); });
    connect(process.get(), &SandboxProcess::finished, s, [this, s, pid](const ExitStatus &status) {
        // The engine's record is the complete one (it knows when its own timeout killed it).
        ExitStatus effective = status;
        if (const std::optional<ProcessInfo> info = m_engine.process(quint64(pid)); info && !info->running)
            effective = info->exit;
        s->notify(Notification::ProcessExited,
                  { { QStringLiteral("processId"), pid }, { QStringLiteral("exit"), effective.toJson() } });
        s->processEnded(quint64(pid));
    });
    s->respond(id, QJsonObject{ { QStringLiteral("processId"), pid } });
}

void ProtocolServer::processWrite(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    const QJsonValue data = params.value(QStringLiteral("data"));
    if (!data.isString())
        return s->respondError(id,
                               invalidParams(Error{ param(QStringLiteral("data")),
                                                    tr("expected base64 text, got %1").arg(JsonReader::typeName(data)),
                                                    {} }));
    const auto decoded
        = QByteArray::fromBase64Encoding(data.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return s->respondError(id, invalidParams(Error{ param(QStringLiteral("data")), tr("not valid base64"), {} }));
    if (s->hasEnded(processId.value()))
        return s->respond(id, QJsonObject{});
    const std::shared_ptr<SandboxProcess> process = s->processes().value(processId.value());
    if (!process) // stdin belongs to whoever spawned the process
        return s->respondError(
            id,
            engineError(Error{ param(QStringLiteral("processId")),
                               tr("no running process %1 spawned by this client").arg(processId.value()),
                               {} }));
    process->writeStdin(*decoded);
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processResize(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    QJsonObject size = params;
    size.remove(QStringLiteral("processId"));
    const Result<TerminalSize> terminal = TerminalSize::fromJson(size, QStringLiteral("params"));
    if (!terminal.ok())
        return s->respondError(id, invalidParams(terminal.error()));
    if (s->hasEnded(processId.value()))
        return s->respond(id, QJsonObject{});
    const std::shared_ptr<SandboxProcess> process = s->processes().value(processId.value());
    if (!process) // its terminal belongs to whoever spawned the process
        return s->respondError(
            id,
            engineError(Error{ param(QStringLiteral("processId")),
                               tr("no running process %1 spawned by this client").arg(processId.value()),
                               {} }));
    process->resizeTerminal(terminal.value());
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processCloseStdin(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    if (s->hasEnded(processId.value()))
        return s->respond(id, QJsonObject{});
    const std::shared_ptr<SandboxProcess> process = s->processes().value(processId.value());
    if (!process)
        return s->respondError(
            id,
            engineError(Error{ param(QStringLiteral("processId")),
                               tr("no running process %1 spawned by this client").arg(processId.value()),
                               {} }));
    process->closeStdin();
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processKill(ServerSession *s, const QJsonValue &id, const QJsonObject &params)
{
    const Result<quint64> processId = readProcessId(params);
    if (!processId.ok())
        return s->respondError(id, invalidParams(processId.error()));
    const QJsonValue signalName = params.value(QStringLiteral("signal"));
    std::optional<ProcessSignal> signal;
    if (!signalName.isUndefined()) {
        signal = processSignalFromName(signalName.toString());
        if (!signalName.isString() || !signal)
            return s->respondError(id,
                                   invalidParams(Error{ param(QStringLiteral("signal")),
                                                        tr("expected \"interrupt\", \"terminate\" or \"hangup\""),
                                                        {} }));
    }
    const Status status
        = signal ? m_engine.deliverSignal(processId.value(), *signal) : m_engine.kill(processId.value());
    if (!status.ok())
        return s->respondError(id, engineError(status.error()));
    s->respond(id, QJsonObject{});
}

void ProtocolServer::processList(ServerSession *s, const QJsonValue &id, const QJsonObject &)
{
    QJsonArray list;
    for (const ProcessInfo &info : m_engine.processes())
        list.append(info.toJson());
    s->respond(id, QJsonObject{ { QStringLiteral("processes"), list } });
}

} // namespace sandbox
