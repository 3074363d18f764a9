#include "SpawnRequest.h"

#include "JsonReader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QJsonArray>

namespace sandbox {

namespace {

constexpr qint64 maxJsonInteger = (qint64(1) << 53);
constexpr qsizetype maxArgs = 65536;
constexpr qsizetype maxEnv = 4096;
// About 24 days: longer timeouts are a unit mistake, and it fits every timer we use.
constexpr qint64 maxTimeoutMs = qint64(std::numeric_limits<int>::max());

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::SpawnRequest", text);
}

bool hasNul(const QString &text)
{
    return text.contains(QChar(0));
}

QJsonObject envToJson(const QMap<QString, QString> &env)
{
    QJsonObject object;
    for (auto it = env.constBegin(); it != env.constEnd(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

// Checks argv, returning the error for the first bad argument.
std::optional<Error> checkArgv(const QStringList &argv, const QString &path)
{
    if (argv.isEmpty())
        return Error{ path, tr("must name a program to run"), {} };
    if (argv.size() > maxArgs)
        return Error{ path, tr("too many arguments (%1, at most %2)").arg(argv.size()).arg(maxArgs), {} };
    if (argv.first().isEmpty())
        return Error{ path + QStringLiteral("[0]"), tr("the program must not be empty"), {} };
    for (qsizetype i = 0; i < argv.size(); ++i) {
        if (hasNul(argv.at(i)))
            return Error{ path + QStringLiteral("[%1]").arg(i), tr("contains a NUL character"), {} };
    }
    return std::nullopt;
}

std::optional<Error> checkCwd(const QString &cwd, const QString &path)
{
    if (!cwd.startsWith(QLatin1Char('/')))
        return Error{ path, tr("must be an absolute path"), {} };
    if (const QString problem = Policy::pathProblem(cwd); !problem.isEmpty())
        return Error{ path, problem, {} };
    return std::nullopt;
}

} // namespace

QJsonObject SpawnRequest::toJson() const
{
    QJsonObject object{ { QStringLiteral("argv"), QJsonArray::fromStringList(argv) }, { QStringLiteral("cwd"), cwd } };
    if (!workspace.isEmpty())
        object.insert(QStringLiteral("workspace"), workspace);
    if (!env.isEmpty())
        object.insert(QStringLiteral("env"), envToJson(env));
    if (timeoutMs != 0)
        object.insert(QStringLiteral("timeoutMs"), timeoutMs);
    if (policy)
        object.insert(QStringLiteral("policy"), policy->toJson());
    if (terminal)
        object.insert(QStringLiteral("terminal"), terminal->toJson());
    return object;
}

Result<SpawnRequest> SpawnRequest::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("argv"), QStringLiteral("env"), QStringLiteral("cwd"),
                               QStringLiteral("workspace"), QStringLiteral("timeoutMs"), QStringLiteral("policy"),
                               QStringLiteral("terminal") });
    SpawnRequest request;
    if (reader.ok() && !reader.has(QStringLiteral("argv")))
        reader.fail(QStringLiteral("argv"), tr("missing required key"));
    request.argv = reader.optionalStringList(QStringLiteral("argv"));
    request.cwd = reader.requireString(QStringLiteral("cwd"));
    const bool hasWorkspace = reader.has(QStringLiteral("workspace"));
    request.workspace = reader.optionalString(QStringLiteral("workspace"));
    request.timeoutMs = reader.optionalInteger(QStringLiteral("timeoutMs"), 0, maxTimeoutMs).value_or(0);
    const QJsonObject env = reader.optionalObject(QStringLiteral("env"));
    if (!reader.ok())
        return reader.error();
    if (const auto error = checkArgv(request.argv, reader.childPath(QStringLiteral("argv"))))
        return *error;
    if (const auto error = checkCwd(request.cwd, reader.childPath(QStringLiteral("cwd"))))
        return *error;
    if (hasWorkspace) {
        const QString workspacePath = reader.childPath(QStringLiteral("workspace"));
        if (const auto error = checkCwd(request.workspace, workspacePath))
            return *error;
        if (!Policy::isInside(QDir::cleanPath(request.cwd), QDir::cleanPath(request.workspace)))
            return Error{
                reader.childPath(QStringLiteral("cwd")),
                tr("%1 is not inside the workspace %2").arg(request.cwd.left(200), request.workspace.left(200)),
                {}
            };
    }

    const QString envPath = reader.childPath(QStringLiteral("env"));
    if (env.size() > maxEnv)
        return Error{ envPath, tr("too many variables (%1, at most %2)").arg(env.size()).arg(maxEnv), {} };
    JsonReader envReader(env, envPath);
    for (auto it = env.constBegin(); it != env.constEnd(); ++it) {
        const QString name = it.key();
        if (name.isEmpty() || name.contains(QLatin1Char('=')) || hasNul(name))
            return Error{ envPath, tr("\"%1\" is not a valid variable name").arg(name.left(80)), {} };
        const QString variable = envReader.requireString(name, true);
        if (!envReader.ok())
            return envReader.error();
        if (hasNul(variable))
            return Error{ envReader.childPath(name), tr("contains a NUL character"), {} };
        request.env.insert(name, variable);
    }

    if (reader.has(QStringLiteral("policy"))) {
        Result<Policy> policy
            = Policy::fromJson(reader.value(QStringLiteral("policy")), reader.childPath(QStringLiteral("policy")));
        if (!policy)
            return policy.error();
        request.policy = std::move(policy).value();
    }
    if (reader.has(QStringLiteral("terminal"))) {
        Result<TerminalSize> terminal = TerminalSize::fromJson(reader.value(QStringLiteral("terminal")),
                                                               reader.childPath(QStringLiteral("terminal")));
        if (!terminal)
            return terminal.error();
        request.terminal = terminal.value();
    }
    return request;
}

QJsonObject TerminalSize::toJson() const
{
    return { { QStringLiteral("rows"), rows }, { QStringLiteral("columns"), columns } };
}

Result<TerminalSize> TerminalSize::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("rows"), QStringLiteral("columns") });
    TerminalSize size;
    // What a terminal's window size holds (struct winsize: unsigned short).
    size.rows = static_cast<int>(reader.requireInteger(QStringLiteral("rows"), 1, 65535));
    size.columns = static_cast<int>(reader.requireInteger(QStringLiteral("columns"), 1, 65535));
    if (!reader.ok())
        return reader.error();
    return size;
}

QString processSignalName(ProcessSignal signal)
{
    switch (signal) {
    case ProcessSignal::Interrupt:
        return QStringLiteral("interrupt");
    case ProcessSignal::Terminate:
        return QStringLiteral("terminate");
    case ProcessSignal::Hangup:
        return QStringLiteral("hangup");
    }
    return {};
}

std::optional<ProcessSignal> processSignalFromName(const QString &name)
{
    for (const ProcessSignal signal : { ProcessSignal::Interrupt, ProcessSignal::Terminate, ProcessSignal::Hangup }) {
        if (processSignalName(signal) == name)
            return signal;
    }
    return std::nullopt;
}

QJsonObject ExitStatus::toJson() const
{
    return { { QStringLiteral("exitCode"), exitCode },
             { QStringLiteral("signaled"), signaled },
             { QStringLiteral("signal"), signal },
             { QStringLiteral("timedOut"), timedOut } };
}

Result<ExitStatus> ExitStatus::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("exitCode"), QStringLiteral("signaled"), QStringLiteral("signal"),
                               QStringLiteral("timedOut") });
    ExitStatus status;
    status.exitCode = static_cast<int>(reader.requireInteger(QStringLiteral("exitCode"), -255, 255));
    status.signaled = reader.optionalBool(QStringLiteral("signaled"), false);
    status.signal = static_cast<int>(reader.optionalInteger(QStringLiteral("signal"), 0, 127).value_or(0));
    status.timedOut = reader.optionalBool(QStringLiteral("timedOut"), false);
    if (!reader.ok())
        return reader.error();
    if (status.signaled && status.signal == 0)
        return Error{ reader.childPath(QStringLiteral("signal")), tr("a signaled exit must name its signal"), {} };
    if (!status.signaled && status.signal != 0)
        return Error{ reader.childPath(QStringLiteral("signal")), tr("only a signaled exit has a signal"), {} };
    return status;
}

QJsonObject ProcessInfo::toJson() const
{
    QJsonObject object{ { QStringLiteral("id"), static_cast<qint64>(id) },
                        { QStringLiteral("pid"), pid },
                        { QStringLiteral("owner"), owner.toJson() },
                        { QStringLiteral("argv"), QJsonArray::fromStringList(argv) },
                        { QStringLiteral("cwd"), cwd },
                        { QStringLiteral("state"), running ? QStringLiteral("running") : QStringLiteral("exited") },
                        { QStringLiteral("startedAt"), startedAt } };
    if (!running)
        object.insert(QStringLiteral("exit"), exit.toJson());
    if (!notes.isEmpty())
        object.insert(QStringLiteral("notes"), QJsonArray::fromStringList(notes));
    return object;
}

Result<ProcessInfo> ProcessInfo::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("pid"), QStringLiteral("owner"),
                               QStringLiteral("argv"), QStringLiteral("cwd"), QStringLiteral("state"),
                               QStringLiteral("exit"), QStringLiteral("startedAt"), QStringLiteral("notes") });
    ProcessInfo info;
    info.id = static_cast<quint64>(reader.requireInteger(QStringLiteral("id"), 0, maxJsonInteger));
    // 0 while a remote launcher has not reported a pid yet.
    info.pid = reader.requireInteger(QStringLiteral("pid"), 0, std::numeric_limits<int>::max());
    if (reader.ok() && !reader.has(QStringLiteral("argv")))
        reader.fail(QStringLiteral("argv"), tr("missing required key"));
    info.argv = reader.optionalStringList(QStringLiteral("argv"));
    info.cwd = reader.requireString(QStringLiteral("cwd"));
    const QString state = reader.requireString(QStringLiteral("state"));
    info.startedAt = reader.requireString(QStringLiteral("startedAt"));
    info.notes = reader.optionalStringList(QStringLiteral("notes"));
    if (!reader.ok())
        return reader.error();
    if (const auto error = checkArgv(info.argv, reader.childPath(QStringLiteral("argv"))))
        return *error;
    if (const auto error = checkCwd(info.cwd, reader.childPath(QStringLiteral("cwd"))))
        return *error;
    if (info.startedAt.size() > 64 || !QDateTime::fromString(info.startedAt, Qt::ISODateWithMs).isValid())
        return Error{ reader.childPath(QStringLiteral("startedAt")), tr("expected an ISO 8601 date and time"), {} };
    if (state == QLatin1String("running"))
        info.running = true;
    else if (state == QLatin1String("exited"))
        info.running = false;
    else
        return Error{ reader.childPath(QStringLiteral("state")),
                      tr("unknown state \"%1\"; expected running or exited").arg(state.left(40)),
                      {} };

    Result<BackendRef> owner
        = BackendRef::fromJson(reader.value(QStringLiteral("owner")), reader.childPath(QStringLiteral("owner")));
    if (!reader.has(QStringLiteral("owner")))
        return Error{ reader.childPath(QStringLiteral("owner")), tr("missing required key"), {} };
    if (!owner)
        return owner.error();
    info.owner = owner.value();

    const bool hasExit = reader.has(QStringLiteral("exit"));
    if (info.running && hasExit)
        return Error{ reader.childPath(QStringLiteral("exit")), tr("a running process has no exit status"), {} };
    if (!info.running && !hasExit)
        return Error{ reader.childPath(QStringLiteral("exit")),
                      tr("an exited process must report its exit status"),
                      {} };
    if (hasExit) {
        Result<ExitStatus> status
            = ExitStatus::fromJson(reader.value(QStringLiteral("exit")), reader.childPath(QStringLiteral("exit")));
        if (!status)
            return status.error();
        info.exit = status.value();
    }
    return info;
}

} // namespace sandbox
