// sandbox-acp: wiring only. Reaches (or hosts) the engine, then lets AcpBridge stand
// between the editor on stdin/stdout and the agent named after "--".
#include "AcpBridge.h"
#include "client/Client.h"
#include "common/EngineProvider.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QLoggingCategory>

#include <cstdio>
#include <memory>
#include <vector>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandbox-acp"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_VERSION));
    qSetMessagePattern(QStringLiteral("sandbox-acp: %{if-warning}warning: %{endif}%{message}"));
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.server.info=false"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main",
        "Stands between an editor and an ACP agent (JSON-RPC on stdin/stdout): relays every message, "
        "and runs the agent's terminals and file reads and writes through the sandbox engine under the "
        "policy and the active backend. Host Interaction questions reach the editor as permission "
        "requests; no answer means deny."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("agent"),
                                 QCoreApplication::translate("main", "the agent and its arguments, after --"),
                                 QStringLiteral("-- AGENT [ARGS...]"));
    const QCommandLineOption confine(
        QStringLiteral("confine-agent"),
        QCoreApplication::translate("main", "run the agent process itself in the sandbox too"));
    const QCommandLineOption timeout(
        QStringLiteral("answer-timeout"),
        QCoreApplication::translate("main", "deny a question the editor leaves unanswered for S seconds (default 60)"),
        QStringLiteral("S"), QStringLiteral("60"));
    const QCommandLineOption socket(QStringLiteral("socket"),
                                    QCoreApplication::translate("main", "the engine's socket (default: the user's)"),
                                    QStringLiteral("PATH"));
    const QCommandLineOption embedded(
        QStringLiteral("embedded"),
        QCoreApplication::translate("main", "host the engine in this process (fails when one runs)"));
    const QCommandLineOption configDir(
        QStringLiteral("config-dir"),
        QCoreApplication::translate("main", "the configuration directory of an engine this process hosts"),
        QStringLiteral("DIR"));
    parser.addOptions({ confine, timeout, socket, embedded, configDir });
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    parser.process(app);

    const QStringList agent = parser.positionalArguments();
    if (agent.isEmpty()) {
        std::fputs(qPrintable(QCoreApplication::translate(
                       "main", "sandbox-acp: no agent given; usage: sandbox-acp [OPTIONS] -- AGENT [ARGS...]\n")),
                   stderr);
        return 2;
    }
    bool ok = false;
    const double seconds = parser.value(timeout).toDouble(&ok);
    if (!ok || seconds <= 0 || seconds > 86400) {
        std::fputs(qPrintable(QCoreApplication::translate(
                       "main", "sandbox-acp: --answer-timeout expects seconds between 0 and 86400\n")),
                   stderr);
        return 2;
    }

    sandbox::EngineProvider::Options providerOptions;
    providerOptions.mode = parser.isSet(embedded) ? sandbox::EngineProvider::Mode::HostOnly
                                                  : sandbox::EngineProvider::Mode::ConnectOrHost;
    providerOptions.socketPath = parser.value(socket);
    providerOptions.engine = sandbox::EngineProvider::engineOptionsFromEnvironment(parser.value(configDir));
    // Every engine reached or hosted, with its Client, lives as long as the bridge: the
    // terminals started through one that went away still hold it.
    std::vector<std::unique_ptr<sandbox::EngineProvider>> providers;
    std::vector<std::unique_ptr<sandbox::Client>> engines;
    providers.push_back(std::make_unique<sandbox::EngineProvider>(providerOptions));
    sandbox::Result<std::unique_ptr<sandbox::Client>> client = providers.back()->start();
    if (!client.ok()) {
        std::fputs(qPrintable(QCoreApplication::translate("main", "sandbox-acp: cannot reach or start the engine: %1\n")
                                  .arg(client.error().toString())),
                   stderr);
        return 125;
    }
    engines.push_back(std::move(client).value());

    sandbox::AcpBridge::Options options;
    options.agentArgv = agent;
    options.confineAgent = parser.isSet(confine);
    options.workspace = QDir::currentPath();
    options.answerTimeoutMs = int(seconds * 1000);
    // The engine in use went away (the process hosting it quit): the next one running is
    // reached, or this process hosts one, and the bridge goes on through it.
    options.reachAnotherEngine = [&](const QString &reason) -> sandbox::Client * {
        sandbox::EngineProvider::Options again = providerOptions;
        again.mode = sandbox::EngineProvider::Mode::ConnectOrHost;
        providers.push_back(std::make_unique<sandbox::EngineProvider>(again));
        sandbox::Result<std::unique_ptr<sandbox::Client>> next = providers.back()->start();
        if (!next.ok()) {
            std::fputs(qPrintable(QCoreApplication::translate("main",
                                                              "sandbox-acp: the engine went away (%1) and no other "
                                                              "could be reached or started: %2\n")
                                      .arg(reason, next.error().toString())),
                       stderr);
            return nullptr;
        }
        engines.push_back(std::move(next).value());
        const QString reached = providers.back()->isOwner()
            ? QCoreApplication::translate("main", "sandbox-acp: the engine went away (%1); this bridge hosts one now\n")
            : QCoreApplication::translate("main",
                                          "sandbox-acp: the engine went away (%1); the running one is used now\n");
        std::fputs(qPrintable(reached.arg(reason)), stderr);
        return engines.back().get();
    };
    int status = 0;
    {
        sandbox::AcpBridge bridge(*engines.back(), options);
        QObject::connect(&bridge, &sandbox::AcpBridge::finished, &app, [&status](int agentStatus) {
            status = agentStatus;
            QCoreApplication::exit(agentStatus);
        });
        bridge.start();
        app.exec();
    }
    engines.clear();
    for (const std::unique_ptr<sandbox::EngineProvider> &provider : providers)
        provider->shutdown();
    return status;
}
