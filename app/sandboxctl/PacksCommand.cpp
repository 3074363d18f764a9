#include "PacksCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"

#include <QFileInfo>

namespace sandbox {

PacksCommand::PacksCommand()
    : Command(QStringLiteral("packs"),
              QStringLiteral("packs list [--json] | packs install PATH | packs enable|disable|remove ID"),
              tr("List atom packs, install one from a folder or .tar.gz (pack.json and its plugin), or "
                 "enable, disable or remove one."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the list as JSON (list)")));
}

int PacksCommand::execute(EngineConnection &engine)
{
    const QStringList p = arguments();
    const QString action = p.value(0, QStringLiteral("list"));
    if (action == QLatin1String("list")) {
        if (p.size() > 1)
            return usageError(tr("packs list takes no arguments"));
        const Result<QList<PackInfo>> list = EngineConnection::await(engine.client().packs());
        if (!list.ok())
            return failWith(list.error());
        Listing::print(
            list.value(), isSet(QStringLiteral("json")),
            { tr("ID"), tr("NAME"), tr("VERSION"), tr("PUBLISHER"), tr("STATE"), tr("BACKENDS"), tr("REFUSED") },
            [](const PackInfo &info) {
                QStringList refs;
                for (const BackendRef &ref : info.backends)
                    refs.append(ref.toString());
                return QStringList{ info.id,
                                    info.name,
                                    info.version,
                                    info.publisher,
                                    info.enabled ? tr("enabled") : tr("disabled"),
                                    refs.join(QStringLiteral(", ")),
                                    info.refused.join(QLatin1Char(' ')) };
            });
        return 0;
    }
    if (p.size() != 2)
        return usageError(tr("expects list, install PATH, or enable|disable|remove ID"));
    if (action == QLatin1String("install")) {
        // The engine may run in another process with another working directory.
        const QString path = QFileInfo(p[1]).absoluteFilePath();
        const Result<PackInfo> installed = EngineConnection::await(engine.client().installPack(path));
        if (!installed.ok())
            return failWith(installed.error());
        QStringList refs;
        for (const BackendRef &ref : installed.value().backends)
            refs.append(ref.toString());
        Terminal::out(tr("installed pack %1 %2 from %3: %4\n")
                          .arg(installed.value().id, installed.value().version, installed.value().publisher,
                               refs.join(QStringLiteral(", "))));
        for (const QString &reason : installed.value().refused)
            Terminal::err(reason + QLatin1Char('\n'));
        return 0;
    }
    QFuture<Status> future;
    QString done;
    if (action == QLatin1String("enable")) {
        future = engine.client().enablePack(p[1]);
        done = tr("enabled pack %1\n");
    } else if (action == QLatin1String("disable")) {
        future = engine.client().disablePack(p[1]);
        done = tr("disabled pack %1\n");
    } else if (action == QLatin1String("remove")) {
        future = engine.client().removePack(p[1]);
        done = tr("removed pack %1\n");
    } else {
        return usageError(tr("unknown packs action \"%1\"").arg(action));
    }
    const Status status = EngineConnection::await(future);
    if (!status.ok())
        return failWith(status.error());
    Terminal::out(done.arg(p[1]));
    return 0;
}

} // namespace sandbox
