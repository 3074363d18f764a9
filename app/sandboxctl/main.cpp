#include "CommandLine.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#ifdef Q_OS_LINUX
#include "launchers/auto/linux/handoff/PlanRecorder.h"
#endif

#ifdef Q_OS_LINUX
namespace {

QtMessageHandler printMessage = nullptr;

// A run that prints a warning is not recorded: the run front, from the plan, would not print it.
void noteAndPrint(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type != QtDebugMsg && type != QtInfoMsg)
        sandbox::PlanRecorder::noteMessage();
    printMessage(type, context, message);
}

} // namespace
#endif

int main(int argc, char *argv[])
{
#ifdef Q_OS_LINUX
    // Before anything is read: what a recorded plan may vouch for (see PlanRecorder).
    sandbox::PlanRecorder::captureStart();
    printMessage = qInstallMessageHandler(noteAndPrint);
#endif
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandboxctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_VERSION));
    qSetMessagePattern(QStringLiteral("sandboxctl: %{if-warning}warning: %{endif}%{message}"));
    // An embedded engine's connection log is noise on a command's stderr.
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.server.info=false"));
    sandbox::CommandLine commandLine;
    return commandLine.run(QCoreApplication::arguments());
}
