// sandboxd and sandboxctl as a user runs them: real processes, the real socket, the real
// engine and the built-in auto backend. Several clients at once, clients killed in the
// middle of an activation or a command, another user knocking, and the embedded engine
// answering exactly as the daemon does.
#include "ProgramRun.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using sandbox::test::binary;
using sandbox::test::Outcome;

// Never kill(0, ...): a process that already ended has id 0, and that would be our group.
void killHard(const QProcess &process)
{
    if (process.processId() > 0)
        ::kill(pid_t(process.processId()), SIGKILL);
}

bool pidAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

// The engine lists a command as soon as it is spawned, with pid 0 until it has started.
bool everyPidKnown(const QJsonArray &list)
{
    return std::all_of(list.begin(), list.end(),
                       [](const QJsonValue &p) { return p.toObject().value(QStringLiteral("pid")).toInteger() > 0; });
}

// The engine's pid as `sandboxctl status --json` reports it.
qint64 serverPid(const Outcome &status)
{
    return QJsonDocument::fromJson(status.out)
        .object()
        .value(QStringLiteral("server"))
        .toObject()
        .value(QStringLiteral("pid"))
        .toInteger();
}

} // namespace

class TestDaemon final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void helpVersionAndExitStatus();
    void everyCommandHasHelpAndRefusesUnknownOptions();
    void helpCommandCompletionAndManPageCoverEveryCommand();
    void secondOwnerIsNotStarted();
    void concurrentClientsRunCommandsDuringAnActivation();
    void clientKilledMidSpawnTakesItsProcessesWithIt();
    void clientKilledMidActivationLeavesEngineConsistent();
    void daemonKilledWithSigkillTakesItsSandboxesWithIt_data();
    void daemonKilledWithSigkillTakesItsSandboxesWithIt();
    void anotherUserIsRefusedAndLogged();
    void embeddedAndDaemonGiveTheSameOutput();
    void twoRunsWithoutAnOwnerEachEndOnTheirOwn();
    void unreadablePolicyRefusesRunsUntilReplaced();
    void activatingAnUnknownBackendSaysSoAtOnce();
    void runFrontAnswersAsTheFullProgram();
    void aChangedPolicyOrStoreTakesEffectOnTheNextCommand();
    void theEngineFilesStayReadOnlyWhereAWritablePathReachesThem();
    void signalToRunFrontEndsTheCommand();
    void ctrlCGoesOnToTheCommandAndASecondKills();
    void terminateEndsRunningProcesses_data();
    void terminateEndsRunningProcesses();
    void secretSetThroughStdinNeverLeaks();
    void simultaneousStartsMakeExactlyOneOwner();
    void terminalPromptsAndSecretsWithoutEcho();
    void staleSocketOfADeadOwnerIsReplaced();
    void hostInteractionWithoutTerminalNamesTheQuestion();
    void runningCommandLeavesOtherClientsQuestionsAlone_data();
    void runningCommandLeavesOtherClientsQuestionsAlone();
    void printedValuesReadBackAsTheCommandLineTakesThem();
    void policyFieldErrorsNameTheFile();
    void hotSwitchKeepsEachCommandInTheTierThatStartedIt();
    void proxyRefusalsAreFollowedAsEvents();
    void confinementRefusalIsAnEvent();
    void tierTwoSupervisorRefusalsAreEvents();
    void settingsWithoutAKeychainShowAndChangeTheOtherFields();

private:
    static void programRows();
    QProcessEnvironment environment(const QString &name) const;
    void startDaemon();
    Outcome ctl(const QStringList &args, const QByteArray &input = {}, const QString &profile = QStringLiteral("d"),
                int timeoutMs = 60000);
    std::unique_ptr<QProcess> startCtl(const QStringList &args, const QString &program = QStringLiteral("sandboxctl"));
    QJsonArray processes();
    // The stored policy with `network` replaced, written to work/NAME; returns its path.
    QString policyWithNetwork(const QString &name, const QJsonObject &network);

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_socket;
    std::unique_ptr<QProcess> m_daemon;
    QByteArray m_daemonLog;
};

QProcessEnvironment TestDaemon::environment(const QString &name) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(name + QStringLiteral("/config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(name + QStringLiteral("/state")));
    env.insert(QStringLiteral("SANDBOX_PACK_PATH"), QStringLiteral(SANDBOX_TEST_PACK_DIR));
    return env;
}

void TestDaemon::init()
{
    // Not under /tmp: tier 2 shares the host's /tmp, which the default policy makes writable,
    // and refuses to run anything while the engine's directories are within reach.
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/daemon-XXXXXX"));
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("work")));
    m_socket = m_root->filePath(QStringLiteral("run/engine.sock"));
    m_daemonLog.clear();
}

void TestDaemon::cleanup()
{
    if (m_daemon && m_daemon->state() != QProcess::NotRunning) {
        m_daemon->terminate();
        if (!m_daemon->waitForFinished(15000))
            m_daemon->kill();
        m_daemon->waitForFinished(5000);
    }
    m_daemon.reset();
    m_root.reset();
}

void TestDaemon::startDaemon()
{
    m_daemonLog.clear();
    m_daemon = std::make_unique<QProcess>();
    sandbox::test::startSandboxd(*m_daemon, environment(QStringLiteral("d")), m_socket, m_daemonLog);
}

Outcome TestDaemon::ctl(const QStringList &args, const QByteArray &input, const QString &profile, int timeoutMs)
{
    QStringList all{ QStringLiteral("--socket"),
                     profile == QLatin1String("d") ? m_socket
                                                   : m_root->filePath(profile + QStringLiteral("/engine.sock")) };
    all += args;
    return sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), all,
                                     m_root->filePath(QStringLiteral("work")), input, timeoutMs, environment(profile));
}

std::unique_ptr<QProcess> TestDaemon::startCtl(const QStringList &args, const QString &program)
{
    auto process = std::make_unique<QProcess>();
    process->setProcessEnvironment(environment(QStringLiteral("d")));
    process->setWorkingDirectory(m_root->filePath(QStringLiteral("work")));
    process->start(binary(program), QStringList{ QStringLiteral("--socket"), m_socket } + args);
    process->waitForStarted();
    return process;
}

QJsonArray TestDaemon::processes()
{
    const Outcome ps = ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    return QJsonDocument::fromJson(ps.out).array();
}

void TestDaemon::helpVersionAndExitStatus()
{
    QProcess d;
    d.start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--help") });
    QVERIFY(d.waitForFinished());
    QCOMPARE(d.exitCode(), 0);
    const QByteArray help = d.readAllStandardOutput();
    QVERIFY(help.contains("--socket"));
    QVERIFY(help.contains("already runs for this user"));
    d.start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--version") });
    QVERIFY(d.waitForFinished());
    QVERIFY(d.readAllStandardOutput().startsWith("sandboxd "));
    d.start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--bogus") });
    QVERIFY(d.waitForFinished());
    QCOMPARE(d.exitCode(), 2);

    const Outcome general = ctl({ QStringLiteral("--help") });
    QCOMPARE(general.exitCode, 0);
    for (const char *command : { "backends", "describe", "settings", "secret", "activate", "policy", "run", "ps",
                                 "kill", "packs", "status" }) {
        QVERIFY2(general.out.contains(QByteArray(QByteArray("  ") + command)), command);
        const Outcome one = ctl({ QString::fromLatin1(command), QStringLiteral("--help") });
        QCOMPARE(one.exitCode, 0);
        QVERIFY2(one.out.startsWith(QByteArray(QByteArray("usage: sandboxctl ") + command)), one.out.constData());
    }
    const Outcome unknown = ctl({ QStringLiteral("frobnicate") });
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY(unknown.err.contains("unknown command \"frobnicate\""));
    // run's own usage errors are 125, never a status the command could have produced itself.
    QCOMPARE(ctl({ QStringLiteral("run") }).exitCode, 125);
}

namespace {

// The commands `sandboxctl --help` lists, and each one's options from its own --help.
QMap<QString, QStringList> commandsAndOptions(const QByteArray &generalHelp,
                                              const std::function<QByteArray(const QString &)> &helpOf)
{
    QMap<QString, QStringList> out;
    const qsizetype from = generalHelp.indexOf("Commands:\n");
    const QByteArray commands = generalHelp.mid(from, generalHelp.indexOf("Global options:") - from);
    static const QRegularExpression commandLine(QStringLiteral("^  ([a-z]+)"), QRegularExpression::MultilineOption);
    static const QRegularExpression optionLine(QStringLiteral("^  (?:-\\w, )?(--[a-z-]+)"),
                                               QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &command : commandLine.globalMatch(QString::fromUtf8(commands))) {
        const QString name = command.captured(1);
        const QString help = QString::fromUtf8(helpOf(name));
        const QString own = help.mid(help.indexOf(QStringLiteral("Options:")));
        QStringList options;
        for (const QRegularExpressionMatch &option : optionLine.globalMatch(own)) {
            if (option.captured(1) != QLatin1String("--help"))
                options.append(option.captured(1));
        }
        out.insert(name, options);
    }
    return out;
}

} // namespace

// `sandboxctl help COMMAND`, --version, the shell completion and the manual page know every
// command and option the program has.
void TestDaemon::helpCommandCompletionAndManPageCoverEveryCommand()
{
    const Outcome version = ctl({ QStringLiteral("--version") });
    QCOMPARE(version.exitCode, 0);
    QVERIFY2(version.out.startsWith("sandboxctl ") && version.out.size() > 12, version.out.constData());
    const Outcome general = ctl({ QStringLiteral("--help") });
    QCOMPARE(ctl({ QStringLiteral("help") }).out, general.out);
    QCOMPARE(ctl({ QStringLiteral("help"), QStringLiteral("run") }).out,
             ctl({ QStringLiteral("run"), QStringLiteral("--help") }).out);
    const Outcome unknown = ctl({ QStringLiteral("help"), QStringLiteral("frobnicate") });
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY(unknown.err.contains("unknown command \"frobnicate\""));

    const QMap<QString, QStringList> commands = commandsAndOptions(general.out, [this](const QString &name) {
        return ctl({ name, QStringLiteral("--help") }).out;
    });
    QVERIFY2(commands.size() >= 14, qPrintable(commands.keys().join(QLatin1Char(' '))));
    QVERIFY(commands.value(QStringLiteral("run")).contains(QStringLiteral("--workspace")));

    QFile manual(QStringLiteral(SANDBOX_SOURCE_DIR "/installer/linux/man/sandboxctl.1.in"));
    QVERIFY(manual.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(manual.readAll());
    for (const char *section : { ".SH COMMANDS", ".SH GLOBAL OPTIONS", ".SH EXIT STATUS", ".SH ENVIRONMENT" })
        QVERIFY2(page.contains(QLatin1String(section)), section);
    for (const char *variable : { "SANDBOX_CONFIG_DIR", "SANDBOX_STATE_DIR", "XDG_RUNTIME_DIR", "SANDBOX_PACK_PATH" })
        QVERIFY2(page.contains(QLatin1String(variable)), variable);
    const QString commandsSection
        = page.section(QStringLiteral(".SH COMMANDS"), 1).section(QStringLiteral(".SH "), 0, 0);
    for (auto it = commands.begin(); it != commands.end(); ++it) {
        QVERIFY2(
            QRegularExpression(QStringLiteral("^\\.B[RI]? \"?%1\\b").arg(it.key()), QRegularExpression::MultilineOption)
                .match(commandsSection)
                .hasMatch(),
            qPrintable(it.key()));
        for (const QString &option : it.value())
            QVERIFY2(page.contains(QString(option).replace(QLatin1Char('-'), QStringLiteral("\\-"))),
                     qPrintable(it.key() + QLatin1Char(' ') + option));
    }
    for (const char *global : { "socket", "embedded", "config-dir", "answer", "version" })
        QVERIFY2(page.contains(QStringLiteral("\\-\\-")
                               + QString::fromLatin1(global).replace(QLatin1Char('-'), QStringLiteral("\\-"))),
                 global);
    for (const char *status : { ".B 0\n", ".B 1\n", ".B 2\n", ".B 3\n", ".B 125\n", ".B 126\n" })
        QVERIFY2(page.contains(QLatin1String(status)), status);

    // bash completes every command, and each one's options, as a user types them.
    const QString script = m_root->filePath(QStringLiteral("sandboxctl.bash"));
    QFile bashScript(script);
    QVERIFY(bashScript.open(QIODevice::WriteOnly));
    const Outcome bash = ctl({ QStringLiteral("completion"), QStringLiteral("bash") });
    QCOMPARE(bash.exitCode, 0);
    bashScript.write(bash.out);
    bashScript.close();
    const auto complete = [&script](const QString &line) {
        const Outcome done = sandbox::test::runProgram(
            QStringLiteral("bash"),
            { QStringLiteral("-c"),
              QStringLiteral("source \"$1\"; COMP_LINE=$2; read -ra COMP_WORDS <<< \"$2\"; "
                             "[[ $2 == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                             "_sandboxctl; printf '%s\\n' \"${COMPREPLY[@]}\""),
              QStringLiteral("bash"), script, line },
            QDir::tempPath(), {}, 30000);
        return QString::fromUtf8(done.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    };
    const QStringList all = complete(QStringLiteral("sandboxctl "));
    for (auto it = commands.begin(); it != commands.end(); ++it) {
        QVERIFY2(all.contains(it.key()), qPrintable(it.key() + QStringLiteral(": ") + all.join(QLatin1Char(' '))));
        const QStringList options
            = complete(QStringLiteral("sandboxctl --socket /x ") + it.key() + QStringLiteral(" --"));
        for (const QString &option : it.value())
            QVERIFY2(options.contains(option), qPrintable(it.key() + QLatin1Char(' ') + option));
        QVERIFY(options.contains(QStringLiteral("--answer")));
    }
    QCOMPARE(complete(QStringLiteral("sandboxctl policy s")),
             (QStringList{ QStringLiteral("show"), QStringLiteral("set") }));
    QCOMPARE(complete(QStringLiteral("sandboxctl help ac")), QStringList{ QStringLiteral("activate") });

    // zsh and fish read theirs (where they are installed: the package ships all three).
    for (const QString &shell : { QStringLiteral("zsh"), QStringLiteral("fish") }) {
        if (QStandardPaths::findExecutable(shell).isEmpty()) {
            qInfo("%s is not installed: its completion script is not read here", qPrintable(shell));
            continue;
        }
        const Outcome printed = ctl({ QStringLiteral("completion"), shell });
        QCOMPARE(printed.exitCode, 0);
        const Outcome read
            = sandbox::test::runProgram(shell, { QStringLiteral("-n") }, QDir::tempPath(), printed.out, 30000);
        QVERIFY2(read.exitCode == 0, read.err.constData());
        if (shell == QLatin1String("fish")) {
            const Outcome offered = sandbox::test::runProgram(
                shell, { QStringLiteral("-c"), QStringLiteral("source; complete -C 'sandboxctl run --w'") },
                QDir::tempPath(), printed.out, 30000);
            QVERIFY2(offered.out.startsWith("--workspace\t"), QByteArray(offered.out + offered.err).constData());
        }
    }
}

QString TestDaemon::policyWithNetwork(const QString &name, const QJsonObject &network)
{
    QJsonObject policy = QJsonDocument::fromJson(
                             ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                             .object();
    policy.insert(QStringLiteral("network"), network);
    const QString path = m_root->filePath(QStringLiteral("work/") + name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QJsonDocument(policy).toJson());
    return path;
}

void TestDaemon::everyCommandHasHelpAndRefusesUnknownOptions()
{
    const QList<QPair<QString, QStringList>> commands{
        { QStringLiteral("backends"), { QStringLiteral("--json") } },
        { QStringLiteral("describe"), { QStringLiteral("--json") } },
        { QStringLiteral("settings"), { QStringLiteral("--json") } },
        { QStringLiteral("secret"), {} },
        { QStringLiteral("activate"), {} },
        { QStringLiteral("policy"), { QStringLiteral("--json") } },
        { QStringLiteral("run"), { QStringLiteral("--policy FILE"), QStringLiteral("--timeout S") } },
        { QStringLiteral("ps"), { QStringLiteral("--json") } },
        { QStringLiteral("kill"), {} },
        { QStringLiteral("packs"), { QStringLiteral("--json") } },
        { QStringLiteral("status"), { QStringLiteral("--json") } },
        { QStringLiteral("events"), { QStringLiteral("--follow"), QStringLiteral("--json") } },
    };
    for (const auto &[command, options] : commands) {
        for (const QString &help : { QStringLiteral("--help"), QStringLiteral("-h") }) {
            const Outcome shown = ctl({ command, help });
            QCOMPARE(shown.exitCode, 0);
            QVERIFY2(shown.out.startsWith(QByteArray("usage: sandboxctl " + command.toUtf8())), shown.out.constData());
            QVERIFY2(shown.out.contains("-h, --help"), shown.out.constData());
            for (const QString &option : options)
                QVERIFY2(shown.out.contains(option.toUtf8()), qPrintable(command + QLatin1Char(' ') + option));
            QVERIFY(shown.err.isEmpty());
        }
        // An unknown option is bad usage, named with the command's usage line, and
        // refused before any engine is reached or started.
        const int usageStatus = command == QLatin1String("run") ? 125 : 2;
        const Outcome bogus = ctl({ command, QStringLiteral("--bogus"), QStringLiteral("x") });
        QCOMPARE(bogus.exitCode, usageStatus);
        QVERIFY2(bogus.err.startsWith(QByteArray("sandboxctl " + command.toUtf8()
                                                 + ": unknown option --bogus\nusage: sandboxctl " + command.toUtf8())),
                 bogus.err.constData());
        QVERIFY(bogus.out.isEmpty());
        const Outcome shortBogus = ctl({ command, QStringLiteral("-Z") });
        QCOMPARE(shortBogus.exitCode, usageStatus);
        QVERIFY2(shortBogus.err.contains(": unknown option -Z\n"), shortBogus.err.constData());
    }
    QVERIFY(!QFileInfo::exists(m_socket));
    QVERIFY(!QFileInfo::exists(m_root->filePath(QStringLiteral("d/config"))));

    const Outcome beforeCommand = ctl({ QStringLiteral("--bogus"), QStringLiteral("status") });
    QCOMPARE(beforeCommand.exitCode, 2);
    QVERIFY2(beforeCommand.err.contains("unknown option --bogus"), beforeCommand.err.constData());
    const Outcome missingValue = ctl({ QStringLiteral("run"), QStringLiteral("--timeout") });
    QCOMPARE(missingValue.exitCode, 125);
    QVERIFY2(missingValue.err.contains("--timeout"), missingValue.err.constData());

    // After `--` (and after CMD's name) everything is CMD's, --help included; global
    // options are accepted after the command name too.
    const Outcome passed = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"),
                                 QStringLiteral("-c"), QStringLiteral("echo \"$1\" \"$2\""), QStringLiteral("sh"),
                                 QStringLiteral("--help"), QStringLiteral("--bogus") });
    QCOMPARE(passed.exitCode, 0);
    QCOMPARE(passed.out, QByteArray("--help --bogus\n"));
    const Outcome noDash
        = ctl({ QStringLiteral("run"), QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 4") });
    QCOMPARE(noDash.exitCode, 4);
    const Outcome late = ctl({ QStringLiteral("status"), QStringLiteral("--json"), QStringLiteral("--embedded") });
    QCOMPARE(late.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(late.out).object().value(QStringLiteral("embedded")).toBool(), true);
}

void TestDaemon::secondOwnerIsNotStarted()
{
    startDaemon();
    QProcess second;
    second.setProcessEnvironment(environment(QStringLiteral("d")));
    second.start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--socket"), m_socket });
    QVERIFY(second.waitForFinished(30000));
    QCOMPARE(second.exitCode(), 0);
    const QByteArray message = second.readAllStandardError();
    QVERIFY2(
        message.contains(QByteArray("already running for this user (pid " + QByteArray::number(m_daemon->processId()))),
        message.constData());

    const Outcome embedded = ctl({ QStringLiteral("--embedded"), QStringLiteral("status") });
    QCOMPARE(embedded.exitCode, 1);
    QVERIFY(embedded.err.contains("already runs for this user"));

    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(status.exitCode, 0);
    const QJsonObject s = QJsonDocument::fromJson(status.out).object();
    QCOMPARE(s.value(QStringLiteral("server")).toObject().value(QStringLiteral("pid")).toInteger(),
             m_daemon->processId());
    QCOMPARE(s.value(QStringLiteral("embedded")).toBool(), false);
}

void TestDaemon::concurrentClientsRunCommandsDuringAnActivation()
{
    startDaemon();
    std::vector<std::unique_ptr<QProcess>> runs;
    for (int i = 0; i < 4; ++i) {
        runs.push_back(startCtl(
            { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("read line; echo \"client %1 got $line\"; echo to-stderr-%1 >&2; exit %1").arg(i) }));
    }
    auto activation = startCtl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    for (int i = 0; i < 4; ++i) {
        runs[size_t(i)]->write(QByteArray("line-") + QByteArray::number(i) + '\n');
        runs[size_t(i)]->closeWriteChannel();
    }
    for (int i = 0; i < 4; ++i) {
        QProcess &run = *runs[size_t(i)];
        QVERIFY(run.waitForFinished(60000));
        const QByteArray err = run.readAllStandardError();
        QVERIFY2(run.exitCode() == i, err.constData());
        QCOMPARE(run.readAllStandardOutput(),
                 QByteArray("client ") + QByteArray::number(i) + " got line-" + QByteArray::number(i) + '\n');
        QCOMPARE(err, QByteArray("to-stderr-") + QByteArray::number(i) + '\n');
    }
    QVERIFY(activation->waitForFinished(60000));
    const QByteArray activated = activation->readAllStandardOutput();
    QCOMPARE(activation->exitCode(), 0);
    QVERIFY2(activated.contains("swap             succeeded"), activated.constData());
    QVERIFY(activated.endsWith("activated builtin:auto\n"));

    const QJsonArray list = processes();
    QCOMPARE(list.size(), 4);
    for (const QJsonValue &p : list) {
        QCOMPARE(p.toObject().value(QStringLiteral("state")).toString(), QStringLiteral("exited"));
        QCOMPARE(p.toObject().value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1),
                 QStringLiteral("auto"));
    }
}

void TestDaemon::clientKilledMidSpawnTakesItsProcessesWithIt()
{
    startDaemon();
    auto victim
        = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("300") });
    auto survivor = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("read x; echo survived $x") });
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = processes()).size() == 2 && everyPidKnown(list), 30000);
    qint64 sleepPid = 0;
    for (const QJsonValue &p : std::as_const(list)) {
        if (p.toObject().value(QStringLiteral("argv")).toArray().first().toString() == QLatin1String("sleep"))
            sleepPid = p.toObject().value(QStringLiteral("pid")).toInteger();
    }
    QVERIFY(pidAlive(sleepPid));

    killHard(*victim);
    QVERIFY(victim->waitForFinished());
    QTRY_VERIFY_WITH_TIMEOUT(!pidAlive(sleepPid), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_daemonLog.contains("1 process(es) killed"), 30000);

    // The other client and its command are untouched.
    survivor->write("yes\n");
    survivor->closeWriteChannel();
    QVERIFY(survivor->waitForFinished(30000));
    QCOMPARE(survivor->exitCode(), 0);
    QCOMPARE(survivor->readAllStandardOutput(), QByteArray("survived yes\n"));
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(status.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(status.out).object().value(QStringLiteral("processes")).toInt(), 0);
}

void TestDaemon::clientKilledMidActivationLeavesEngineConsistent()
{
    startDaemon();
    for (int round = 0; round < 3; ++round) {
        auto victim = startCtl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
        QByteArray seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen += victim->readAllStandardOutput()).contains("validate"), 30000);
        killHard(*victim);
        QVERIFY(victim->state() == QProcess::NotRunning || victim->waitForFinished());
    }
    // The activations ran to their end without their clients; the engine still answers
    // everyone, and builtin:auto is what it says is active.
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(status.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(status.out).object().value(QStringLiteral("active")).toString(),
             QStringLiteral("builtin:auto"));
    const Outcome again = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    QCOMPARE(again.exitCode, 0);
    const Outcome run
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("echo"), QStringLiteral("ok") });
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray("ok\n"));
    QCOMPARE(m_daemon->state(), QProcess::Running);
}

void TestDaemon::daemonKilledWithSigkillTakesItsSandboxesWithIt_data()
{
    QTest::addColumn<QString>("tier");
    QTest::newRow("namespaces") << QStringLiteral("strongest");
    QTest::newRow("landlock-seccomp") << QStringLiteral("landlock-seccomp");
}

// The engine that holds a sandbox is killed (the OOM killer, a crash): every process of
// the sandbox ends with it, grandchildren in a session of their own included (they hold a
// lock until they end).
void TestDaemon::daemonKilledWithSigkillTakesItsSandboxesWithIt()
{
    QFETCH(QString, tier);
    startDaemon();
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                   QStringLiteral("tier=") + tier })
                 .exitCode,
             0);
    QCOMPARE(ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }).exitCode, 0);
    const QString work = m_root->filePath(QStringLiteral("work"));
    auto client = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral("setsid flock held.lock sh -c 'echo up > held.ready; exec sleep 1000' & "
                                            "sh -c 'exec sleep 1000' & wait") });
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(work + QStringLiteral("/held.ready")), 30000);
    killHard(*m_daemon);
    QTRY_VERIFY_WITH_TIMEOUT(sandbox::test::lockIsFree(work + QStringLiteral("/held.lock")), 15000);
    // The client says it lost its engine and ends with an error of its own.
    QTRY_VERIFY_WITH_TIMEOUT(client->state() == QProcess::NotRunning, 30000);
    QVERIFY2(client->exitCode() != 0, client->readAllStandardError().constData());
}

void TestDaemon::anotherUserIsRefusedAndLogged()
{
    if (::geteuid() != 0)
        QSKIP("needs root to run a client as another user");
    if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
        QSKIP("setpriv (util-linux) is not installed");
    startDaemon();
    // Open the path to everyone, so what stops the other user is the uid check in the
    // engine, not the file system.
    const QString runDir = QFileInfo(m_socket).absolutePath();
    for (const QString &dir : { m_root->path(), runDir })
        QVERIFY(::chmod(QFile::encodeName(dir).constData(), 0755) == 0);
    QVERIFY(::chmod(QFile::encodeName(m_socket).constData(), 0666) == 0);

    QProcess intruder;
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), QStringLiteral("/nonexistent"));
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    intruder.setProcessEnvironment(env);
    intruder.start(QStringLiteral("setpriv"),
                   { QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups"),
                     binary(QStringLiteral("sandboxctl")), QStringLiteral("--socket"), m_socket,
                     QStringLiteral("status") });
    QVERIFY(intruder.waitForFinished(30000));
    const QByteArray err = intruder.readAllStandardError();
    QCOMPARE(intruder.exitCode(), 1);
    QVERIFY2(err.contains("served by uid 0"), err.constData());
    QVERIFY(intruder.readAllStandardOutput().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_daemonLog.contains("refused a connection from uid 65534 pid "), 10000);

    const Outcome status = ctl({ QStringLiteral("status") });
    QCOMPARE(status.exitCode, 0);
}

void TestDaemon::embeddedAndDaemonGiveTheSameOutput()
{
    QFile policyFile(m_root->filePath(QStringLiteral("work/policy.json")));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}","/tmp"],"denied":["~/.ssh"],"readOnly":[]},
        "confinement":{"processes":"isolated"},
        "network":{"mode":"allowlist","allowedDomains":["example.org"],"deniedDomains":[]},
        "hostExecution":"deny"})");
    policyFile.close();
    const QList<QStringList> script{
        { QStringLiteral("backends") },
        { QStringLiteral("backends"), QStringLiteral("--json") },
        { QStringLiteral("describe"), QStringLiteral("builtin:auto") },
        { QStringLiteral("settings"), QStringLiteral("get"), QStringLiteral("builtin:auto") },
        { QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"), QStringLiteral("nope=1") },
        { QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
          QStringLiteral("tier=bogus") },
        { QStringLiteral("settings"), QStringLiteral("get"), QStringLiteral("builtin:nothing") },
        { QStringLiteral("policy"), QStringLiteral("show") },
        { QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("policy.json") },
        { QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") },
        { QStringLiteral("activate"), QStringLiteral("builtin:auto") },
        { QStringLiteral("activate"), QStringLiteral("builtin:vm") },
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
          QStringLiteral("cat; echo done; exit 7") },
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/no/such/program") },
        { QStringLiteral("kill"), QStringLiteral("999") },
        { QStringLiteral("packs"), QStringLiteral("list") },
        { QStringLiteral("packs"), QStringLiteral("disable"), QStringLiteral("no-such-pack") },
        { QStringLiteral("run"), QStringLiteral("--policy"), QStringLiteral("missing.json"), QStringLiteral("--"),
          QStringLiteral("true") },
        { QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("1"), QStringLiteral("--"),
          QStringLiteral("sleep"), QStringLiteral("30") },
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
          QStringLiteral("kill -TERM $$") },
    };
    auto play = [&](const QString &profile) {
        QList<Outcome> outcomes;
        for (const QStringList &command : script)
            outcomes.append(ctl(command, QByteArray("piped input\n"), profile));
        return outcomes;
    };
    // Embedded: no engine runs for profile "e", so each sandboxctl hosts its own.
    const QList<Outcome> embedded = play(QStringLiteral("e"));
    startDaemon();
    // An embedded sandboxctl serves once its start-up activation has ended; the daemon serves
    // at once and activates meanwhile, so the comparison starts when it has.
    QTRY_VERIFY_WITH_TIMEOUT(
        ctl({ QStringLiteral("status") }, {}, QStringLiteral("d")).out.contains("active backend:  builtin:auto"),
        30000);
    const QList<Outcome> daemon = play(QStringLiteral("d"));
    for (qsizetype i = 0; i < script.size(); ++i) {
        const QString what = script[i].join(QLatin1Char(' '));
        QVERIFY2(embedded[i].exitCode == daemon[i].exitCode,
                 qPrintable(what + QStringLiteral(": %1 vs %2").arg(embedded[i].exitCode).arg(daemon[i].exitCode)));
        QVERIFY2(embedded[i].out == daemon[i].out,
                 qPrintable(what + QStringLiteral(":\n") + QString::fromUtf8(embedded[i].out) + QStringLiteral("\nvs\n")
                            + QString::fromUtf8(daemon[i].out)));
        QVERIFY2(embedded[i].err == daemon[i].err,
                 qPrintable(what + QStringLiteral(":\n") + QString::fromUtf8(embedded[i].err) + QStringLiteral("\nvs\n")
                            + QString::fromUtf8(daemon[i].err)));
    }
    // And what they say is what a user expects.
    QCOMPARE(daemon[4].exitCode, 1);
    QVERIFY(daemon[4].err.contains("builtin:auto has no setting \"nope\""));
    QCOMPARE(daemon[12].exitCode, 7);
    QCOMPARE(daemon[12].out, QByteArray("piped input\ndone\n"));
    QCOMPARE(daemon[13].exitCode, 127); // the shell's "command not found", from inside the sandbox
    QCOMPARE(daemon[17].exitCode, 125); // sandboxctl's own error, not the command's
    QVERIFY(daemon[17].err.startsWith("sandboxctl: cannot read missing.json"));
    QCOMPARE(daemon[18].exitCode, 128 + SIGKILL);
    QCOMPARE(daemon[18].err, QByteArray("sandboxctl: sleep timed out after 1 s and was killed\n"));
    QCOMPARE(daemon[19].exitCode, 128 + SIGTERM);
    QVERIFY(daemon[11].exitCode != 0);
    QVERIFY(daemon[9].out.contains("example.org"));
}

// With no engine owner, two `sandboxctl run`s at once each end with their own command: the
// second, started while the first runs and still running when the first has exited, keeps
// its command, its output and its status.
void TestDaemon::twoRunsWithoutAnOwnerEachEndOnTheirOwn()
{
    const QString work = m_root->filePath(QStringLiteral("work"));
    // Each in its own workspace: no plan recorded by the first serves the second, so the
    // second's own sandboxctl hosts an engine.
    for (const QString &name : { QStringLiteral("first"), QStringLiteral("second") }) {
        QVERIFY(QDir(work).mkpath(name));
        QVERIFY(::mkfifo(QFile::encodeName(QDir(work).filePath(name + QStringLiteral("/gate"))).constData(), 0600)
                == 0);
    }
    const QString report = m_root->filePath(QStringLiteral("run-paths"));
    const auto start = [&](const QString &name, int status) {
        auto process = std::make_unique<QProcess>();
        QProcessEnvironment env = environment(QStringLiteral("e"));
        env.insert(QStringLiteral("SANDBOXCTL_RUN_PATH_REPORT"), report);
        process->setProcessEnvironment(env);
        process->setWorkingDirectory(QDir(work).filePath(name));
        process->start(binary(QStringLiteral("sandboxctl")),
                       { QStringLiteral("--socket"), m_root->filePath(QStringLiteral("e/engine.sock")),
                         QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                         QStringLiteral("echo %1 started; : > started; read word < gate; echo %1 got $word; exit %2")
                             .arg(name)
                             .arg(status) });
        process->closeWriteChannel();
        return process;
    };
    // Opened for reading and writing, a fifo never blocks: the word reaches the command
    // waiting for it, or nobody when the command is gone.
    const auto open = [&](const QString &name) {
        const QByteArray path = QFile::encodeName(QDir(work).filePath(name + QStringLiteral("/gate")));
        const int fd = ::open(path.constData(), O_RDWR | O_CLOEXEC);
        QVERIFY(fd >= 0);
        const QByteArray word = name.toLatin1() + "-go\n";
        const ssize_t written = ::write(fd, word.constData(), size_t(word.size()));
        ::close(fd);
        QCOMPARE(written, ssize_t(word.size()));
    };

    std::unique_ptr<QProcess> first = start(QStringLiteral("first"), 3);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(QDir(work).filePath(QStringLiteral("first/started"))), 60000);
    std::unique_ptr<QProcess> second = start(QStringLiteral("second"), 5);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(QDir(work).filePath(QStringLiteral("second/started"))), 60000);

    open(QStringLiteral("first"));
    QVERIFY(first->waitForFinished(60000));
    QCOMPARE(first->exitCode(), 3);
    QCOMPARE(first->readAllStandardOutput(), QByteArray("first started\nfirst got first-go\n"));

    // The first sandboxctl is gone; the second's command still runs and ends on its own.
    QCOMPARE(second->state(), QProcess::Running);
    open(QStringLiteral("second"));
    QVERIFY(second->waitForFinished(60000));
    const QByteArray err = second->readAllStandardError();
    QVERIFY2(second->exitStatus() == QProcess::NormalExit && second->exitCode() == 5,
             qPrintable(QStringLiteral("status %1: ").arg(second->exitCode()) + QString::fromUtf8(err)));
    QCOMPARE(second->readAllStandardOutput(), QByteArray("second started\nsecond got second-go\n"));
    QFile paths(report);
    QVERIFY(paths.open(QIODevice::ReadOnly));
    QCOMPARE(paths.readAll(), QByteArray("full no record\nfull no record\n"));
}

// A policy.json that cannot be read is never replaced by the defaults behind the user's
// back: runs are refused with what is wrong and how to fix it, status says so, the file is
// kept as it is, and once the user replaces the policy commands run again.
void TestDaemon::unreadablePolicyRefusesRunsUntilReplaced()
{
    const QString policyPath = m_root->filePath(QStringLiteral("e/config/policy.json"));
    // The profile's folder holds its socket too: owner-only, as a runtime directory must be.
    QVERIFY(::mkdir(QFile::encodeName(m_root->filePath(QStringLiteral("e"))).constData(), 0700) == 0);
    QVERIFY(QDir().mkpath(QFileInfo(policyPath).absolutePath()));
    QFile policy(policyPath);
    QVERIFY(policy.open(QIODevice::WriteOnly));
    policy.write("{ \"network\": ");
    policy.close();
    const QString marker = m_root->filePath(QStringLiteral("work/ran"));
    const QStringList touch{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral(": > ran") };

    const Outcome refused = ctl(touch, {}, QStringLiteral("e"));
    QCOMPARE(refused.exitCode, 125);
    QVERIFY2(refused.err.contains(policyPath.toUtf8()), refused.err.constData());
    QVERIFY2(refused.err.contains("sandboxctl policy set FILE"), refused.err.constData());
    QVERIFY2(refused.err.contains("sandboxctl policy reset"), refused.err.constData());
    QVERIFY(!QFile::exists(marker));

    const Outcome status = ctl({ QStringLiteral("status") }, {}, QStringLiteral("e"));
    QCOMPARE(status.exitCode, 0);
    QVERIFY2(status.out.contains(policyPath.toUtf8()) && status.out.contains("no command runs until it is fixed"),
             status.out.constData());
    QVERIFY(policy.open(QIODevice::ReadOnly));
    QCOMPARE(policy.readAll(), QByteArray("{ \"network\": "));
    policy.close();
    QCOMPARE(QDir(QFileInfo(policyPath).absolutePath()).entryList({ QStringLiteral("policy.json*") }, QDir::Files),
             QStringList{ QStringLiteral("policy.json") });

    const Outcome reset = ctl({ QStringLiteral("policy"), QStringLiteral("reset") }, {}, QStringLiteral("e"));
    QVERIFY2(reset.exitCode == 0, reset.err.constData());
    const Outcome ran = ctl(touch, {}, QStringLiteral("e"));
    QVERIFY2(ran.exitCode == 0, ran.err.constData());
    QVERIFY(QFile::exists(marker));
}

// `sandboxctl activate` of a backend that does not exist says so, and no activation step.
void TestDaemon::activatingAnUnknownBackendSaysSoAtOnce()
{
    startDaemon();
    const Outcome outcome = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:nope") });
    QCOMPARE(outcome.exitCode, 1);
    QCOMPARE(outcome.out, QByteArray());
    QCOMPARE(outcome.err, QByteArray("sandboxctl: no such backend builtin:nope (sandboxctl backends lists them)\n"));
}

// The engine reuses a command's sandbox plan while nothing it was built from changed: a
// policy set between two commands, and a denied store created between them, hold for
// the very next command.
void TestDaemon::aChangedPolicyOrStoreTakesEffectOnTheNextCommand()
{
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);
    const QString work = m_root->filePath(QStringLiteral("work"));
    QFile secret(work + QStringLiteral("/secret.txt"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("s3cret\n");
    secret.close();
    const QStringList readSecret{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"),
                                  QStringLiteral("secret.txt") };
    const QStringList readStore{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"),
                                 QStringLiteral("-c"), QStringLiteral("cat store/key; ls store") };
    // Enough runs for a plan to be built, watched and reused.
    for (int i = 0; i < 4; ++i) {
        const Outcome ran = ctl(readSecret);
        QCOMPARE(ran.exitCode, 0);
        QCOMPARE(ran.out, QByteArray("s3cret\n"));
    }
    QFile policyFile(work + QStringLiteral("/policy.json"));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}","/tmp"],
        "denied":["${workspace}/secret.txt","${workspace}/store"],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"deny"})");
    policyFile.close();
    QCOMPARE(ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("policy.json") }).exitCode, 0);
    const Outcome denied = ctl(readSecret);
    QVERIFY2(denied.exitCode != 0, denied.out.constData());
    QVERIFY(!denied.out.contains("s3cret"));
    for (int i = 0; i < 4; ++i)
        QVERIFY(!ctl(readStore).out.contains("hidden"));
    QVERIFY(QDir(work).mkpath(QStringLiteral("store")));
    QFile key(work + QStringLiteral("/store/key"));
    QVERIFY(key.open(QIODevice::WriteOnly));
    key.write("hidden\n");
    key.close();
    const Outcome store = ctl(readStore);
    QVERIFY2(!store.out.contains("hidden") && !store.out.contains("key"), store.out.constData());
}

// `sandboxctl run` through a running engine is served by the run front without Qt; the
// full program (sandboxctl-full) serves the same command lines as before. What a user
// sees must not depend on which one answered.
void TestDaemon::runFrontAnswersAsTheFullProgram()
{
#ifndef __linux__
    QSKIP("the run front exists on Linux only");
#endif
    QFile policyFile(m_root->filePath(QStringLiteral("work/policy.json")));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}"],"denied":[],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"deny"})");
    policyFile.close();
    QFile wrongPolicy(m_root->filePath(QStringLiteral("work/wrong.json")));
    QVERIFY(wrongPolicy.open(QIODevice::WriteOnly));
    wrongPolicy.write(R"({"network":{"mode":"sometimes"}})");
    wrongPolicy.close();
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);

    const auto run = [](const QStringList &rest) { return QStringList{ QStringLiteral("run") } + rest; };
    const QList<QStringList> script = {
        run({ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("cat; echo to-stderr >&2; exit 7") }),
        run({ QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("head -c 3000000 /dev/zero | tr '\\0' x") }),
        run({ QStringLiteral("--"), QStringLiteral("printf"), QStringLiteral("\\377\\000\\n") }),
        run({ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("kill -KILL $$") }),
        run({ QStringLiteral("--"), QStringLiteral("/no/such/program") }),
        run({ QStringLiteral("--"), QString(), QStringLiteral("x") }),
        run({ QStringLiteral("--policy"), QStringLiteral("policy.json"), QStringLiteral("--"), QStringLiteral("sh"),
              QStringLiteral("-c"), QStringLiteral("touch inside && ls inside && touch /usr/outside") }),
        run({ QStringLiteral("--policy=wrong.json"), QStringLiteral("--"), QStringLiteral("true") }),
        run({ QStringLiteral("--policy"), QStringLiteral("missing.json"), QStringLiteral("--"),
              QStringLiteral("true") }),
        run({ QStringLiteral("--timeout"), QStringLiteral("0.5"), QStringLiteral("--"), QStringLiteral("sleep"),
              QStringLiteral("30") }),
        run({ QStringLiteral("--timeout=99999999"), QStringLiteral("--"), QStringLiteral("true") }),
        run({ QStringLiteral("--timeout"), QStringLiteral("soon"), QStringLiteral("--"), QStringLiteral("true") }),
        run({ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("echo \"$TERM $LANG\"") }),
        run({}),
        run({ QStringLiteral("--bogus"), QStringLiteral("--"), QStringLiteral("true") }),
    };
    for (const QStringList &command : script) {
        const QString what = command.join(QLatin1Char(' '));
        const QStringList args = QStringList{ QStringLiteral("--socket"), m_socket } + command;
        const QString work = m_root->filePath(QStringLiteral("work"));
        QFile::remove(m_root->filePath(QStringLiteral("work/inside")));
        const Outcome front = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), args, work,
                                                        "piped input\n", 60000, environment(QStringLiteral("d")));
        QFile::remove(m_root->filePath(QStringLiteral("work/inside")));
        const Outcome full = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl-full")), args, work,
                                                       "piped input\n", 60000, environment(QStringLiteral("d")));
        QVERIFY2(front.exitCode == full.exitCode,
                 qPrintable(what + QStringLiteral(": %1 vs %2").arg(front.exitCode).arg(full.exitCode)));
        QVERIFY2(front.out == full.out, qPrintable(what + QStringLiteral(": stdout differs")));
        QVERIFY2(front.err == full.err,
                 qPrintable(what + QStringLiteral(":\n") + QString::fromUtf8(front.err) + QStringLiteral("\nvs\n")
                            + QString::fromUtf8(full.err)));
    }
    // Without a terminal, a question the engine asks during the run is refused and named by
    // a key that stays the same from run to run, and the command that ran gives its status.
    QFile askPolicy(m_root->filePath(QStringLiteral("work/ask.json")));
    QVERIFY(askPolicy.open(QIODevice::WriteOnly));
    askPolicy.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}"],"denied":[],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"ask"})");
    askPolicy.close();
    const auto asking = [](const QString &socket, const QStringList &answers) {
        return QStringList{ QStringLiteral("--socket"), socket } + answers
            + QStringList{ QStringLiteral("run"),
                           QStringLiteral("--policy"),
                           QStringLiteral("ask.json"),
                           QStringLiteral("--"),
                           QStringLiteral("sh"),
                           QStringLiteral("-c"),
                           QStringLiteral("echo \"bus ${DBUS_SESSION_BUS_ADDRESS:-none}\"") };
    };
    const Outcome frontAsked = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), asking(m_socket, {}),
                                                         m_root->filePath(QStringLiteral("work")), {}, 60000,
                                                         environment(QStringLiteral("d")));
    const Outcome fullAsked = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl-full")), asking(m_socket, {}),
                                                        m_root->filePath(QStringLiteral("work")), {}, 60000,
                                                        environment(QStringLiteral("d")));
    QCOMPARE(frontAsked.exitCode, 0);
    QCOMPARE(fullAsked.exitCode, 0);
    QCOMPARE(frontAsked.out, QByteArray("bus none\n"));
    QCOMPARE(frontAsked.out, fullAsked.out);
    QCOMPARE(frontAsked.err, fullAsked.err);
    QVERIFY2(frontAsked.err.startsWith("sandboxctl: the engine asks \"Allow host execution?\" (confirm, answer key "
                                       "host-execution): "),
             frontAsked.err.constData());
    QVERIFY2(frontAsked.err.endsWith("To answer, run again with --answer host-execution=VALUE\n"),
             frontAsked.err.constData());
    // The key it named answers it on the next run, either way. Host execution hands the
    // engine's session bus address to the command, so the command shows the answer; an
    // engine this run hosts has the run's environment.
    QProcessEnvironment embedded = environment(QStringLiteral("e"));
    embedded.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/test-bus"));
    const QString noOwner = m_root->filePath(QStringLiteral("e/engine.sock"));
    for (const auto &[answer, bus] :
         { std::pair{ "yes", "bus unix:path=/test-bus\n" }, std::pair{ "no", "bus none\n" } }) {
        const Outcome answered = sandbox::test::runProgram(
            binary(QStringLiteral("sandboxctl")),
            asking(noOwner, { QStringLiteral("--answer"), QStringLiteral("host-execution=") + QLatin1String(answer) }),
            m_root->filePath(QStringLiteral("work")), {}, 60000, embedded);
        QVERIFY2(answered.exitCode == 0, answered.err.constData());
        QCOMPARE(answered.out, QByteArray(bus));
        QCOMPARE(answered.err, QByteArray());
    }

    // And each says what the user expects.
    const Outcome piped = ctl(script[0], "piped input\n");
    QCOMPARE(piped.exitCode, 7);
    QCOMPARE(piped.out, QByteArray("piped input\n"));
    QCOMPARE(piped.err, QByteArray("to-stderr\n"));
    QCOMPARE(ctl(script[1]).out.size(), 3000000);
    QCOMPARE(ctl(script[2]).out, QByteArray("\xff\0\n", 3));
    QCOMPARE(ctl(script[3]).exitCode, 128 + SIGKILL);
    const Outcome confined = ctl(script[6]);
    QVERIFY2(confined.exitCode != 0 && confined.out == "inside\n", confined.err.constData());
    QVERIFY(!QFile::exists(QStringLiteral("/usr/outside")));
    const Outcome wrong = ctl(script[7]);
    QCOMPARE(wrong.exitCode, 125);
    QVERIFY2(wrong.err.startsWith("sandboxctl: wrong.json"), wrong.err.constData());
    QCOMPARE(ctl(script[9]).err, QByteArray("sandboxctl: sleep timed out after 0.5 s and was killed\n"));
}

// Ctrl-C or TERM to the sandboxctl that runs a command ends the command in the engine, and
// sandboxctl reports its status, with the run front as with the full program.
void TestDaemon::theEngineFilesStayReadOnlyWhereAWritablePathReachesThem()
{
    // A policy whose writable path holds the engine's own configuration and state (as a
    // workspace that is the home directory does): a command tries to loosen the policy for
    // the commands after it, plant a pack, and replace what the engine keeps, through the
    // daemon ("d") and with the engine embedded ("e", twice: the second run may be served
    // from a recorded plan).
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);
    const QString work = m_root->filePath(QStringLiteral("work"));
    QFile policyFile(work + QStringLiteral("/wide.json"));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(QStringLiteral(R"({"filesystem":{"readable":["/"],"writable":["%1","/tmp"],"denied":[],
        "readOnly":[]},"confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],
        "deniedDomains":[]},"hostExecution":"deny"})")
                         .arg(m_root->path())
                         .toUtf8());
    policyFile.close();
    for (const QString &profile : { QStringLiteral("d"), QStringLiteral("e"), QStringLiteral("e") }) {
        const QString config = m_root->filePath(profile + QStringLiteral("/config"));
        const QString state = m_root->filePath(profile + QStringLiteral("/state"));
        QVERIFY(QDir().mkpath(config) && QDir().mkpath(state));
        // The embedded engine's runtime directory (its socket's) is owner-only.
        QVERIFY(QFile::setPermissions(m_root->filePath(profile),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        QCOMPARE(
            ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("wide.json") }, {}, profile).exitCode,
            0);
        QFile stored(config + QStringLiteral("/policy.json"));
        QVERIFY(stored.open(QIODevice::ReadOnly));
        const QByteArray before = stored.readAll();
        QVERIFY(!before.isEmpty());
        stored.close();
        const QString script
            = QStringLiteral("for attempt in 'echo {} > \"$1/policy.json\"' 'mkdir -p \"$1/packs/planted\"' "
                             "'echo x > \"$2/planted\"' 'mv \"$2\" \"$2.moved\"' 'rm -rf \"$1\"'; do "
                             "if sh -c \"$attempt\" sh \"$1\" \"$2\" 2>/dev/null; then echo \"DONE $attempt\"; fi; "
                             "done; echo finished");
        const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), QStringLiteral("wide.json"),
                                  QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                                  QStringLiteral("sh"), config, state },
                                {}, profile);
        QVERIFY2(ran.exitCode == 0 && ran.out.contains("finished"), QByteArray(ran.out + ran.err).constData());
        QVERIFY2(!ran.out.contains("DONE"), ran.out.constData());
        QFile after(config + QStringLiteral("/policy.json"));
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
        QVERIFY(!QFileInfo::exists(config + QStringLiteral("/packs/planted")));
        QVERIFY(!QFileInfo::exists(state + QStringLiteral("/planted")));
        QVERIFY(QFileInfo(state).isDir() && !QFileInfo::exists(state + QStringLiteral(".moved")));
        // What the policy grants beside them still works (in work/: the root itself gets no new
        // entries directly, as it holds a denied path, the engine's recorded plans).
        const Outcome wrote
            = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), QStringLiteral("wide.json"),
                    QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                    QStringLiteral("echo ok > \"$1/beside\" && cat \"$1/beside\""), QStringLiteral("sh"), work },
                  {}, profile);
        QVERIFY2(wrote.out == "ok\n", QByteArray(wrote.out + wrote.err).constData());
    }
}

void TestDaemon::signalToRunFrontEndsTheCommand()
{
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);
    // The engine's table keeps ended processes; these are the ones still running.
    const auto running = [this] {
        QJsonArray live;
        const QJsonArray all = processes();
        for (const QJsonValue &process : all) {
            if (process.toObject().value(QStringLiteral("state")).toString() == QLatin1String("running"))
                live.append(process);
        }
        return live;
    };
    int statuses[2] = { -1, -1 };
    int index = 0;
    for (const QString &program : { QStringLiteral("sandboxctl"), QStringLiteral("sandboxctl-full") }) {
        QProcess client;
        client.setProcessEnvironment(environment(QStringLiteral("d")));
        client.setWorkingDirectory(m_root->filePath(QStringLiteral("work")));
        client.start(binary(program),
                     { QStringLiteral("--socket"), m_socket, QStringLiteral("run"), QStringLiteral("--"),
                       QStringLiteral("sleep"), QStringLiteral("300") });
        QVERIFY(client.waitForStarted());
        QJsonArray list;
        QTRY_VERIFY_WITH_TIMEOUT((list = running()).size() == 1 && everyPidKnown(list), 30000);
        const qint64 pid = list.first().toObject().value(QStringLiteral("pid")).toInteger();
        QVERIFY(pidAlive(pid));
        ::kill(pid_t(client.processId()), SIGINT);
        QVERIFY(client.waitForFinished(30000));
        QCOMPARE(client.exitStatus(), QProcess::NormalExit);
        statuses[index++] = client.exitCode();
        QTRY_VERIFY_WITH_TIMEOUT(running().isEmpty(), 30000);
        QVERIFY(!pidAlive(pid));
    }
    QCOMPARE(statuses[0], statuses[1]);
    // sleep died of the SIGINT passed on to it.
    QCOMPARE(statuses[0], 128 + SIGINT);
}

// Ctrl-C reaches the command, which may handle it and go on; a second Ctrl-C kills it. The
// same through a running engine (the run front and the full program) and an embedded one.
void TestDaemon::ctrlCGoesOnToTheCommandAndASecondKills()
{
    startDaemon();
    const QString work = m_root->filePath(QStringLiteral("work"));
    const QStringList daemonRun{ QStringLiteral("--socket"), m_socket, QStringLiteral("run") };
    const QStringList embeddedRun{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("e/engine.sock")),
                                   QStringLiteral("run") };
    const struct
    {
        const char *program;
        QStringList args;
        QString profile;
    } paths[] = { { "sandboxctl", daemonRun, QStringLiteral("d") },
                  { "sandboxctl-full", daemonRun, QStringLiteral("d") },
                  { "sandboxctl", embeddedRun, QStringLiteral("e") } };
    for (const auto &path : paths) {
        const sandbox::test::InterruptedRuns runs = sandbox::test::interruptRuns(
            binary(QLatin1String(path.program)), path.args, work, environment(path.profile));
        const QByteArray what = QByteArray(path.program) + ' ' + path.args.join(QLatin1Char(' ')).toUtf8() + ": ";
        QVERIFY2(runs.handled.out == "ready\ngot-int\n",
                 QByteArray(what + runs.handled.out + runs.handled.err).constData());
        QVERIFY2(runs.handled.exitCode == 128 + SIGKILL, QByteArray(what + runs.handled.err).constData());
        QVERIFY2(runs.plain.out == "ready\n", QByteArray(what + runs.plain.out + runs.plain.err).constData());
        QVERIFY2(runs.plain.exitCode == 128 + SIGINT, QByteArray(what + runs.plain.err).constData());
        QCOMPARE(runs.plain.err, QByteArray());
    }
}

// Rows for a test that runs a command both ways sandboxctl can: the run front and the full
// program.
void TestDaemon::programRows()
{
    QTest::addColumn<QString>("program");
    QTest::newRow("run front") << QStringLiteral("sandboxctl");
    QTest::newRow("full program") << QStringLiteral("sandboxctl-full");
}

void TestDaemon::terminateEndsRunningProcesses_data()
{
    programRows();
}

void TestDaemon::terminateEndsRunningProcesses()
{
    QFETCH(QString, program);
    startDaemon();
    auto client = startCtl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("300") }, program);
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = processes()).size() == 1 && everyPidKnown(list), 30000);
    const qint64 pid = list.first().toObject().value(QStringLiteral("pid")).toInteger();
    QVERIFY(pidAlive(pid));
    m_daemon->terminate();
    QVERIFY(m_daemon->waitForFinished(30000));
    QCOMPARE(m_daemon->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_daemon->exitCode(), 0);
    QVERIFY(!pidAlive(pid));
    // The client says why its command ended: the engine stopped.
    QTRY_VERIFY_WITH_TIMEOUT(client->state() == QProcess::NotRunning, 30000);
    const QByteArray said = client->readAllStandardError();
    QVERIFY2(client->exitCode() != 0, said.constData());
    QVERIFY2(said.contains("the engine stopped (the program hosting it quit) and ended sleep"), said.constData());
    QVERIFY(!QFile::exists(m_socket));
    // The selection survived the shutdown: a new owner restores it.
    QVERIFY(QDir(m_root->filePath(QStringLiteral("d/config"))).exists());
    const Outcome after = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(after.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(after.out).object().value(QStringLiteral("active")),
             QJsonValue(QStringLiteral("builtin:auto")));
}

void TestDaemon::secretSetThroughStdinNeverLeaks()
{
    startDaemon();
    const QByteArray secret = "s3cr3t-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    const QString keyed = QStringLiteral("atom-pack:test-secrets:keyed");
    QList<Outcome> outcomes;
    auto run = [&](const QStringList &args, const QByteArray &input = {}) {
        outcomes.append(ctl(args, input));
        return outcomes.constLast();
    };

    QCOMPARE(run({ QStringLiteral("settings"), QStringLiteral("get"), keyed }).out,
             QByteArray("region = us-east\napiKey = (secret, not configured)\n"));
    // Without the key the backend cannot activate; nothing changes.
    QCOMPARE(run({ QStringLiteral("activate"), keyed }).exitCode, 1);

    const Outcome set
        = run({ QStringLiteral("secret"), QStringLiteral("set"), keyed, QStringLiteral("apiKey") }, secret + '\n');
    QCOMPARE(set.exitCode, 0);
    QCOMPARE(set.out, QByteArray("saved settings of atom-pack:test-secrets:keyed\n"));
    const Outcome view = run({ QStringLiteral("settings"), QStringLiteral("get"), keyed, QStringLiteral("--json") });
    const QJsonObject secrets = QJsonDocument::fromJson(view.out).object().value(QStringLiteral("secrets")).toObject();
    QCOMPARE(secrets.value(QStringLiteral("apiKey")).toObject().value(QStringLiteral("configured")).toBool(), true);

    // The engine resolved it for the launcher: the activation that failed now succeeds.
    const Outcome activated = run({ QStringLiteral("activate"), keyed });
    QCOMPARE(activated.exitCode, 0);
    QVERIFY(activated.out.contains("resolve-secrets  succeeded"));
    // An empty secret is "no change", and says so.
    const Outcome empty
        = run({ QStringLiteral("secret"), QStringLiteral("set"), keyed, QStringLiteral("apiKey") }, "\n");
    QCOMPARE(empty.exitCode, 1);
    QVERIFY(empty.err.contains("empty secret: nothing changed"));
    for (const QStringList &args :
         QList<QStringList>{ { QStringLiteral("backends"), QStringLiteral("--json") },
                             { QStringLiteral("describe"), keyed, QStringLiteral("--json") },
                             { QStringLiteral("settings"), QStringLiteral("get"), keyed },
                             { QStringLiteral("status"), QStringLiteral("--json") },
                             { QStringLiteral("ps"), QStringLiteral("--json") },
                             { QStringLiteral("packs"), QStringLiteral("list"), QStringLiteral("--json") } })
        QCOMPARE(run(args).exitCode, 0);

    m_daemon->terminate();
    QVERIFY(m_daemon->waitForFinished(30000));
    m_daemonLog += m_daemon->readAllStandardError();

    for (const Outcome &o : std::as_const(outcomes)) {
        QVERIFY2(!o.out.contains(secret), o.out.constData());
        QVERIFY2(!o.err.contains(secret), o.err.constData());
    }
    QVERIFY(!m_daemonLog.isEmpty());
    QVERIFY2(!m_daemonLog.contains(secret), m_daemonLog.constData());
    int files = 0;
    for (const QString &dir : { QStringLiteral("d/config"), QStringLiteral("d/state"), QStringLiteral("run") }) {
        QDirIterator it(m_root->filePath(dir), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains(secret), qPrintable(file.fileName()));
            ++files;
        }
    }
    QVERIFY2(files > 0, "the engine wrote no settings at all");

    // Removing it is explicit, and the backend reads as not configured again.
    startDaemon();
    QCOMPARE(ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }).exitCode, 0);
    QCOMPARE(ctl({ QStringLiteral("secret"), QStringLiteral("remove"), keyed, QStringLiteral("apiKey") }).exitCode, 0);
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("get"), keyed }).out,
             QByteArray("region = us-east\napiKey = (secret, not configured)\n"));
}

void TestDaemon::hostInteractionWithoutTerminalNamesTheQuestion()
{
    startDaemon();
    const QString asking = QStringLiteral("atom-pack:test-secrets:asking");
    const Outcome refused = ctl({ QStringLiteral("activate"), asking });
    // Its own status: the activation failed for want of an answer.
    QCOMPARE(refused.exitCode, 3);
    QVERIFY2(refused.err.contains("the engine asks \"Set up the asking backend?\" (confirm, answer key confirm-setup)"),
             refused.err.constData());
    QVERIFY(refused.err.contains("--answer confirm-setup=VALUE"));
    QVERIFY(refused.err.contains("the active backend is still builtin:auto"));

    const Outcome answered
        = ctl({ QStringLiteral("--answer"), QStringLiteral("confirm-setup=yes"), QStringLiteral("activate"), asking });
    QCOMPARE(answered.exitCode, 0);
    QVERIFY(answered.out.endsWith("activated atom-pack:test-secrets:asking\n"));
    const Outcome status = ctl({ QStringLiteral("status") });
    QVERIFY(status.out.contains("active backend:  atom-pack:test-secrets:asking"));
}

void TestDaemon::runningCommandLeavesOtherClientsQuestionsAlone_data()
{
    programRows();
}

// A sandboxctl run whose command is running neither prompts for nor refuses a question
// another client's work asks (here an activation that answers its own question).
void TestDaemon::runningCommandLeavesOtherClientsQuestionsAlone()
{
    QFETCH(QString, program);
    startDaemon();
    auto running = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo started; sleep 20; echo done") },
                            program);
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    const Outcome answered = ctl({ QStringLiteral("--answer"), QStringLiteral("confirm-setup=yes"),
                                   QStringLiteral("activate"), QStringLiteral("atom-pack:test-secrets:asking") });
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    const QByteArray said = running->readAllStandardError();
    QVERIFY2(!said.contains("Set up the asking backend?"), said.constData());
    running->kill();
    running->waitForFinished(10000);
}

// A whole number is printed in full and reads back as the same number; a backend is named
// in --json as on the command line.
void TestDaemon::printedValuesReadBackAsTheCommandLineTakesThem()
{
    startDaemon();
    const QString vm = QStringLiteral("builtin:vm");
    const Outcome described = ctl({ QStringLiteral("describe"), vm });
    QVERIFY2(described.out.contains("[default 4294967296]"), described.out.constData());
    const Outcome describedJson = ctl({ QStringLiteral("describe"), vm, QStringLiteral("--json") });
    QVERIFY2(describedJson.out.contains("\"defaultValue\": 4294967296"), describedJson.out.constData());

    for (const QByteArray &bytes : { QByteArray("8589934593"), QByteArray("1000000000000000") }) {
        QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), vm,
                       QStringLiteral("baselineMaxBytes=") + QString::fromLatin1(bytes) })
                     .exitCode,
                 0);
        const Outcome got = ctl({ QStringLiteral("settings"), QStringLiteral("get"), vm });
        QVERIFY2(got.out.contains(QByteArray("baselineMaxBytes = " + bytes + "\n")), got.out.constData());
        const Outcome gotJson
            = ctl({ QStringLiteral("settings"), QStringLiteral("get"), vm, QStringLiteral("--json") });
        QVERIFY2(gotJson.out.contains(QByteArray("\"baselineMaxBytes\": " + bytes + "\n"))
                     || gotJson.out.contains(QByteArray("\"baselineMaxBytes\": " + bytes + ",")),
                 gotJson.out.constData());
        // What was printed, given back, changes nothing.
        const qsizetype at = got.out.indexOf("baselineMaxBytes = ") + qsizetype(qstrlen("baselineMaxBytes = "));
        const QByteArray printed = got.out.mid(at, got.out.indexOf('\n', at) - at);
        QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), vm,
                       QStringLiteral("baselineMaxBytes=") + QString::fromLatin1(printed) })
                     .exitCode,
                 0);
        QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("get"), vm }).out, got.out);
    }
    // A byte size is taken with its unit, joined or spaced, as the TUI takes it (FieldSpec::parseText).
    for (const auto &[typed, bytes] : { std::pair{ "2GiB", "2147483648" }, std::pair{ "512 MiB", "536870912" } }) {
        const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), vm,
                                  QStringLiteral("baselineMaxBytes=") + QString::fromLatin1(typed) });
        QVERIFY2(set.exitCode == 0, set.err.constData());
        const Outcome got = ctl({ QStringLiteral("settings"), QStringLiteral("get"), vm });
        QVERIFY2(got.out.contains(QByteArray(QByteArray("baselineMaxBytes = ") + bytes + '\n')), got.out.constData());
    }
    const Outcome unknownUnit
        = ctl({ QStringLiteral("settings"), QStringLiteral("set"), vm, QStringLiteral("baselineMaxBytes=4PiB") });
    QVERIFY(unknownUnit.exitCode != 0);
    QVERIFY2(unknownUnit.err.contains("builtin:vm.baselineMaxBytes")
                 && unknownUnit.err.contains("a size such as 4GiB or 512 MiB"),
             unknownUnit.err.constData());

    const QJsonArray backends
        = QJsonDocument::fromJson(ctl({ QStringLiteral("backends"), QStringLiteral("--json") }).out).array();
    QVERIFY(!backends.isEmpty());
    QStringList refs;
    for (const QJsonValue &backend : backends)
        refs.append(backend.toObject().value(QStringLiteral("ref")).toString());
    QVERIFY2(refs.contains(QStringLiteral("builtin:auto")), qPrintable(refs.join(QLatin1Char(' '))));
    QVERIFY2(refs.contains(QStringLiteral("atom-pack:test-secrets:keyed")), qPrintable(refs.join(QLatin1Char(' '))));
    const QJsonObject status
        = QJsonDocument::fromJson(ctl({ QStringLiteral("status"), QStringLiteral("--json") }).out).object();
    QCOMPARE(status.value(QStringLiteral("active")).toString(), QStringLiteral("builtin:auto"));
    // Each printed reference is one the command line takes.
    const Outcome described2 = ctl({ QStringLiteral("describe"), refs.last() });
    QCOMPARE(described2.exitCode, 0);
}

// A policy file that is wrong in a field is named with the field.
void TestDaemon::policyFieldErrorsNameTheFile()
{
    startDaemon();
    const QByteArray before = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out;
    QFile file(m_root->filePath(QStringLiteral("work/loose.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"filesystem":{"readable":["/"],"writable":["${workspace}"],"denied":[],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"sometimes","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"deny"})");
    file.close();
    const Outcome refused = ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("loose.json") });
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.startsWith("sandboxctl: loose.json: policy.network.mode: "), refused.err.constData());
    QCOMPARE(ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out, before);
}

namespace {

QByteArray pidNamespaceOf(const QByteArray &procPath)
{
    char target[256] = {};
    const ssize_t length = ::readlink(procPath.constData(), target, sizeof target - 1);
    return length > 0 ? QByteArray(target, int(length)) : QByteArray();
}

QByteArray nextLine(QProcess &process)
{
    QByteArray line;
    [[maybe_unused]] const bool done = QTest::qWaitFor(
        [&] {
            if (process.canReadLine()) {
                line = process.readLine().trimmed();
                return true;
            }
            return process.state() == QProcess::NotRunning;
        },
        30000);
    return line;
}

} // namespace

void TestDaemon::hotSwitchKeepsEachCommandInTheTierThatStartedIt()
{
    // The real auto launcher, switched from tier 1 to tier 2 while a command runs. Each
    // command says which pid namespace it is in, before and after the switch; tier 1 gives
    // it its own, tier 2 (no namespaces) leaves it in the host's.
    startDaemon();
    const QByteArray host = pidNamespaceOf("/proc/self/ns/pid");
    QVERIFY(!host.isEmpty());
    const QStringList reporter{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                QStringLiteral("readlink /proc/self/ns/pid; read x; readlink /proc/self/ns/pid") };
    QVERIFY(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                  QStringLiteral("tier=strongest") })
                .exitCode
            == 0);
    auto first = startCtl(reporter);
    const QByteArray firstBefore = nextLine(*first);
    QVERIFY2(firstBefore.startsWith("pid:["), firstBefore.constData());
    QVERIFY(firstBefore != host);

    const Outcome switched = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                                   QStringLiteral("tier=landlock-seccomp") });
    QVERIFY2(switched.exitCode == 0, switched.err.constData());
    auto second = startCtl(reporter);
    const QByteArray secondBefore = nextLine(*second);
    QCOMPARE(secondBefore, host);

    // Both run, both served by auto.
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = processes()).size() == 2, 30000);
    for (const QJsonValue &p : std::as_const(list)) {
        QCOMPARE(p.toObject().value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QCOMPARE(p.toObject().value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1),
                 QStringLiteral("auto"));
    }

    // After the switch the first command is still in its own namespace: tier 1. The
    // second ends first: an embedding owner ends every command it serves when it exits.
    second->write("go\n");
    second->closeWriteChannel();
    QCOMPARE(nextLine(*second), host);
    QTRY_VERIFY_WITH_TIMEOUT(second->state() == QProcess::NotRunning, 30000);
    QCOMPARE(second->exitCode(), 0);
    first->write("go\n");
    first->closeWriteChannel();
    QCOMPARE(nextLine(*first), firstBefore);
    QTRY_VERIFY_WITH_TIMEOUT(first->state() == QProcess::NotRunning, 30000);
    QCOMPARE(first->exitCode(), 0);
}

void TestDaemon::simultaneousStartsMakeExactlyOneOwner()
{
    std::vector<std::unique_ptr<QProcess>> daemons;
    for (int i = 0; i < 4; ++i) {
        auto d = std::make_unique<QProcess>();
        d->setProcessEnvironment(environment(QStringLiteral("d")));
        d->start(binary(QStringLiteral("sandboxd")), { QStringLiteral("--socket"), m_socket });
        daemons.push_back(std::move(d));
    }
    // Three give way (exit 0, saying who owns the engine); one serves.
    int exited = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        (exited = int(std::count_if(daemons.begin(), daemons.end(),
                                    [](const auto &d) { return d->state() == QProcess::NotRunning; })))
            == 3,
        30000);
    qint64 owner = 0;
    for (const auto &d : daemons) {
        if (d->state() == QProcess::NotRunning) {
            QCOMPARE(d->exitCode(), 0);
            QVERIFY(d->readAllStandardError().contains("already running for this user"));
        } else {
            owner = d->processId();
        }
    }
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(serverPid(status), owner);
    for (const auto &d : daemons) {
        if (d->state() != QProcess::NotRunning) {
            d->terminate();
            QVERIFY(d->waitForFinished(30000));
        }
    }
}

void TestDaemon::staleSocketOfADeadOwnerIsReplaced()
{
    startDaemon();
    killHard(*m_daemon);
    QVERIFY(m_daemon->waitForFinished());
    QVERIFY2(QFile::exists(m_socket), "SIGKILL leaves the socket file behind");

    // Nobody owns the engine now: sandboxctl embeds one rather than failing on the dead socket...
    const Outcome embedded = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(embedded.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(embedded.out).object().value(QStringLiteral("embedded")).toBool(), true);
    // ...and a new daemon takes the socket over.
    startDaemon();
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QCOMPARE(serverPid(status), m_daemon->processId());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(m_socket).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0600));
    QCOMPARE(::stat(QFile::encodeName(QFileInfo(m_socket).absolutePath()).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0700));
}

namespace {

// sandboxctl on a pseudo-terminal, as a person at a shell runs it: what it shows, and
// our typing, which goes in only once the expected prompt is on the screen.
class TerminalSession
{
public:
    TerminalSession(const QString &program, const QStringList &args, const QProcessEnvironment &env, const QString &cwd)
    {
        QList<QByteArray> argv{ QFile::encodeName(program) };
        for (const QString &a : args)
            argv.append(a.toLocal8Bit());
        QList<QByteArray> envv;
        for (const QString &e : env.toStringList())
            envv.append(e.toLocal8Bit());
        const QByteArray dir = QFile::encodeName(cwd);
        m_pid = ::forkpty(&m_master, nullptr, nullptr, nullptr);
        if (m_pid == 0) {
            std::vector<char *> a, e;
            for (QByteArray &x : argv)
                a.push_back(x.data());
            a.push_back(nullptr);
            for (QByteArray &x : envv)
                e.push_back(x.data());
            e.push_back(nullptr);
            if (::chdir(dir.constData()) == 0)
                ::execve(a[0], a.data(), e.data());
            ::_exit(127);
        }
    }

    ~TerminalSession()
    {
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_master >= 0)
            ::close(m_master);
    }

    // Reads the screen until `text` appears (true) or the program ends (false).
    bool waitFor(const QByteArray &text, int timeoutMs = 30000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!m_screen.contains(text)) {
            pollfd p{ m_master, POLLIN, 0 };
            if (deadline.hasExpired() || ::poll(&p, 1, 100) < 0)
                return false;
            if (p.revents & (POLLIN | POLLHUP)) {
                char buffer[4096];
                const ssize_t n = ::read(m_master, buffer, sizeof buffer);
                if (n <= 0)
                    return m_screen.contains(text);
                m_screen.append(buffer, n);
            }
        }
        return true;
    }

    void type(const QByteArray &text)
    {
        [[maybe_unused]] const ssize_t n = ::write(m_master, text.constData(), size_t(text.size()));
    }

    // The exit status, or -2 when it has not ended within 30 s (then it is killed).
    int finish()
    {
        QDeadlineTimer deadline(30000);
        int status = 0;
        while (::waitpid(m_pid, &status, WNOHANG) == 0) {
            if (deadline.hasExpired()) {
                ::kill(m_pid, SIGKILL);
                ::waitpid(m_pid, &status, 0);
                m_reaped = true;
                return -2;
            }
            waitFor(QByteArray("\x01 never printed"), 100);
        }
        m_reaped = true;
        waitFor(QByteArray("\x01 never printed"), 100);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    QByteArray screen() const { return m_screen; }

private:
    int m_master = -1;
    pid_t m_pid = -1;
    bool m_reaped = false;
    QByteArray m_screen;
};

} // namespace

void TestDaemon::terminalPromptsAndSecretsWithoutEcho()
{
    startDaemon();
    const QString cwd = m_root->filePath(QStringLiteral("work"));
    {
        TerminalSession t(binary(QStringLiteral("sandboxctl")),
                          { QStringLiteral("--socket"), m_socket, QStringLiteral("activate"),
                            QStringLiteral("atom-pack:test-secrets:asking") },
                          environment(QStringLiteral("d")), cwd);
        QVERIFY2(t.waitFor("Continue? [y/N] "), t.screen().constData());
        QVERIFY(t.screen().contains("Set up the asking backend?"));
        t.type("y\n");
        const int status = t.finish();
        QVERIFY2(status == 0, t.screen().constData());
        QVERIFY2(t.screen().contains("activated atom-pack:test-secrets:asking"), t.screen().constData());
        // The terminal echoes ordinary answers, so a secret's absence below means something.
        QVERIFY(t.screen().contains("Continue? [y/N] y\r\n"));
    }
    {
        const QByteArray secret = "typed-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
        TerminalSession t(binary(QStringLiteral("sandboxctl")),
                          { QStringLiteral("--socket"), m_socket, QStringLiteral("secret"), QStringLiteral("set"),
                            QStringLiteral("atom-pack:test-secrets:keyed"), QStringLiteral("apiKey") },
                          environment(QStringLiteral("d")), cwd);
        QVERIFY2(t.waitFor("(not shown): "), t.screen().constData());
        t.type(secret + '\n');
        const int status = t.finish();
        QVERIFY2(status == 0, t.screen().constData());
        QVERIFY2(t.screen().contains("saved settings of atom-pack:test-secrets:keyed"), t.screen().constData());
        QVERIFY2(!t.screen().contains(secret), "the secret was echoed on the terminal");
    }
    const Outcome view
        = ctl({ QStringLiteral("settings"), QStringLiteral("get"), QStringLiteral("atom-pack:test-secrets:keyed") });
    QVERIFY(view.out.contains("apiKey = (secret, configured)"));
}

namespace {

// The refusals of `kind` among JSON lines (`events --follow --json`) or a JSON array.
QList<QJsonObject> refusalsOf(const QByteArray &output, const QString &kind)
{
    QList<QJsonObject> found;
    QJsonArray all;
    if (const QJsonDocument document = QJsonDocument::fromJson(output); document.isArray()) {
        all = document.array();
    } else {
        for (const QByteArray &line : output.split('\n')) {
            if (!line.trimmed().isEmpty())
                all.append(QJsonDocument::fromJson(line).object());
        }
    }
    for (const QJsonValue &value : std::as_const(all)) {
        if (value.toObject().value(QStringLiteral("kind")).toString() == kind)
            found.append(value.toObject());
    }
    return found;
}

} // namespace

void TestDaemon::proxyRefusalsAreFollowedAsEvents()
{
    // A local HTTP server the policy names, reached through the engine's filtering proxy;
    // a second loopback address the policy does not name is refused there.
    QTcpServer upstream;
    QVERIFY(upstream.listen(QHostAddress::LocalHost));
    connect(&upstream, &QTcpServer::newConnection, &upstream, [&upstream] {
        while (QTcpSocket *socket = upstream.nextPendingConnection()) {
            auto request = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, socket, [socket, request] {
                *request += socket->readAll();
                if (!request->contains("\r\n\r\n"))
                    return;
                socket->write("HTTP/1.0 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nupstream");
                socket->disconnectFromHost();
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
    const QString port = QString::number(upstream.serverPort());
    startDaemon();
    const QString policy = policyWithNetwork(
        QStringLiteral("allow-local.json"),
        QJsonObject{ { QStringLiteral("mode"), QStringLiteral("allowlist") },
                     { QStringLiteral("allowedDomains"), QJsonArray{ QString(QStringLiteral("127.0.0.1:") + port) } },
                     { QStringLiteral("deniedDomains"), QJsonArray{} } });
    QVERIFY(!policy.isEmpty());

    auto follower = startCtl({ QStringLiteral("events"), QStringLiteral("--follow"), QStringLiteral("--json") });
    QByteArray followed;
    connect(follower.get(), &QProcess::readyReadStandardOutput, follower.get(),
            [&] { followed += follower->readAllStandardOutput(); });
    auto run = startCtl({ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                          QStringLiteral("sh"), QStringLiteral("-c"),
                          QStringLiteral("curl -sS --max-time 20 http://127.0.0.1:%1/ok; echo; "
                                         "curl -sS --max-time 20 http://127.0.0.2:%1/refused")
                              .arg(port) });
    QTRY_VERIFY_WITH_TIMEOUT(run->state() == QProcess::NotRunning, 60000);
    const QByteArray out = run->readAllStandardOutput();
    QVERIFY2(out.contains("upstream"), out.constData());
    QVERIFY2(out.contains("sandbox proxy:"), out.constData());

    // The follower sees the one refusal as it happens, tied to the command and its backend.
    QTRY_VERIFY_WITH_TIMEOUT(!refusalsOf(followed, QStringLiteral("network")).isEmpty(), 30000);
    const QList<QJsonObject> seen = refusalsOf(followed, QStringLiteral("network"));
    QCOMPARE(seen.size(), 1);
    const QJsonObject refusal = seen.constFirst();
    QCOMPARE(refusal.value(QStringLiteral("what")).toString(), QStringLiteral("127.0.0.2:") + port);
    QVERIFY2(refusal.value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("network: 127.0.0.2:")),
             qPrintable(refusal.value(QStringLiteral("rule")).toString()));
    QVERIFY(refusal.value(QStringLiteral("processId")).toInteger() > 0);
    QVERIFY2(refusal.value(QStringLiteral("command")).toString().startsWith(QStringLiteral("sh -c 'curl")),
             qPrintable(refusal.value(QStringLiteral("command")).toString()));
    QCOMPARE(refusal.value(QStringLiteral("ref")).toString(), QStringLiteral("builtin:auto"));
    QVERIFY(!refusal.value(QStringLiteral("backendName")).toString().isEmpty());

    // The recent history has it too, as JSON and as text.
    const Outcome listed = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(listed.exitCode, 0);
    const QList<QJsonObject> recent = refusalsOf(listed.out, QStringLiteral("network"));
    QCOMPARE(recent.size(), 1);
    QCOMPARE(recent.constFirst(), refusal);
    const Outcome text = ctl({ QStringLiteral("events") });
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains(QByteArray(QByteArray("127.0.0.2:") + port.toUtf8())), text.out.constData());
    QVERIFY2(text.out.contains("RULE"), text.out.constData());

    follower->terminate();
    QTRY_VERIFY_WITH_TIMEOUT(follower->state() == QProcess::NotRunning, 30000);
    QCOMPARE(follower->exitCode(), 0);
}

void TestDaemon::confinementRefusalIsAnEvent()
{
    startDaemon();
    const Outcome none = ctl({ QStringLiteral("events") });
    QCOMPARE(none.exitCode, 0);
    QVERIFY2(none.out.contains("No refusals yet."), none.out.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), QStringLiteral("atom-pack:test-secrets:partial") });
    QVERIFY2(activated.exitCode == 0, activated.err.constData());
    const QString policy = policyWithNetwork(
        QStringLiteral("allowlist.json"),
        QJsonObject{ { QStringLiteral("mode"), QStringLiteral("allowlist") },
                     { QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("example.org") } },
                     { QStringLiteral("deniedDomains"), QJsonArray{} } });
    const Outcome refused = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                                  QStringLiteral("touch"), QStringLiteral("never") });
    QCOMPARE(refused.exitCode, 125);
    QVERIFY2(refused.err.contains("does not enforce the allowed domains"), refused.err.constData());
    QVERIFY(!QFileInfo::exists(m_root->filePath(QStringLiteral("work/never"))));

    const Outcome listed = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(listed.exitCode, 0);
    const QList<QJsonObject> engine = refusalsOf(listed.out, QStringLiteral("engine"));
    QCOMPARE(engine.size(), 1);
    const QJsonObject refusal = engine.constFirst();
    QVERIFY2(refusal.value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("confinement: ")),
             qPrintable(refusal.value(QStringLiteral("rule")).toString()));
    QVERIFY(refusal.value(QStringLiteral("rule")).toString().contains(QStringLiteral("allowedDomains")));
    QCOMPARE(refusal.value(QStringLiteral("command")).toString(), QStringLiteral("touch never"));
    QCOMPARE(refusal.value(QStringLiteral("backendName")).toString(), QStringLiteral("Partial test backend"));
    QVERIFY(!refusal.contains(QStringLiteral("processId"))); // nothing ever ran
    const Outcome text = ctl({ QStringLiteral("events") });
    QVERIFY2(text.out.contains("Partial test backend") && text.out.contains("touch never"), text.out.constData());

    // Bad usage changes nothing and says what is wrong.
    const Outcome extra = ctl({ QStringLiteral("events"), QStringLiteral("now") });
    QCOMPARE(extra.exitCode, 2);
    QVERIFY2(extra.err.contains("unexpected argument \"now\""), extra.err.constData());
}

void TestDaemon::tierTwoSupervisorRefusalsAreEvents()
{
    // Tier 2 has no mount namespace: sandbox-init's supervisors refuse unix sockets other
    // than the proxy's (here the engine's own socket) and metadata changes outside the
    // writable paths, and say so.
    startDaemon();
    const Outcome tier = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                               QStringLiteral("tier=landlock-seccomp") });
    QVERIFY2(tier.exitCode == 0, tier.err.constData());
    const QString policy = policyWithNetwork(
        QStringLiteral("allowlist-tier2.json"),
        QJsonObject{ { QStringLiteral("mode"), QStringLiteral("allowlist") },
                     { QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("example.org") } },
                     { QStringLiteral("deniedDomains"), QJsonArray{} } });
    // A file outside the writable paths, "changed" to the mode it already has: refused
    // (and harmless had it not been).
    const QString target = QStringLiteral("/etc/hostname");
    const QFileDevice::Permissions before = QFileInfo(target).permissions();
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                              QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("curl -sS --max-time 10 --unix-socket %1 http://engine/; "
                                             "chmod \"$(stat -c %a %2)\" %2 || echo chmod-refused; echo done")
                                  .arg(m_socket, target) });
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("chmod-refused") && run.out.contains("done"), run.out.constData());
    QCOMPARE(int(QFileInfo(target).permissions()), int(before));

    const Outcome listed = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(listed.exitCode, 0);
    // Other sockets the tools try on their own (glibc asks nscd, for one) are refused and
    // reported too; the engine's socket is reported once, and so is the chmod.
    const auto naming = [&listed](const QString &kind, const QString &what) {
        QList<QJsonObject> found;
        for (const QJsonObject &refusal : refusalsOf(listed.out, kind)) {
            if (refusal.value(QStringLiteral("what")).toString() == what)
                found.append(refusal);
        }
        return found;
    };
    const QList<QJsonObject> sockets = naming(QStringLiteral("host-socket"), m_socket);
    QVERIFY2(sockets.size() == 1, listed.out.constData());
    QVERIFY(sockets.constFirst().value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("host sockets: ")));
    QVERIFY(sockets.constFirst().value(QStringLiteral("processId")).toInteger() > 0);
    const QList<QJsonObject> paths = naming(QStringLiteral("path"), target);
    QVERIFY2(paths.size() == 1, listed.out.constData());
    QVERIFY(paths.constFirst().value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("filesystem: ")));
    QCOMPARE(paths.constFirst().value(QStringLiteral("processId")),
             sockets.constFirst().value(QStringLiteral("processId")));

    // With host execution allowed the engine's socket is reachable from tier 2; the engine
    // itself refuses the sandboxed client, and that is a refusal too.
    QJsonObject open = QJsonDocument::fromJson(
                           ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                           .object();
    open.insert(QStringLiteral("hostExecution"), QStringLiteral("allow"));
    const QString hostExec = m_root->filePath(QStringLiteral("work/hostexec.json"));
    QFile hostExecFile(hostExec);
    QVERIFY(hostExecFile.open(QIODevice::WriteOnly));
    hostExecFile.write(QJsonDocument(open).toJson());
    hostExecFile.close();
    const Outcome inside = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), hostExec, QStringLiteral("--"),
                                 binary(QStringLiteral("sandboxctl")), QStringLiteral("--socket"), m_socket,
                                 QStringLiteral("backends") });
    QVERIFY2(inside.err.contains("commands running in a sandbox cannot use the engine"), inside.err.constData());
    const Outcome after = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    bool peerRefused = false;
    for (const QJsonObject &refusal : refusalsOf(after.out, QStringLiteral("engine"))) {
        peerRefused = peerRefused
            || refusal.value(QStringLiteral("rule"))
                   .toString()
                   .startsWith(QStringLiteral("engine: commands running in a sandbox cannot use the engine"));
    }
    QVERIFY2(peerRefused, after.out.constData());
}

// No keychain can be reached (no D-Bus session): a backend's settings still show, with its
// secrets said to be unknown, and its other fields can be changed.
void TestDaemon::settingsWithoutAKeychainShowAndChangeTheOtherFields()
{
    QProcessEnvironment env = environment(QStringLiteral("nokeychain"));
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    env.remove(QStringLiteral("DISPLAY"));
    const QString ref = QStringLiteral("atom-pack:test-secrets:keyed");
    const QStringList engine{ QStringLiteral("--embedded"), QStringLiteral("--socket"),
                              m_root->filePath(QStringLiteral("nokeychain/engine.sock")) };
    const auto ctlWithout = [&](const QStringList &args) {
        return sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), engine + args,
                                         m_root->filePath(QStringLiteral("work")), {}, 60000, env);
    };
    const Outcome shown = ctlWithout({ QStringLiteral("settings"), QStringLiteral("get"), ref });
    QVERIFY2(shown.exitCode == 0, shown.err.constData());
    QVERIFY2(shown.out.contains("region = us-east\n"), shown.out.constData());
    QVERIFY2(shown.out.contains("apiKey = (secret, unknown: the keychain cannot be read)"), shown.out.constData());
    QVERIFY2(shown.err.contains("whether the secrets are set is unknown"), shown.err.constData());

    const Outcome changed
        = ctlWithout({ QStringLiteral("settings"), QStringLiteral("set"), ref, QStringLiteral("region=eu-west") });
    QVERIFY2(changed.exitCode == 0, changed.err.constData());
    const Outcome again = ctlWithout({ QStringLiteral("settings"), QStringLiteral("get"), ref });
    QVERIFY2(again.out.contains("region = eu-west\n"), again.out.constData());
}

QTEST_GUILESS_MAIN(TestDaemon)
#include "tst_daemon.moc"
