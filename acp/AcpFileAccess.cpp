#include "AcpBridge.h"
#include "AcpParams.h"
#include "JsonRpcLine.h"
#include "client/Client.h"

namespace sandbox {

using namespace acpparams;

namespace {

// Runs `argv` through the engine with `input` on its stdin and hands stdout, stderr and the
// exit status to `done`; the file methods use it so the backend enforces the policy.
void runThroughEngine(
    Client &client, QObject *context, const SpawnRequest &request, const QByteArray &input,
    std::function<void(const QByteArray &, const QByteArray &, std::optional<ExitStatus>, const QString &)> done)
{
    struct Run
    {
        std::unique_ptr<RemoteProcess> process;
        QByteArray out;
        QByteArray err;
        bool ended = false;
    };
    auto run = std::make_shared<Run>();
    run->process = client.spawn(request);
    RemoteProcess *process = run->process.get();
    auto finish = [run, done](std::optional<ExitStatus> status, const QString &reason) {
        if (run->ended)
            return;
        run->ended = true;
        done(run->out, run->err, status, reason);
        run->process.release()->deleteLater();
    };
    QObject::connect(process, &RemoteProcess::stdoutReady, context, [run](const QByteArray &d) { run->out += d; });
    QObject::connect(process, &RemoteProcess::stderrReady, context, [run](const QByteArray &d) { run->err += d; });
    QObject::connect(process, &RemoteProcess::failedToStart, context,
                     [finish](const Error &error) { finish(std::nullopt, error.toString()); });
    QObject::connect(process, &RemoteProcess::finished, context,
                     [finish](const ExitStatus &status) { finish(status, QString()); });
    QObject::connect(&client, &Client::disconnected, context,
                     [finish](const QString &reason) { finish(std::nullopt, reason); });
    if (!input.isEmpty())
        process->writeStdin(input);
    process->closeStdin();
}

QString processProblem(const QByteArray &err, const std::optional<ExitStatus> &status, const QString &reason)
{
    if (!status)
        return reason;
    QString text = QString::fromUtf8(err).trimmed();
    if (text.isEmpty())
        text = status->signaled ? AcpBridge::tr("killed by signal %1").arg(status->signal)
                                : AcpBridge::tr("exit status %1").arg(status->exitCode);
    return text;
}

} // namespace

void AcpBridge::readTextFile(const QJsonValue &id, const QJsonObject &params, bool retried)
{
    const QString method = QStringLiteral("fs/read_text_file");
    ParamReader read{ params, method, {} };
    const QString session = read.string(QStringLiteral("sessionId"), true);
    const QString path = read.absolutePath(QStringLiteral("path"), true);
    const std::optional<qint64> line = read.integer(QStringLiteral("line"));
    const std::optional<qint64> limit = read.integer(QStringLiteral("limit"));
    if (!read.problem.isEmpty()) {
        refuseToAgent(id, JsonRpcLine::InvalidParams, read.problem);
        return;
    }
    if (m_policy && m_policy->readable.isEmpty()) {
        refuseToAgent(id, JsonRpcLine::Refused, tr("%1: the sandbox policy makes no path readable").arg(method));
        return;
    }
    SpawnRequest request;
    request.argv = QStringList{ QStringLiteral("/bin/cat"), QStringLiteral("--"), path };
    request.cwd = workspaceFor(session);
    request.workspace = request.cwd;
    const Client *used = m_client;
    runThroughEngine(
        *m_client, this, request, {},
        [this, id, method, path, line, limit, used, params, retried](
            const QByteArray &out, const QByteArray &err, std::optional<ExitStatus> status, const QString &reason) {
            if (!status && retryOnNextEngine(used, HeldCall{ id, method, params }, retried))
                return;
            if (!status || status->signaled || status->exitCode != 0) {
                refuseToAgent(
                    id, JsonRpcLine::Refused,
                    tr("%1: cannot read %2 in the sandbox: %3").arg(method, path, processProblem(err, status, reason)));
                return;
            }
            QString content = QString::fromUtf8(out);
            if (line || limit) {
                QStringList lines = content.split(QLatin1Char('\n'));
                const qsizetype first = qBound<qsizetype>(0, line.value_or(1) - 1, lines.size());
                lines = lines.mid(first, limit ? qsizetype(*limit) : -1);
                content = lines.join(QLatin1Char('\n'));
            }
            toAgent(JsonRpcLine::response(id, QJsonObject{ { QStringLiteral("content"), content } }));
        });
}

void AcpBridge::writeTextFile(const QJsonValue &id, const QJsonObject &params, bool retried)
{
    const QString method = QStringLiteral("fs/write_text_file");
    ParamReader read{ params, method, {} };
    const QString session = read.string(QStringLiteral("sessionId"), true);
    const QString path = read.absolutePath(QStringLiteral("path"), true);
    const QString content = read.string(QStringLiteral("content"), true);
    if (!read.problem.isEmpty()) {
        refuseToAgent(id, JsonRpcLine::InvalidParams, read.problem);
        return;
    }
    if (m_policy && m_policy->writable.isEmpty()) {
        refuseToAgent(id, JsonRpcLine::Refused, tr("%1: the sandbox policy makes no path writable").arg(method));
        return;
    }
    SpawnRequest request;
    // The sandbox writes the file, so only what the policy makes writable can be written.
    request.argv = QStringList{ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("cat > \"$1\""),
                                QStringLiteral("sh"), path };
    request.cwd = workspaceFor(session);
    request.workspace = request.cwd;
    const Client *used = m_client;
    runThroughEngine(*m_client, this, request, content.toUtf8(),
                     [this, id, method, path, used, params, retried](const QByteArray &, const QByteArray &err,
                                                                     std::optional<ExitStatus> status,
                                                                     const QString &reason) {
                         if (!status && retryOnNextEngine(used, HeldCall{ id, method, params }, retried))
                             return;
                         if (!status || status->signaled || status->exitCode != 0) {
                             refuseToAgent(id, JsonRpcLine::Refused,
                                           tr("%1: cannot write %2 in the sandbox: %3")
                                               .arg(method, path, processProblem(err, status, reason)));
                             return;
                         }
                         toAgent(JsonRpcLine::response(id, QJsonObject()));
                     });
}

} // namespace sandbox
