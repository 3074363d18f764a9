#pragma once

#include <QCoreApplication>
#include <QStringList>

#include <memory>
#include <vector>

namespace sandbox {

class Command;

// sandboxctl's command line: the global options, the command table, the general help,
// and the dispatch of one command (parse, reach the engine, execute).
class CommandLine final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::CommandLine)

public:
    CommandLine();
    ~CommandLine();

    int run(const QStringList &arguments);

private:
    Command *find(const QString &name) const;
    QString helpText() const;

    std::vector<std::unique_ptr<Command>> m_commands;
};

} // namespace sandbox
