#include "Command.h"

#include "GlobalOptions.h"
#include "Terminal.h"
#include "protocol/Error.h"

namespace sandbox {

namespace {

const QString kHelp = QStringLiteral("help");

QString optionNames(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &name : option.names())
        names.append((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name);
    QString text = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        text += QLatin1Char(' ') + option.valueName();
    return text;
}

} // namespace

Command::Command(QString name, QString usage, QString summary)
    : m_name(std::move(name))
    , m_usage(std::move(usage))
    , m_summary(std::move(summary))
{
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsCompactedShortOptions);
    m_parser.addOption(QCommandLineOption({ QStringLiteral("h"), kHelp }, tr("show this help")));
    const QList<QCommandLineOption> global = GlobalOptions::options();
    for (const QCommandLineOption &option : global)
        m_parser.addOption(option);
}

Command::~Command() = default;

void Command::addOption(const QCommandLineOption &option)
{
    m_options.append(option);
    m_parser.addOption(option);
}

void Command::setOptionsEndAtFirstArgument()
{
    m_parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
}

std::optional<int> Command::parse(const QStringList &arguments, GlobalOptions &global)
{
    if (!m_parser.parse(arguments)) {
        const QStringList unknown = m_parser.unknownOptionNames();
        if (unknown.isEmpty())
            return usageError(m_parser.errorText());
        const QString &first = unknown.constFirst();
        return usageError(
            tr("unknown option %1").arg((first.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + first));
    }
    if (m_parser.isSet(kHelp)) {
        Terminal::out(helpText());
        return 0;
    }
    if (const QString problem = global.take(m_parser); !problem.isEmpty())
        return usageError(problem);
    return std::nullopt;
}

QString Command::helpText() const
{
    QString text = QStringLiteral("usage: sandboxctl %1\n%2\n").arg(m_usage, m_summary);
    QList<QCommandLineOption> options = m_options;
    options.append(QCommandLineOption({ QStringLiteral("h"), kHelp }, tr("show this help")));
    text += tr("\nOptions:\n") + describeOptions(options);
    text += tr("Global options (see sandboxctl --help) are accepted here too.\n");
    return text;
}

QString Command::describeOptions(const QList<QCommandLineOption> &options)
{
    qsizetype width = 0;
    for (const QCommandLineOption &option : options)
        width = std::max(width, optionNames(option).size());
    QString text;
    for (const QCommandLineOption &option : options)
        text += QStringLiteral("  %1  %2\n").arg(optionNames(option).leftJustified(width), option.description());
    return text;
}

int Command::fail(const QString &message, int status)
{
    Terminal::err(QStringLiteral("sandboxctl: %1\n").arg(message));
    return status;
}

int Command::failWith(const Error &error, int status)
{
    QString text = error.toString();
    for (const Error &detail : error.details)
        text += QStringLiteral("\n  ") + detail.toString();
    return fail(text, status);
}

int Command::usageError(const QString &problem) const
{
    Terminal::err(QStringLiteral("sandboxctl %1: %2\nusage: sandboxctl %3\n").arg(m_name, problem, m_usage));
    return usageStatus();
}

} // namespace sandbox
