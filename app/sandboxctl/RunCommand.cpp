#include "RunCommand.h"

#include "EngineConnection.h"
#include "InteractionResponder.h"
#include "Terminal.h"
#include "client/Client.h"
#include "common/ConfigurationLocation.h"
#include "common/ConfigurationMigration.h"
#include "common/EngineProvider.h"
#include "common/PlaintextSecretsOptIn.h"
#include "common/SignalWatcher.h"
#include "core/Engine.h"
#include "protocol/JsonReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSocketNotifier>

#ifdef Q_OS_LINUX
#include "launchers/auto/linux/handoff/PlanRecorder.h"
#endif

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace sandbox {

RunCommand::RunCommand()
    : Command(QStringLiteral("run"),
              QStringLiteral("run [-t] [--workspace DIR] [--policy FILE] [--timeout S] -- CMD..."),
              tr("Run CMD in the active backend in the current directory, streaming stdin, stdout and stderr. "
                 "Ctrl-C (SIGINT), SIGTERM and SIGHUP are passed on to CMD; a second one kills it. "
                 "With -t, CMD gets a terminal of its own: every key goes to it (Ctrl-C and Ctrl-Z too), its "
                 "output comes back on stdout, and a resized window resizes its terminal. "
                 "The workspace (what the policy's ${workspace} names) is the current directory, or DIR given "
                 "with --workspace, which must contain the current directory. Exits with CMD's status, or "
                 "128+signal; 125 for sandboxctl's own errors, 126 when CMD could not start because a question went "
                 "unanswered."))
{
    addOption(QCommandLineOption(
        QStringLiteral("workspace"),
        tr("the workspace is DIR, a directory at or above the current one (default: the current directory)"),
        QStringLiteral("DIR")));
    addOption(QCommandLineOption(QStringLiteral("policy"), tr("run under the JSON policy in FILE instead"),
                                 QStringLiteral("FILE")));
    addOption(QCommandLineOption(QStringLiteral("timeout"), tr("kill CMD and its sandbox after S seconds"),
                                 QStringLiteral("S")));
    addOption(
        QCommandLineOption({ QStringLiteral("t"), QStringLiteral("tty") },
                           tr("give CMD a terminal of its own, sized as this one, which must be sandboxctl's input")));
    setOptionsEndAtFirstArgument();
}

#ifdef Q_OS_LINUX
namespace {

// What hosting the engine reads besides the engine's own files, where a change could make
// this program say something at start-up (EngineProvider): the earlier versions' locations a
// migration takes over, the secret storage choice, and the packs it loads.
PlanRecorder::StartUp startUpReads(EngineConnection &engine)
{
    PlanRecorder::StartUp reads;
    const QString configDirectory = engine.provider().engine()->configDirectory();
    reads.paths.append(PlaintextSecretsOptIn::path(configDirectory));
    reads.paths.append(QDir(configDirectory).filePath(QStringLiteral("packs.json")));
    const Engine::Options given = EngineProvider::engineOptionsFromEnvironment(engine.options().configDirectory);
    if (given.configDirectory.isEmpty() || given.stateDirectory.isEmpty()) {
        for (const ConfigurationLocation::Legacy &legacy : ConfigurationLocation::legacyLocations()) {
            for (const QString &name : ConfigurationMigration::fileNames())
                reads.paths.append(QDir(legacy.configDirectory).filePath(name));
            for (const QString &name : ConfigurationMigration::stateNames())
                reads.paths.append(QDir(legacy.stateDirectory).filePath(name));
        }
    }
    reads.directories = EngineProvider::packDirectories();
    reads.directories.append(QDir(engine.provider().engine()->stateDirectory()).filePath(QStringLiteral("packs")));
    return reads;
}

} // namespace
#endif

int RunCommand::execute(EngineConnection &engine)
{
    const QStringList argv = arguments();
    if (argv.isEmpty())
        return usageError(tr("no command given"));

    SpawnRequest request;
    request.argv = argv;
    request.cwd = QDir::currentPath();
    if (isSet(QStringLiteral("workspace"))) {
        const QString given = value(QStringLiteral("workspace"));
        const QFileInfo workspace(given);
        if (given.isEmpty() || !workspace.isDir())
            return fail(tr("--workspace: %1 is not an existing directory").arg(given), RunError);
        request.workspace = QDir::cleanPath(workspace.absoluteFilePath());
        // Compared with symbolic links resolved, as the engine compares them.
        if (!Policy::isInside(QDir(request.cwd).canonicalPath(), workspace.canonicalFilePath()))
            return fail(tr("--workspace: the current directory %1 is not inside the workspace %2; nothing was run")
                            .arg(request.cwd, request.workspace),
                        RunError);
    }
    const bool terminal = isSet(QStringLiteral("tty"));
    if (terminal) {
        request.terminal = Terminal::size(STDIN_FILENO);
        if (!request.terminal)
            return fail(tr("-t: the input is not a terminal, so CMD cannot be given one; nothing was run (run it "
                           "from a terminal, or without -t)"),
                        RunError);
    }
    for (const char *name : { "TERM", "LANG", "LC_ALL" }) {
        if (qEnvironmentVariableIsSet(name))
            request.env.insert(QString::fromLatin1(name), qEnvironmentVariable(name));
    }
    const QString timeout = value(QStringLiteral("timeout"));
    if (isSet(QStringLiteral("timeout"))) {
        bool ok = false;
        const double seconds = timeout.toDouble(&ok);
        if (!ok || seconds <= 0)
            return usageError(tr("--timeout expects a positive number of seconds"));
        request.timeoutMs = qint64(seconds * 1000);
    }
    QString policyArgument;
    QByteArray policyBytes;
    if (isSet(QStringLiteral("policy"))) {
        const QString path = value(QStringLiteral("policy"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return fail(tr("cannot read %1: %2").arg(path, file.errorString()), RunError);
        policyArgument = path;
        policyBytes = file.readAll();
        const Result<QJsonObject> json = parseJsonObject(policyBytes, path);
        if (!json.ok())
            return failWith(json.error(), RunError);
        const Result<Policy> parsed = Policy::fromJson(json.value(), path);
        if (!parsed.ok())
            return failWith(parsed.error(), RunError);
        request.policy = parsed.value();
    }

#ifdef Q_OS_LINUX
    // An engine hosted here, which started without anything to report, records the plan
    // builtin:auto builds, for the run front to use while nothing it was built from changes.
    if (Engine *hosted = engine.provider().isOwner() ? engine.provider().engine() : nullptr;
        hosted && hosted->warnings().isEmpty() && engine.planRecording())
        engine.planRecording()->install(std::make_shared<PlanRecorder>(
            hosted->configDirectory(), hosted->stateDirectory(), policyArgument, policyBytes, startUpReads(engine)));
#endif
    std::unique_ptr<RemoteProcess> process = engine.client().spawn(request);
    QEventLoop loop;
    int exitStatus = RunError;
    // The questions of its own start are asked before the command runs; what the engine asks
    // after that is another client's, for the presenters to answer (a prompt here would hold
    // back the command's output, a refusal would answer for someone else).
    QObject::connect(process.get(), &RemoteProcess::started, &engine, [&engine, terminal] {
        engine.responder().setEnabled(false);
        // Only now: a question about its start was answered on this terminal as it was.
        if (terminal)
            Terminal::enterRawMode();
    });
    QObject::connect(process.get(), &RemoteProcess::stdoutReady, &engine, [terminal](const QByteArray &data) {
        // Output may come before the news that the command started: it runs already.
        if (terminal)
            Terminal::enterRawMode();
        Terminal::writeAll(STDOUT_FILENO, data);
    });
    QObject::connect(process.get(), &RemoteProcess::stderrReady, &engine,
                     [](const QByteArray &data) { Terminal::writeAll(STDERR_FILENO, data); });
    QObject::connect(process.get(), &RemoteProcess::failedToStart, &engine, [&](const Error &error) {
        Terminal::leaveRawMode();
        failWith(Error{ error.where, tr("cannot run %1: %2").arg(argv.constFirst(), error.message), error.details },
                 RunError);
        exitStatus = engine.responder().hadUnanswerable() ? RunUnanswered : RunError;
        loop.quit();
    });
    bool engineStopping = false;
    QObject::connect(&engine.client(), &Client::engineStopping, &engine, [&] { engineStopping = true; });
    QObject::connect(process.get(), &RemoteProcess::finished, &engine, [&](const ExitStatus &status) {
        Terminal::leaveRawMode();
        if (status.timedOut)
            fail(tr("%1 timed out after %2 s and was killed").arg(argv.constFirst(), timeout));
        else if (engineStopping && status.signaled)
            fail(tr("the engine stopped (the program hosting it quit) and ended %1").arg(argv.constFirst()));
        exitStatus = status.shellStatus();
        loop.quit();
    });
    QObject::connect(&engine.client(), &Client::disconnected, &engine, [&](const QString &reason) {
        Terminal::leaveRawMode();
        fail(tr("lost the engine while %1 was running: %2").arg(argv.constFirst(), reason), RunError);
        exitStatus = RunError;
        loop.quit();
    });

    // Our stdin goes to the command; end of input closes its stdin.
    std::unique_ptr<QSocketNotifier> stdinNotifier;
    if (::fcntl(STDIN_FILENO, F_GETFD) == -1) {
        process->closeStdin();
    } else {
        stdinNotifier = std::make_unique<QSocketNotifier>(STDIN_FILENO, QSocketNotifier::Read);
        QObject::connect(stdinNotifier.get(), &QSocketNotifier::activated, &engine, [&] {
            char buffer[65536];
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n > 0) {
                process->writeStdin(QByteArray(buffer, n));
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                stdinNotifier->setEnabled(false);
                process->closeStdin();
            }
        });
    }
    // Ctrl-C, TERM or HUP to sandboxctl goes on to the command, which may handle it; a second
    // one kills the sandbox. Either way the command's status is reported. With a terminal, a
    // resized window (SIGWINCH) resizes the command's.
    QList<int> watched{ SIGINT, SIGTERM, SIGHUP };
    if (terminal)
        watched.append(SIGWINCH);
    SignalWatcher signalWatcher(watched);
    bool signalPassed = false;
    QObject::connect(&signalWatcher, &SignalWatcher::signalReceived, &engine, [&](int number) {
        if (number == SIGWINCH) {
            if (const std::optional<TerminalSize> size = Terminal::size(STDIN_FILENO))
                process->resizeTerminal(*size);
            return;
        }
        if (std::exchange(signalPassed, true)) {
            process->kill();
            return;
        }
        process->deliverSignal(number == SIGINT       ? ProcessSignal::Interrupt
                                   : number == SIGHUP ? ProcessSignal::Hangup
                                                      : ProcessSignal::Terminate);
    });

    loop.exec();
    Terminal::leaveRawMode();
    return exitStatus;
}

} // namespace sandbox
