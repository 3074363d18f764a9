// Sandbox Studio: wiring only. Obtain a Client for the user's one engine (connect to the
// running owner, or host the engine on its own thread and serve the local protocol while
// Studio runs), then show the window and the tray. This thread only presents: the engine
// sets itself up, and answers, on its thread.
#include "MainWindow.h"
#include "PlaintextSecretsSetting.h"
#include "StatusIcons.h"
#include "StudioLog.h"
#include "StudioTranslations.h"
#include "TrayController.h"
#include "client/Client.h"
#include "common/ConfigurationLocation.h"
#include "common/EngineProvider.h"
#include "common/SignalWatcher.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

#include <csignal>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandbox-studio"));
    QApplication::setOrganizationName(QStringLiteral("sandbox-studio"));
    QApplication::setApplicationVersion(QStringLiteral(SANDBOX_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("dev.sandbox_studio.SandboxStudio"));
    QApplication::setWindowIcon(sandbox::StatusIcons::application());
    sandbox::installStudioTranslations(&app);
    QApplication::setApplicationDisplayName(QCoreApplication::translate("sandbox::Studio", "Sandbox Studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "sandbox::Studio", "Decides how every command an AI coding agent runs is confined."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption hidden(
        QStringLiteral("hidden"),
        QCoreApplication::translate("sandbox::Studio", "Start in the system tray without showing the window."));
    const QCommandLineOption configDir(
        QStringLiteral("config-dir"),
        QCoreApplication::translate("sandbox::Studio", "Use <dir> for the engine's settings."), QStringLiteral("dir"));
    parser.addOption(hidden);
    parser.addOption(configDir);
    parser.process(app);
    sandbox::StudioLog::install();

    sandbox::EngineProvider::Options options;
    options.engine = sandbox::EngineProvider::engineOptionsFromEnvironment(parser.value(configDir));
    options.waitUntilServing = false;
    sandbox::EngineProvider provider(options);
    QObject::connect(&provider, &sandbox::EngineProvider::engineFailed, &app, [](const sandbox::Error &error) {
        QMessageBox::critical(
            nullptr, QCoreApplication::translate("sandbox::Studio", "Sandbox Studio"),
            QCoreApplication::translate("sandbox::Studio", "The sandbox engine could not be started: %1")
                .arg(error.toString()));
        QApplication::exit(1);
    });
    auto client = provider.start();
    if (!client) {
        QMessageBox::critical(
            nullptr, QCoreApplication::translate("sandbox::Studio", "Sandbox Studio"),
            QCoreApplication::translate("sandbox::Studio", "The sandbox engine could not be started: %1")
                .arg(client.error().toString()));
        return 1;
    }

    client.value()->setTextCatalog(sandbox::engineTextCatalog());
    // The window decides what closing means (to the tray, or quit); nothing quits implicitly.
    QApplication::setQuitOnLastWindowClosed(false);
    sandbox::TrayController tray(client.value().get());
    sandbox::MainWindow window(client.value().get(), &tray);
    window.setQuitEndsCommands(provider.isOwner());
    const QString configDirectory = options.engine.configDirectory.isEmpty()
        ? sandbox::ConfigurationLocation::configDirectory()
        : options.engine.configDirectory;
    sandbox::PlaintextSecretsSetting plaintextSecrets(configDirectory, &window);
    // Quit from the menu, the tray or a signal all close the window for good, then end the
    // event loop; the provider then ends the engine's processes and stops serving.
    QObject::connect(&window, &sandbox::MainWindow::quitRequested, &app, &QApplication::quit, Qt::QueuedConnection);
    sandbox::SignalWatcher unixSignals({ SIGINT, SIGTERM });
    QObject::connect(&unixSignals, &sandbox::SignalWatcher::signalReceived, &window, &sandbox::MainWindow::quit);

    tray.show();
    if (!parser.isSet(hidden) || !sandbox::TrayController::isTrayAvailable())
        window.show();

    const int status = QApplication::exec();
    provider.shutdown();
    return status;
}
