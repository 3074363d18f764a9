#pragma once

#include "BackendRef.h"
#include "Error.h"
#include "Policy.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// JSON: { rows, columns } (1..65535 each): a terminal's size in characters.
struct TerminalSize
{
    int rows = 24;
    int columns = 80;

    QJsonObject toJson() const;
    static Result<TerminalSize> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("terminal"));
    friend bool operator==(const TerminalSize &, const TerminalSize &) = default;
};

// JSON: { argv: [..] (non-empty), env?: {K: V}, cwd (absolute; where the command starts),
//         workspace?: absolute directory the cwd lies in (what the policy's ${workspace}
//         names; absent: the cwd itself), timeoutMs?: int >= 0 (0 = none),
//         policy?: Policy (overrides the stored policy),
//         terminal?: TerminalSize: the command runs on a new terminal of that size, its
//         stdin, stdout and stderr (all its output arrives as stdout) }
struct SpawnRequest
{
    QStringList argv;
    QMap<QString, QString> env;
    QString cwd;
    QString workspace; // empty: the cwd is the workspace
    qint64 timeoutMs = 0;
    std::optional<Policy> policy;
    std::optional<TerminalSize> terminal;

    // The directory ${workspace} names for this command: `workspace`, or else the cwd.
    QString effectiveWorkspace() const { return workspace.isEmpty() ? cwd : workspace; }

    QJsonObject toJson() const;
    static Result<SpawnRequest> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("spawn"));
    friend bool operator==(const SpawnRequest &, const SpawnRequest &) = default;
};

// A signal a client asks the engine to pass to a sandboxed command: process.kill's optional
// `signal`, "interrupt" (SIGINT), "terminate" (SIGTERM) or "hangup" (SIGHUP). Without one,
// process.kill ends the whole sandbox at once.
enum class ProcessSignal { Interrupt, Terminate, Hangup };
QString processSignalName(ProcessSignal signal);
std::optional<ProcessSignal> processSignalFromName(const QString &name);

// How a sandboxed process ended. exitCode is meaningful when !signaled.
struct ExitStatus
{
    int exitCode = 0;
    bool signaled = false;
    int signal = 0;
    bool timedOut = false;

    // The shell convention: exitCode, or 128 + signal.
    int shellStatus() const { return signaled ? 128 + signal : exitCode; }
    QJsonObject toJson() const;
    static Result<ExitStatus> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("exit"));
    friend bool operator==(const ExitStatus &, const ExitStatus &) = default;
};

// JSON: { id, pid, owner: BackendRef, argv, cwd, state: "running"|"exited", exit? , startedAt (ISO) }
struct ProcessInfo
{
    quint64 id = 0;
    qint64 pid = 0;
    BackendRef owner;
    QStringList argv;
    QString cwd;
    bool running = true;
    ExitStatus exit;
    QString startedAt;
    // What the backend said about how this command's sandbox started, oldest first (JSON:
    // "notes", absent when there are none).
    QStringList notes;

    QJsonObject toJson() const;
    static Result<ProcessInfo> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("process"));
    friend bool operator==(const ProcessInfo &, const ProcessInfo &) = default;
};

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::ExitStatus)
