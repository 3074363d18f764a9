// sandboxctl's command line against a real sandboxd, as a user runs it: help, usage errors,
// the completion and the manual page; the embedded engine answering exactly as the daemon
// does; secrets and prompts at a terminal; printed values and policy errors.
#include "DaemonFixture.h"

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
#include <QTest>

#include <csignal>
#include <functional>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

using sandbox::test::binary;
using sandbox::test::Outcome;

class TestDaemonCli final : public QObject, private sandbox::test::DaemonFixture
{
    Q_OBJECT

public:
    TestDaemonCli();

private slots:
    void init();
    void cleanup();

    void helpVersionAndExitStatus();
    void everyCommandHasHelpAndRefusesUnknownOptions();
    void helpCommandCompletionAndManPageCoverEveryCommand();
    void embeddedAndDaemonGiveTheSameOutput();
    void activatingAnUnknownBackendSaysSoAtOnce();
    void secretSetThroughStdinNeverLeaks();
    void terminalPromptsAndSecretsWithoutEcho();
    void printedValuesReadBackAsTheCommandLineTakesThem();
    void policyFieldErrorsNameTheFile();
    void settingsWithoutAKeychainShowAndChangeTheOtherFields();
};

TestDaemonCli::TestDaemonCli()
    : DaemonFixture(QStringLiteral(SANDBOX_TEST_PACK_DIR))
{ }

void TestDaemonCli::init()
{
    setUp();
}

void TestDaemonCli::cleanup()
{
    tearDown();
}

void TestDaemonCli::helpVersionAndExitStatus()
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
void TestDaemonCli::helpCommandCompletionAndManPageCoverEveryCommand()
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
    const QString script = m_rig.filePath(QStringLiteral("sandboxctl.bash"));
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

void TestDaemonCli::everyCommandHasHelpAndRefusesUnknownOptions()
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
    QVERIFY(!QFileInfo::exists(m_rig.socket()));
    QVERIFY(!QFileInfo::exists(m_rig.filePath(QStringLiteral("d/config"))));

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

void TestDaemonCli::embeddedAndDaemonGiveTheSameOutput()
{
    QFile policyFile(m_rig.filePath(QStringLiteral("work/policy.json")));
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

// `sandboxctl activate` of a backend that does not exist says so, and no activation step.
void TestDaemonCli::activatingAnUnknownBackendSaysSoAtOnce()
{
    startDaemon();
    const Outcome outcome = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:nope") });
    QCOMPARE(outcome.exitCode, 1);
    QCOMPARE(outcome.out, QByteArray());
    QCOMPARE(outcome.err, QByteArray("sandboxctl: no such backend builtin:nope (sandboxctl backends lists them)\n"));
}

void TestDaemonCli::secretSetThroughStdinNeverLeaks()
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

    m_rig.daemon()->terminate();
    QVERIFY(m_rig.daemon()->waitForFinished(30000));
    m_rig.log() += m_rig.daemon()->readAllStandardError();

    for (const Outcome &o : std::as_const(outcomes)) {
        QVERIFY2(!o.out.contains(secret), o.out.constData());
        QVERIFY2(!o.err.contains(secret), o.err.constData());
    }
    QVERIFY(!m_rig.log().isEmpty());
    QVERIFY2(!m_rig.log().contains(secret), m_rig.log().constData());
    int files = 0;
    for (const QString &dir : { QStringLiteral("d/config"), QStringLiteral("d/state"), QStringLiteral("run") }) {
        QDirIterator it(m_rig.filePath(dir), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
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

// A whole number is printed in full and reads back as the same number; a backend is named
// in --json as on the command line.
void TestDaemonCli::printedValuesReadBackAsTheCommandLineTakesThem()
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
void TestDaemonCli::policyFieldErrorsNameTheFile()
{
    startDaemon();
    const QByteArray before = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out;
    QFile file(m_rig.filePath(QStringLiteral("work/loose.json")));
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

void TestDaemonCli::terminalPromptsAndSecretsWithoutEcho()
{
    startDaemon();
    const QString cwd = m_rig.filePath(QStringLiteral("work"));
    {
        TerminalSession t(binary(QStringLiteral("sandboxctl")),
                          { QStringLiteral("--socket"), m_rig.socket(), QStringLiteral("activate"),
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
                          { QStringLiteral("--socket"), m_rig.socket(), QStringLiteral("secret"), QStringLiteral("set"),
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

// No keychain can be reached (no D-Bus session): a backend's settings still show, with its
// secrets said to be unknown, and its other fields can be changed.
void TestDaemonCli::settingsWithoutAKeychainShowAndChangeTheOtherFields()
{
    QProcessEnvironment env = environment(QStringLiteral("nokeychain"));
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    env.remove(QStringLiteral("DISPLAY"));
    const QString ref = QStringLiteral("atom-pack:test-secrets:keyed");
    const QStringList engine{ QStringLiteral("--embedded"), QStringLiteral("--socket"),
                              m_rig.filePath(QStringLiteral("nokeychain/engine.sock")) };
    const auto ctlWithout = [&](const QStringList &args) {
        return sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), engine + args,
                                         m_rig.filePath(QStringLiteral("work")), {}, 60000, env);
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

QTEST_GUILESS_MAIN(TestDaemonCli)
#include "tst_daemon_cli.moc"
