#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

class EngineConnection;
struct Error;
struct GlobalOptions;

// One sandboxctl subcommand: its name, usage line and summary, its options on its own
// QCommandLineParser (with --help and the global options, which are accepted after the
// command name too), and its work once the engine is reached.
//
// Exit status: 0 success; 1 the engine refused or the operation failed; 2 bad usage; 3 the
// operation failed because a Host Interaction question could not be answered (no terminal,
// no --answer for it). `run` exits with the command's status (or 128+signal) whenever the
// command ran, 125 for its own errors, 126 when the command could not start because a
// question went unanswered.
class Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::Command)

public:
    static constexpr int Failure = 1;
    static constexpr int Usage = 2;
    static constexpr int Unanswered = 3;
    static constexpr int RunError = 125;
    static constexpr int RunUnanswered = 126;

    virtual ~Command();
    Command(const Command &) = delete;
    Command &operator=(const Command &) = delete;

    QString name() const { return m_name; }
    QString usage() const { return m_usage; }
    QString summary() const { return m_summary; }
    // The command's own options (not --help and the global ones).
    QList<QCommandLineOption> options() const { return m_options; }
    // The command can cause a Host Interaction question, which sandboxctl then answers.
    virtual bool mayAsk() const { return false; }
    // The status of sandboxctl's own failures (before and around the engine's answer).
    virtual int errorStatus() const { return Failure; }
    int usageStatus() const { return errorStatus() == RunError ? RunError : Usage; }
    // The parsed command talks to the engine (else execute() gets an unopened connection).
    virtual bool needsEngine() const { return true; }
    // With no engine owner running, the engine this command hosts is its own: it serves no
    // socket, so no other process's commands depend on this one staying alive.
    virtual bool hostsPrivately() const { return false; }

    // Parses `arguments` (the command's name first); global options found go to `global`.
    // Returns the exit status when the command must not execute: --help shown, bad usage.
    std::optional<int> parse(const QStringList &arguments, GlobalOptions &global);
    QString helpText() const;
    // Runs the parsed command against the engine; returns the exit status.
    virtual int execute(EngineConnection &engine) = 0;

    static int fail(const QString &message, int status = Failure);
    static int failWith(const Error &error, int status = Failure);
    // "  --name VALUE   description" lines for a help text.
    static QString describeOptions(const QList<QCommandLineOption> &options);

protected:
    Command(QString name, QString usage, QString summary);

    void addOption(const QCommandLineOption &option);
    // Everything after the first positional argument is positional too (run CMD --its-flag).
    void setOptionsEndAtFirstArgument();
    bool isSet(const QString &option) const { return m_parser.isSet(option); }
    QString value(const QString &option) const { return m_parser.value(option); }
    QStringList arguments() const { return m_parser.positionalArguments(); }
    // Reports a usage problem with the command's usage line.
    int usageError(const QString &problem) const;

private:
    QString m_name;
    QString m_usage;
    QString m_summary;
    QList<QCommandLineOption> m_options;
    QCommandLineParser m_parser;
};

} // namespace sandbox
