#include "CredentialCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"

#include <QJsonArray>

namespace sandbox {

CredentialCommand::CredentialCommand()
    : Command(QStringLiteral("credential"),
              QStringLiteral("credential set NAME | credential list [--json] | credential remove NAME | "
                             "credential rotate-authority"),
              tr("Store the value of the policy's credential NAME (read from stdin, without echo on a terminal) "
                 "in the engine's secret storage, list the credentials (names, hosts and whether a value is "
                 "stored; never a value), or remove a value. 'rotate-authority' replaces the engine's certificate "
                 "authority with a new one and prints its certificate."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the list as JSON (list)")));
}

int CredentialCommand::list(EngineConnection &engine) const
{
    const Result<QList<CredentialInfo>> credentials = EngineConnection::await(engine.client().credentials());
    if (!credentials.ok())
        return failWith(credentials.error());
    if (isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const CredentialInfo &info : credentials.value())
            array.append(info.toJson());
        Listing::printJson(QJsonObject{ { QStringLiteral("credentials"), array } });
        return 0;
    }
    if (credentials.value().isEmpty()) {
        Terminal::out(tr("no credentials (add them to the policy's \"credentials\", then set their values)\n"));
        return 0;
    }
    QString text;
    for (const CredentialInfo &info : credentials.value()) {
        const QString state = info.configured ? tr("value stored") : tr("no value stored");
        const QString where = info.inPolicy ? info.hosts.join(QStringLiteral(", ")) : tr("(not in the policy)");
        text += tr("%1  %2  %3").arg(info.name, state, where);
        if (!info.env.isEmpty())
            text += tr("  (the command sees %1)").arg(info.env);
        text += QLatin1Char('\n');
    }
    Terminal::out(text);
    return 0;
}

int CredentialCommand::execute(EngineConnection &engine)
{
    const QStringList p = arguments();
    if (p.value(0) == QLatin1String("list")) {
        if (p.size() != 1)
            return usageError(tr("credential list takes no arguments"));
        return list(engine);
    }
    if (p.value(0) == QLatin1String("rotate-authority")) {
        if (p.size() != 1)
            return usageError(tr("credential rotate-authority takes no arguments"));
        const Result<QByteArray> certificate = EngineConnection::await(engine.client().rotateCertificateAuthority());
        if (!certificate.ok())
            return failWith(certificate.error());
        Terminal::out(QString::fromLatin1(certificate.value()));
        return 0;
    }
    if (p.size() != 2 || (p[0] != QLatin1String("set") && p[0] != QLatin1String("remove")))
        return usageError(tr("expects set NAME, list, remove NAME or rotate-authority (the value comes from stdin)"));
    const QString name = p[1];
    if (const QString problem = PolicyCredential::nameProblem(name); !problem.isEmpty())
        return fail(tr("credential name %1: %2").arg(name, problem), Usage);
    if (p[0] == QLatin1String("remove")) {
        if (const Status removed = EngineConnection::await(engine.client().removeCredential(name)); !removed.ok())
            return failWith(removed.error());
        Terminal::out(tr("credential %1 removed\n").arg(name));
        return 0;
    }
    const std::optional<QString> input
        = Terminal::readSecretInput(tr("value of credential %1 (not shown): ").arg(name));
    if (!input)
        return fail(tr("cannot read the credential's value from stdin"));
    const QString value = *input;
    if (value.isEmpty())
        return fail(tr("empty value: nothing changed (use 'sandboxctl credential remove' to remove it)"));
    if (const Status stored = EngineConnection::await(engine.client().setCredential(name, value)); !stored.ok())
        return failWith(stored.error());
    Terminal::out(tr("credential %1 stored\n").arg(name));
    return 0;
}

} // namespace sandbox
