#include "Daemon.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandboxd"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_VERSION));
    qSetMessagePattern(
        QStringLiteral("sandboxd[%{pid}]: %{if-warning}warning: %{endif}%{if-critical}error: %{endif}%{message}"));
    sandbox::Daemon daemon;
    return daemon.run(QCoreApplication::arguments());
}
