#include "CommandLine.h"

#include "ActivateCommand.h"
#include "BackendsCommand.h"
#include "Command.h"
#include "CompletionCommand.h"
#include "CredentialCommand.h"
#include "DescribeCommand.h"
#include "EngineConnection.h"
#include "EventsCommand.h"
#include "GlobalOptions.h"
#include "InteractionResponder.h"
#include "KillCommand.h"
#include "PacksCommand.h"
#include "PolicyCommand.h"
#include "PsCommand.h"
#include "RunCommand.h"
#include "SecretCommand.h"
#include "SettingsCommand.h"
#include "StatusCommand.h"
#include "Terminal.h"
#include "TuiCommand.h"

#include <QCommandLineParser>

namespace sandbox {

CommandLine::CommandLine()
{
    m_commands.push_back(std::make_unique<BackendsCommand>());
    m_commands.push_back(std::make_unique<DescribeCommand>());
    m_commands.push_back(std::make_unique<SettingsCommand>());
    m_commands.push_back(std::make_unique<SecretCommand>());
    m_commands.push_back(std::make_unique<ActivateCommand>());
    m_commands.push_back(std::make_unique<PolicyCommand>());
    m_commands.push_back(std::make_unique<CredentialCommand>());
    m_commands.push_back(std::make_unique<RunCommand>());
    m_commands.push_back(std::make_unique<PsCommand>());
    m_commands.push_back(std::make_unique<KillCommand>());
    m_commands.push_back(std::make_unique<EventsCommand>());
    m_commands.push_back(std::make_unique<PacksCommand>());
    m_commands.push_back(std::make_unique<StatusCommand>());
    m_commands.push_back(std::make_unique<TuiCommand>());
    m_commands.push_back(std::make_unique<CompletionCommand>(m_commands));
}

CommandLine::~CommandLine() = default;

Command *CommandLine::find(const QString &name) const
{
    for (const std::unique_ptr<Command> &command : m_commands) {
        if (command->name() == name)
            return command.get();
    }
    return nullptr;
}

QString CommandLine::helpText() const
{
    QString text = tr("Usage: sandboxctl [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
                      "Controls the Sandbox Studio engine: the running one (sandbox-studio or sandboxd) when there "
                      "is one, else an engine embedded in this command.\n\nCommands:\n");
    for (const std::unique_ptr<Command> &command : m_commands)
        text += QStringLiteral("  %1\n      %2\n").arg(command->usage(), command->summary());
    QList<QCommandLineOption> global = GlobalOptions::options();
    global.append(QCommandLineOption({ QStringLiteral("h"), QStringLiteral("help") }, tr("show this help")));
    global.append(QCommandLineOption(QStringLiteral("version"), tr("show the version")));
    text += tr("\nGlobal options:\n") + Command::describeOptions(global);
    text += tr("REF is a backend reference: builtin:KIND or atom-pack:PACK:KIND.\n"
               "Run 'sandboxctl help COMMAND' (or 'sandboxctl COMMAND --help') for one command.\n"
               "Exit status: 0 success, 1 failure, 2 bad usage, 3 a question could not be answered; run: CMD's "
               "status, 125 its own errors, 126 CMD could not start for want of an answer.\n");
    return text;
}

int CommandLine::run(const QStringList &arguments)
{
    // Global options before the command; the command's own parser takes the rest.
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QList<QCommandLineOption> global = GlobalOptions::options();
    for (const QCommandLineOption &option : global)
        parser.addOption(option);
    parser.addOption(QCommandLineOption({ QStringLiteral("h"), QStringLiteral("help") }, QString()));
    parser.addOption(QCommandLineOption(QStringLiteral("version"), QString()));
    if (!parser.parse(arguments)) {
        const QStringList unknown = parser.unknownOptionNames();
        const QString problem = unknown.isEmpty()
            ? parser.errorText()
            : tr("unknown option %1")
                  .arg((unknown.constFirst().size() == 1 ? QStringLiteral("-") : QStringLiteral("--"))
                       + unknown.constFirst());
        return Command::fail(tr("%1; see sandboxctl --help").arg(problem), Command::Usage);
    }
    if (parser.isSet(QStringLiteral("version"))) {
        Terminal::out(QStringLiteral("sandboxctl %1\n").arg(QCoreApplication::applicationVersion()));
        return 0;
    }
    GlobalOptions options;
    if (const QString problem = options.take(parser); !problem.isEmpty())
        return Command::fail(problem, Command::Usage);
    const QStringList rest = parser.positionalArguments();
    const bool help = parser.isSet(QStringLiteral("help"));
    if (rest.isEmpty()) {
        Terminal::out(helpText());
        return help ? 0 : Command::Usage;
    }
    // `help` and `help COMMAND`, as --help and COMMAND --help.
    if (rest.constFirst() == QLatin1String("help")) {
        if (rest.size() == 1) {
            Terminal::out(helpText());
            return 0;
        }
        const Command *wanted = rest.size() == 2 ? find(rest.at(1)) : nullptr;
        if (!wanted)
            return Command::fail(rest.size() == 2 ? tr("unknown command \"%1\"; see sandboxctl --help").arg(rest.at(1))
                                                  : tr("help takes one COMMAND; see sandboxctl --help"),
                                 Command::Usage);
        Terminal::out(wanted->helpText());
        return 0;
    }
    Command *command = find(rest.constFirst());
    if (!command)
        return Command::fail(tr("unknown command \"%1\"; see sandboxctl --help").arg(rest.constFirst()),
                             Command::Usage);
    if (help) {
        Terminal::out(command->helpText());
        return 0;
    }
    if (const std::optional<int> status = command->parse(rest, options))
        return *status;

    EngineConnection engine(options);
    if (!command->needsEngine())
        return command->execute(engine);
    if (const int status = engine.open(command->errorStatus(), command->hostsPrivately()); status != 0)
        return status;
    engine.responder().setEnabled(command->mayAsk());
    const int status = command->execute(engine);
    // A question left unanswered is the failure's cause (run says so itself: a status of
    // 125 can be its command's own).
    if (status == Command::Failure && command->errorStatus() == Command::Failure
        && engine.responder().hadUnanswerable())
        return Command::Unanswered;
    return status;
}

} // namespace sandbox
