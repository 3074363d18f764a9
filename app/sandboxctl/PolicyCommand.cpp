#include "PolicyCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"
#include "protocol/JsonReader.h"

#include <QFile>

namespace sandbox {

namespace {

QString processesName(Policy::ProcessConfinement mode)
{
    return mode == Policy::ProcessConfinement::Isolated ? QStringLiteral("isolated") : QStringLiteral("shared");
}

} // namespace

PolicyCommand::PolicyCommand()
    : Command(QStringLiteral("policy"), QStringLiteral("policy show [--json] | policy set FILE | policy reset"),
              tr("Show the sandbox policy, replace it with the JSON policy in FILE (- for stdin), or with the "
                 "default policy (reset)."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the policy as JSON (show)")));
}

namespace {

// `error` about the policy read from `file`: each place it names is in that file.
Error inFile(Error error, const QString &file)
{
    const QString name = file == QLatin1String("-") ? PolicyCommand::tr("standard input") : file;
    // The engine names what it refused by where it was in the request.
    if (error.where.startsWith(QLatin1String("params.policy")))
        error.where.remove(0, int(qstrlen("params.")));
    if (error.where.startsWith(QLatin1String("policy")))
        error.where = QStringLiteral("%1: %2").arg(name, error.where);
    for (Error &detail : error.details)
        detail = inFile(detail, file);
    return error;
}

} // namespace

int PolicyCommand::execute(EngineConnection &engine)
{
    const QStringList p = arguments();
    if (p.value(0) == QLatin1String("set")) {
        if (p.size() != 2)
            return usageError(tr("policy set takes one FILE"));
        QFile file;
        const bool opened = p[1] == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                       : (file.setFileName(p[1]), file.open(QIODevice::ReadOnly));
        if (!opened)
            return fail(tr("cannot read %1: %2").arg(p[1], file.errorString()));
        const Result<QJsonObject> json = parseJsonObject(file.readAll(), p[1]);
        if (!json.ok())
            return failWith(json.error());
        // Field errors name the file, then the field in it.
        const Result<Policy> parsed = Policy::fromJson(json.value(), QStringLiteral("policy"));
        if (!parsed.ok())
            return failWith(inFile(parsed.error(), p[1]));
        const Status status = EngineConnection::await(engine.client().setPolicy(parsed.value()));
        if (!status.ok())
            return failWith(inFile(status.error(), p[1]));
        Terminal::out(tr("policy updated\n"));
        return 0;
    }
    if (p.value(0) == QLatin1String("reset")) {
        if (p.size() != 1)
            return usageError(tr("policy reset takes no argument"));
        const Status status = EngineConnection::await(engine.client().setPolicy(Policy::defaults()));
        if (!status.ok())
            return failWith(status.error());
        Terminal::out(tr("policy reset to the defaults\n"));
        return 0;
    }
    if (p.size() > 1 || (p.size() == 1 && p[0] != QLatin1String("show")))
        return usageError(tr("expects show, set FILE or reset"));
    const Result<Policy> policy = EngineConnection::await(engine.client().policy());
    if (!policy.ok())
        return failWith(policy.error());
    const Policy &pol = policy.value();
    if (isSet(QStringLiteral("json"))) {
        Listing::printJson(pol.toJson());
        return 0;
    }
    QString text;
    text += tr("filesystem:\n");
    text += tr("  readable:   %1\n").arg(Listing::listOrNone(pol.readable));
    text += tr("  writable:   %1\n").arg(Listing::listOrNone(pol.writable));
    text += tr("  read-only:  %1\n").arg(Listing::listOrNone(pol.readOnly));
    text += tr("  denied:     %1\n").arg(Listing::listOrNone(pol.denied));
    text += tr("processes:      %1\n").arg(processesName(pol.processes));
    text += tr("network:        %1\n").arg(Policy::networkModeName(pol.network));
    if (pol.network == Policy::NetworkMode::Allowlist) {
        text += tr("  allowed domains: %1\n").arg(Listing::listOrNone(pol.allowedDomains));
        text += tr("  denied domains:  %1\n").arg(Listing::listOrNone(pol.deniedDomains));
    }
    if (!pol.extraCaCertificates.isEmpty())
        text += tr("  extra CA certificates: %1\n").arg(Listing::listOrNone(pol.extraCaCertificates));
    if (pol.upstreamProxy)
        text += pol.upstreamProxy->credential.isEmpty()
            ? tr("  upstream proxy: %1\n").arg(pol.upstreamProxy->url)
            : tr("  upstream proxy: %1 (credential %2)\n").arg(pol.upstreamProxy->url, pol.upstreamProxy->credential);
    text += tr("host execution: %1\n").arg(Policy::hostExecutionName(pol.hostExecution));
    text += pol.credentials.isEmpty() ? tr("credentials:    (none)\n") : tr("credentials:\n");
    for (const PolicyCredential &credential : pol.credentials)
        text += tr("  %1 -> %2\n").arg(credential.name, credential.hosts.join(QStringLiteral(", ")));
    if (pol.sshAgent) {
        text += tr("ssh agent:      confirm %1\n").arg(PolicySshAgent::confirmName(pol.sshAgent->confirm));
        text += tr("  keys:  %1\n").arg(Listing::listOrNone(pol.sshAgent->keys));
        text += tr("  hosts: %1\n").arg(Listing::listOrNone(pol.sshAgent->hosts));
    } else {
        text += tr("ssh agent:      (none)\n");
    }
    Terminal::out(text);
    return 0;
}

} // namespace sandbox
