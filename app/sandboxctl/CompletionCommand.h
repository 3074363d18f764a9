#pragma once

#include "Command.h"

#include <memory>
#include <vector>

namespace sandbox {

// `sandboxctl completion bash|zsh|fish`: the shell completion script for every command and
// option in `commands` (sandboxctl's own table, so it never falls behind the program). The
// package ships the three scripts this prints.
class CompletionCommand final : public Command
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::CompletionCommand)

public:
    explicit CompletionCommand(const std::vector<std::unique_ptr<Command>> &commands);
    bool needsEngine() const override { return false; }
    int execute(EngineConnection &engine) override;

private:
    struct Entry
    {
        QString name;
        QString summary;
        QList<QCommandLineOption> options;
        QStringList subcommands; // the words after the name in each "NAME WORD ..." form
    };
    QList<Entry> entries() const;
    QString bash() const;
    QString zsh() const;
    QString fish() const;

    const std::vector<std::unique_ptr<Command>> &m_commands;
};

} // namespace sandbox
