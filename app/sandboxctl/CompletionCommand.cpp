#include "CompletionCommand.h"

#include "GlobalOptions.h"
#include "Terminal.h"

#include <QRegularExpression>

namespace sandbox {

namespace {

QString flag(const QString &name)
{
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

QStringList flags(const QList<QCommandLineOption> &options, bool valuedOnly = false)
{
    QStringList out;
    for (const QCommandLineOption &option : options) {
        if (valuedOnly && option.valueName().isEmpty())
            continue;
        const QStringList names = option.names();
        for (const QString &name : names)
            out.append(flag(name));
    }
    return out;
}

// The first sentence of a summary, for a one-line description.
QString firstSentence(const QString &text)
{
    const qsizetype end = text.indexOf(QStringLiteral(". "));
    QString sentence = end < 0 ? text : text.left(end + 1);
    if (sentence.endsWith(QLatin1Char('.')))
        sentence.chop(1);
    return sentence;
}

QString singleQuoted(QString text)
{
    return QLatin1Char('\'') + text.replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
}

QString fishQuoted(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('\''), QStringLiteral("\\'"));
    return QLatin1Char('\'') + text + QLatin1Char('\'');
}

// The value names that are paths: completed with file names.
bool takesPath(const QCommandLineOption &option)
{
    static const QStringList paths{ QStringLiteral("FILE"), QStringLiteral("DIR"), QStringLiteral("PATH") };
    return paths.contains(option.valueName());
}

QList<QCommandLineOption> globalOptions()
{
    QList<QCommandLineOption> options = GlobalOptions::options();
    options.append(
        QCommandLineOption({ QStringLiteral("h"), QStringLiteral("help") }, CompletionCommand::tr("show this help")));
    options.append(QCommandLineOption(QStringLiteral("version"), CompletionCommand::tr("show the version")));
    return options;
}

} // namespace

CompletionCommand::CompletionCommand(const std::vector<std::unique_ptr<Command>> &commands)
    : Command(QStringLiteral("completion"), QStringLiteral("completion bash|zsh|fish"),
              tr("Print the shell completion script for bash, zsh or fish (the package installs all three)."))
    , m_commands(commands)
{ }

QList<CompletionCommand::Entry> CompletionCommand::entries() const
{
    // "policy show [--json] | policy set FILE | policy reset": show, set and reset;
    // "packs enable|disable|remove ID": enable, disable and remove.
    static const QRegularExpression words(QStringLiteral("^[a-z][a-z|-]*$"));
    QList<Entry> out;
    for (const std::unique_ptr<Command> &command : m_commands) {
        Entry entry{ command->name(), firstSentence(command->summary()), command->options(), {} };
        const QStringList forms = command->usage().split(QStringLiteral(" | "));
        for (const QString &form : forms) {
            const QStringList tokens = form.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (tokens.size() < 2 || tokens[0] != command->name() || !words.match(tokens[1]).hasMatch())
                continue;
            for (const QString &word : tokens[1].split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
                if (!entry.subcommands.contains(word))
                    entry.subcommands.append(word);
            }
        }
        out.append(entry);
    }
    return out;
}

int CompletionCommand::execute(EngineConnection &)
{
    const QStringList shell = arguments();
    if (shell.size() != 1)
        return usageError(tr("expects one shell: bash, zsh or fish"));
    if (shell[0] == QLatin1String("bash"))
        Terminal::out(bash());
    else if (shell[0] == QLatin1String("zsh"))
        Terminal::out(zsh());
    else if (shell[0] == QLatin1String("fish"))
        Terminal::out(fish());
    else
        return usageError(tr("unknown shell \"%1\"; expected bash, zsh or fish").arg(shell[0]));
    return 0;
}

QString CompletionCommand::bash() const
{
    const QList<QCommandLineOption> global = globalOptions();
    QStringList names{ QStringLiteral("help") };
    QStringList valued = flags(global, true);
    QStringList pathValued;
    QString perCommand;
    QString subcommands;
    for (const Entry &entry : entries()) {
        names.append(entry.name);
        valued += flags(entry.options, true);
        for (const QCommandLineOption &option : entry.options + global) {
            if (takesPath(option))
                pathValued += flags({ option });
        }
        perCommand += QStringLiteral("        %1) options=%2 ;;\n")
                          .arg(entry.name, singleQuoted(flags(entry.options).join(QLatin1Char(' '))));
        if (!entry.subcommands.isEmpty())
            subcommands += QStringLiteral("        %1) subcommands=%2 ;;\n")
                               .arg(entry.name, singleQuoted(entry.subcommands.join(QLatin1Char(' '))));
    }
    valued.removeDuplicates();
    pathValued.removeDuplicates();
    QString text = QStringLiteral(
        "# bash completion for sandboxctl (printed by 'sandboxctl completion bash')\n"
        "_sandboxctl()\n"
        "{\n"
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "    local global=%1\n"
        "    local valued=%2\n"
        "    local paths=%3\n"
        "    local command= positional=0 skip= word i\n"
        "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        "        word=${COMP_WORDS[i]}\n"
        "        if [[ -n $skip ]]; then skip=; continue; fi\n"
        "        if [[ $word == -- && $command == run ]]; then positional=99; continue; fi\n"
        "        case \" $valued \" in *\" $word \"*) skip=1; continue ;; esac\n"
        "        case $word in\n"
        "        -*) ;;\n"
        "        *) if [[ -z $command ]]; then command=$word; else positional=$((positional + 1)); fi ;;\n"
        "        esac\n"
        "    done\n"
        "    if [[ -n $skip ]]; then\n"
        "        case \" $paths \" in *\" $prev \"*) COMPREPLY=($(compgen -f -- \"$cur\")) ;; *) COMPREPLY=() ;; esac\n"
        "        return\n"
        "    fi\n"
        "    if [[ $command == run && $positional -gt 0 ]]; then\n"
        "        COMPREPLY=($(compgen -c -f -- \"$cur\"))\n"
        "        return\n"
        "    fi\n"
        "    local options= subcommands=\n"
        "    case $command in\n"
        "%4"
        "    esac\n"
        "    case $command in\n"
        "%5"
        "    esac\n"
        "    if [[ $cur == -* ]]; then\n"
        "        COMPREPLY=($(compgen -W \"$options $global\" -- \"$cur\"))\n"
        "    elif [[ -z $command || $command == help ]]; then\n"
        "        COMPREPLY=($(compgen -W %6 -- \"$cur\"))\n"
        "    elif [[ -n $subcommands && $positional -eq 0 ]]; then\n"
        "        COMPREPLY=($(compgen -W \"$subcommands\" -- \"$cur\"))\n"
        "    else\n"
        "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        "    fi\n"
        "}\n"
        "complete -F _sandboxctl sandboxctl\n");
    return text.arg(singleQuoted(flags(global).join(QLatin1Char(' '))), singleQuoted(valued.join(QLatin1Char(' '))),
                    singleQuoted(pathValued.join(QLatin1Char(' '))), perCommand, subcommands,
                    singleQuoted(names.join(QLatin1Char(' '))));
}

QString CompletionCommand::zsh() const
{
    const QList<QCommandLineOption> global = globalOptions();
    QString described = QStringLiteral("    'help:Show the help of sandboxctl or of one command'\n");
    QString perCommand;
    QString subcommands;
    QStringList valued = flags(global, true);
    for (const Entry &entry : entries()) {
        described += QStringLiteral("    %1\n").arg(singleQuoted(entry.name + QLatin1Char(':') + entry.summary));
        valued += flags(entry.options, true);
        perCommand
            += QStringLiteral("    %1 %2\n").arg(entry.name, singleQuoted(flags(entry.options).join(QLatin1Char(' '))));
        if (!entry.subcommands.isEmpty())
            subcommands += QStringLiteral("    %1 %2\n")
                               .arg(entry.name, singleQuoted(entry.subcommands.join(QLatin1Char(' '))));
    }
    valued.removeDuplicates();
    QString text = QStringLiteral("#compdef sandboxctl\n"
                                  "# zsh completion for sandboxctl (printed by 'sandboxctl completion zsh')\n"
                                  "local -a commands global valued\n"
                                  "commands=(\n%1)\n"
                                  "global=(%2)\n"
                                  "valued=(%3)\n"
                                  "local -A options subcommands\n"
                                  "options=(\n%4)\n"
                                  "subcommands=(\n%5)\n"
                                  "local command= positional=0 skip= i\n"
                                  "for (( i = 2; i < CURRENT; i++ )); do\n"
                                  "  if [[ -n $skip ]]; then skip=; continue; fi\n"
                                  "  if [[ $words[i] == -- && $command == run ]]; then positional=99; continue; fi\n"
                                  "  if (( ${valued[(Ie)$words[i]]} )); then skip=1; continue; fi\n"
                                  "  case $words[i] in\n"
                                  "  (-*) ;;\n"
                                  "  (*) if [[ -z $command ]]; then command=$words[i]; else (( positional++ )); fi ;;\n"
                                  "  esac\n"
                                  "done\n"
                                  "if [[ -n $skip ]]; then\n"
                                  "  _files\n"
                                  "elif [[ $command == run && $positional -gt 0 ]]; then\n"
                                  "  _command_names -e; _files\n"
                                  "elif [[ $PREFIX == -* ]]; then\n"
                                  "  compadd -- ${=options[$command]} $global\n"
                                  "elif [[ -z $command || $command == help ]]; then\n"
                                  "  _describe -t commands 'sandboxctl command' commands\n"
                                  "elif [[ -n ${subcommands[$command]} && $positional -eq 0 ]]; then\n"
                                  "  compadd -- ${=subcommands[$command]}\n"
                                  "else\n"
                                  "  _files\n"
                                  "fi\n");
    return text.arg(described, flags(global).join(QLatin1Char(' ')), valued.join(QLatin1Char(' ')), perCommand,
                    subcommands);
}

QString CompletionCommand::fish() const
{
    QString text = QStringLiteral("# fish completion for sandboxctl (printed by 'sandboxctl completion fish')\n"
                                  "complete -c sandboxctl -f\n");
    QStringList names{ QStringLiteral("help") };
    const QList<Entry> all = entries();
    for (const Entry &entry : all)
        names.append(entry.name);
    const QString noCommand = QStringLiteral("not __fish_seen_subcommand_from %1").arg(names.join(QLatin1Char(' ')));
    auto option = [](const QCommandLineOption &given, const QString &condition) -> QString {
        QString line = QStringLiteral("complete -c sandboxctl");
        if (!condition.isEmpty())
            line += QStringLiteral(" -n %1").arg(fishQuoted(condition));
        const QStringList optionNames = given.names();
        for (const QString &name : optionNames)
            line += (name.size() == 1 ? QStringLiteral(" -s ") : QStringLiteral(" -l ")) + name;
        if (!given.valueName().isEmpty())
            line += takesPath(given) ? QStringLiteral(" -r -F") : QStringLiteral(" -r");
        return line + QStringLiteral(" -d %1\n").arg(fishQuoted(firstSentence(given.description())));
    };
    for (const QCommandLineOption &global : globalOptions())
        text += option(global, QString());
    text += QStringLiteral("complete -c sandboxctl -n %1 -a help -d %2\n")
                .arg(fishQuoted(noCommand), fishQuoted(tr("Show the help of sandboxctl or of one command")));
    text += QStringLiteral("complete -c sandboxctl -n %1 -a %2\n")
                .arg(fishQuoted(QStringLiteral("__fish_seen_subcommand_from help")),
                     fishQuoted(names.mid(1).join(QLatin1Char(' '))));
    for (const Entry &entry : all) {
        const QString seen = QStringLiteral("__fish_seen_subcommand_from ") + entry.name;
        text += QStringLiteral("complete -c sandboxctl -n %1 -a %2 -d %3\n")
                    .arg(fishQuoted(noCommand), entry.name, fishQuoted(entry.summary));
        for (const QCommandLineOption &o : entry.options)
            text += option(o, seen);
        if (!entry.subcommands.isEmpty())
            text += QStringLiteral("complete -c sandboxctl -n %1 -a %2\n")
                        .arg(fishQuoted(seen + QStringLiteral("; and not __fish_seen_subcommand_from ")
                                        + entry.subcommands.join(QLatin1Char(' '))),
                             fishQuoted(entry.subcommands.join(QLatin1Char(' '))));
        else if (entry.name != QLatin1String("run"))
            text += QStringLiteral("complete -c sandboxctl -n %1 -F\n").arg(fishQuoted(seen));
    }
    text += QStringLiteral("complete -c sandboxctl -n %1 -a '(__fish_complete_subcommand --fcs-skip=2)'\n")
                .arg(fishQuoted(QStringLiteral("__fish_seen_subcommand_from run")));
    return text;
}

} // namespace sandbox
