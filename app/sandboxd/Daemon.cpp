#include "Daemon.h"

#include "client/Client.h"
#include "common/ConfigurationLocation.h"
#include "common/EngineProvider.h"
#include "common/SignalWatcher.h"
#include "core/Engine.h"
#include "protocol/RuntimeDirectory.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <csignal>
#include <cstdio>

namespace sandbox {

Daemon::Daemon(QObject *parent)
    : QObject(parent)
{ }

Daemon::~Daemon()
{
    m_provider.reset();
}

int Daemon::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Runs the Sandbox Studio engine headless and serves the local protocol for sandboxctl and other "
           "clients.\nExit status: 0 after a clean shutdown, or when an engine already runs for this user "
           "(nothing to do); 1 when the engine cannot be started; 2 for a bad command line."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption socketOption(QStringLiteral("socket"),
                                          tr("Serve on PATH instead of %1.").arg(RuntimeDirectory::defaultSocketPath()),
                                          tr("PATH"));
    const QCommandLineOption configOption(QStringLiteral("config-dir"),
                                          tr("Keep settings and policy in DIR (default: $SANDBOX_CONFIG_DIR, else %1, "
                                             "which every program of this user shares).")
                                              .arg(ConfigurationLocation::configDirectory()),
                                          tr("DIR"));
    parser.addOption(socketOption);
    parser.addOption(configOption);
    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "sandboxd: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("sandboxd %s\n", qPrintable(QCoreApplication::applicationVersion()));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "sandboxd: %s\n",
                     qPrintable(tr("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst())));
        return 2;
    }

    // Signals first: a SIGTERM that arrives while the engine starts still shuts it down cleanly.
    m_signals = std::make_unique<SignalWatcher>(QList<int>{ SIGTERM, SIGINT, SIGHUP });
    connect(m_signals.get(), &SignalWatcher::signalReceived, this, &Daemon::stop);

    EngineProvider::Options options;
    options.mode = EngineProvider::Mode::HostOnly;
    options.socketPath = parser.value(socketOption);
    options.engine = EngineProvider::engineOptionsFromEnvironment(parser.value(configOption));
    m_provider = std::make_unique<EngineProvider>(options);
    Result<std::unique_ptr<Client>> client = m_provider->start();
    if (!client.ok()) {
        if (m_provider->anotherOwnerRunning()) {
            qInfo("%s",
                  qPrintable(tr("an engine is already running for this user (pid %1, socket %2); not starting "
                                "another")
                                 .arg(m_provider->ownerPid())
                                 .arg(m_provider->socketPath())));
            return 0;
        }
        qCritical("%s", qPrintable(tr("cannot start the engine: %1").arg(client.error().toString())));
        return 1;
    }
    // The journal needs only the engine's own signals. A client kept for them would have
    // every process's start and end encoded, queued to this thread and decoded here.
    std::move(client).value().reset();
    logEvents();
    qInfo(
        "%s",
        qPrintable(tr("serving on %1 (pid %2)").arg(m_provider->socketPath()).arg(QCoreApplication::applicationPid())));
    return QCoreApplication::exec();
}

void Daemon::logEvents()
{
    // What an administrator reading the journal needs; never settings values or secrets.
    Engine *engine = m_provider->engine();
    if (!engine)
        return;
    connect(engine, &Engine::activationFinished, this, [](const ActivationResult &result) {
        if (result.ok)
            qInfo("%s", qPrintable(tr("activated %1").arg(result.ref.toString())));
        else
            qWarning("%s",
                     qPrintable(tr("activation of %1 failed: %2").arg(result.ref.toString(), result.error.toString())));
    });
    connect(engine, &Engine::cleanupWarning, this, [](const CleanupWarning &warning) {
        qWarning("%s",
                 qPrintable(tr("cleanup of %1 failed (attempt %2): %3")
                                .arg(warning.ref.toString())
                                .arg(warning.attempt)
                                .arg(warning.message)));
    });
}

void Daemon::stop(int signalNumber)
{
    qInfo("%s", qPrintable(tr("signal %1 received; ending running processes and shutting down").arg(signalNumber)));
    if (m_provider)
        m_provider->shutdown();
    QCoreApplication::quit();
}

} // namespace sandbox
