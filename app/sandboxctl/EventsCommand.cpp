#include "EventsCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"
#include "common/SignalWatcher.h"

#include <QDateTime>
#include <QEventLoop>
#include <QJsonDocument>

#include <csignal>

namespace sandbox {

EventsCommand::EventsCommand()
    : Command(QStringLiteral("events"), QStringLiteral("events [--follow] [--json]"),
              tr("Show what the sandbox refused recently: which command, what, and the rule that refused it."))
{
    addOption(QCommandLineOption(QStringLiteral("follow"),
                                 tr("keep running and print each refusal as it happens (until interrupted)")));
    addOption(QCommandLineOption(QStringLiteral("json"),
                                 tr("print JSON: the recent refusals as one array, or with --follow one object a "
                                    "line")));
}

QStringList EventsCommand::header()
{
    return { tr("TIME"), tr("KIND"), tr("BACKEND"), tr("COMMAND"), tr("REFUSED"), tr("RULE") };
}

QStringList EventsCommand::row(const Refusal &refusal)
{
    const QString time = QDateTime::fromMSecsSinceEpoch(refusal.timeMs).toString(QStringLiteral("HH:mm:ss.zzz"));
    const QString backend = refusal.backendName.isEmpty() ? (refusal.ref.isValid() ? refusal.ref.toString() : tr("-"))
                                                          : refusal.backendName;
    QString command = refusal.command.isEmpty() ? tr("-") : refusal.command;
    if (refusal.processId != 0)
        command = tr("[%1] %2").arg(refusal.processId).arg(command);
    return { time, Refusal::kindName(refusal.kind), backend, command, refusal.what, refusal.rule };
}

int EventsCommand::execute(EngineConnection &engine)
{
    if (!arguments().isEmpty())
        return usageError(tr("unexpected argument \"%1\"").arg(arguments().constFirst()));
    const bool json = isSet(QStringLiteral("json"));
    if (!isSet(QStringLiteral("follow"))) {
        const Result<QList<Refusal>> list = EngineConnection::await(engine.client().refusals());
        if (!list.ok())
            return failWith(list.error());
        if (!json && list.value().isEmpty()) {
            Terminal::out(tr("No refusals yet.\n"));
            return 0;
        }
        Listing::print(list.value(), json, header(), &EventsCommand::row);
        return 0;
    }

    const auto printOne = [json](const Refusal &refusal) {
        if (json)
            Terminal::out(Listing::jsonLine(refusal.toJson()) + QLatin1Char('\n'));
        else
            Terminal::out(row(refusal).join(QStringLiteral("  ")) + QLatin1Char('\n'));
    };
    QEventLoop loop;
    int status = 0;
    QObject::connect(&engine.client(), &Client::refusalReported, &engine, printOne);
    QObject::connect(&engine.client(), &Client::disconnected, &engine, [&](const QString &reason) {
        status = fail(tr("lost the engine: %1").arg(reason));
        loop.quit();
    });
    const Result<QList<Refusal>> recent = EngineConnection::await(engine.client().followRefusals());
    if (!recent.ok())
        return failWith(recent.error());
    if (!json)
        Terminal::out(header().join(QStringLiteral("  ")) + QLatin1Char('\n'));
    for (const Refusal &refusal : recent.value())
        printOne(refusal);
    SignalWatcher signalWatcher({ SIGINT, SIGTERM, SIGHUP });
    QObject::connect(&signalWatcher, &SignalWatcher::signalReceived, &loop, &QEventLoop::quit);
    loop.exec();
    return status;
}

} // namespace sandbox
