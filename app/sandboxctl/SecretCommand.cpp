#include "SecretCommand.h"

#include "ActivationReport.h"
#include "EngineConnection.h"
#include "Terminal.h"
#include "server/Client.h"

#include <QFile>

#include <unistd.h>

namespace sandbox {

SecretCommand::SecretCommand()
    : Command(QStringLiteral("secret"), QStringLiteral("secret set REF FIELD | secret remove REF FIELD"),
              tr("Replace a secret (the value is read from stdin, without echo on a terminal) or remove it."))
{ }

int SecretCommand::execute(EngineConnection &engine)
{
    const QStringList p = arguments();
    if (p.size() != 3 || (p[0] != QLatin1String("set") && p[0] != QLatin1String("remove")))
        return usageError(tr("expects set REF FIELD or remove REF FIELD (the value comes from stdin)"));
    const Result<BackendRef> ref = BackendRef::parse(p[1]);
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    const Result<BackendInfo> info = EngineConnection::await(engine.client().describe(ref.value()));
    if (!info.ok())
        return failWith(info.error());
    const FieldSpec *field = info.value().descriptor.field(p[2]);
    if (!field || field->type != FieldSpec::Type::Secret)
        return fail(tr("%1 has no secret field \"%2\"").arg(ref.value().toString(), p[2]));
    const Result<SettingsView> view = EngineConnection::await(engine.client().settings(ref.value()));
    if (!view.ok())
        return failWith(view.error());

    SecretUpdate update;
    update.fieldId = field->id;
    if (p[0] == QLatin1String("remove")) {
        update.action = SecretUpdate::Action::Remove;
    } else {
        QString value;
        if (::isatty(STDIN_FILENO)) {
            const std::optional<QString> typed
                = Terminal::readSecret(tr("%1 for %2 (not shown): ").arg(field->label, ref.value().toString()));
            value = typed.value_or(QString());
        } else {
            QFile in;
            if (!in.open(stdin, QIODevice::ReadOnly))
                return fail(tr("cannot read the secret from stdin"));
            value = QString::fromUtf8(in.readAll());
            if (value.endsWith(QLatin1Char('\n')))
                value.chop(1);
            if (value.endsWith(QLatin1Char('\r')))
                value.chop(1);
        }
        if (value.isEmpty())
            return fail(tr("empty secret: nothing changed (use 'sandboxctl secret remove' to remove it)"));
        update.action = SecretUpdate::Action::Replace;
        update.value = value;
    }
    return ActivationReport::applySettings(engine, ref.value(), view.value().values, { update });
}

} // namespace sandbox
