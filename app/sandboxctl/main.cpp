#include "CommandLine.h"

#include <QCoreApplication>
#include <QLoggingCategory>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandboxctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_VERSION));
    qSetMessagePattern(QStringLiteral("sandboxctl: %{if-warning}warning: %{endif}%{message}"));
    // An embedded engine's connection log is noise on a command's stderr.
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.server.info=false"));
    sandbox::CommandLine commandLine;
    return commandLine.run(QCoreApplication::arguments());
}
