#include "SettingsCommand.h"

#include "ActivationReport.h"
#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"

namespace sandbox {

SettingsCommand::SettingsCommand()
    : Command(QStringLiteral("settings"), QStringLiteral("settings get REF [--json] | settings set REF FIELD=VALUE..."),
              tr("Show or change a backend's settings (secrets show only whether they are configured). Changing the "
                 "active backend's settings re-activates it."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the settings as JSON (get)")));
}

int SettingsCommand::execute(EngineConnection &engine)
{
    const QStringList p = arguments();
    if (p.size() < 2 || (p[0] != QLatin1String("get") && p[0] != QLatin1String("set")))
        return usageError(tr("expects get REF or set REF FIELD=VALUE..."));
    const Result<BackendRef> ref = BackendRef::parse(p[1]);
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    const Result<BackendInfo> info = EngineConnection::await(engine.client().describe(ref.value()));
    if (!info.ok())
        return failWith(info.error());
    const Result<SettingsView> view = EngineConnection::await(engine.client().settings(ref.value()));
    if (!view.ok())
        return failWith(view.error());
    const BackendDescriptor &descriptor = info.value().descriptor;

    if (p[0] == QLatin1String("get")) {
        if (p.size() != 2)
            return usageError(tr("settings get takes one backend reference"));
        if (isSet(QStringLiteral("json"))) {
            Listing::printJson(view.value().toJson());
            return 0;
        }
        if (descriptor.fields.isEmpty())
            Terminal::out(tr("%1 has no settings\n").arg(ref.value().toString()));
        for (const FieldSpec &field : descriptor.fields) {
            QString value;
            if (field.type == FieldSpec::Type::Secret && !view.value().secretsUnknown.isEmpty())
                value = tr("(secret, unknown: the keychain cannot be read)");
            else if (field.type == FieldSpec::Type::Secret)
                value = view.value().secretsConfigured.value(field.id) ? tr("(secret, configured)")
                                                                       : tr("(secret, not configured)");
            else
                value = Listing::text(view.value().values.values.value(field.id));
            Terminal::out(QStringLiteral("%1 = %2\n").arg(field.id, value));
        }
        if (view.value().insecureStorage)
            Terminal::err(tr("sandboxctl: warning: secrets are stored without the OS keychain\n"));
        if (!view.value().secretsUnknown.isEmpty())
            Terminal::err(tr("sandboxctl: warning: whether the secrets are set is unknown: %1\n")
                              .arg(view.value().secretsUnknown));
        return 0;
    }

    if (p.size() < 3)
        return usageError(tr("settings set needs at least one FIELD=VALUE"));
    SettingsValues values = view.value().values;
    for (const QString &assignment : p.mid(2)) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return usageError(tr("expected FIELD=VALUE, got \"%1\"").arg(assignment));
        const QString id = assignment.left(eq);
        const QString text = assignment.mid(eq + 1);
        const FieldSpec *field = descriptor.field(id);
        if (!field) {
            QStringList ids;
            for (const FieldSpec &f : descriptor.fields)
                ids.append(f.id);
            return fail(tr("%1 has no setting \"%2\" (its settings: %3)")
                            .arg(ref.value().toString(), id, Listing::listOrNone(ids)));
        }
        if (field->type == FieldSpec::Type::Secret)
            return fail(tr("%1 is a secret: set it with 'sandboxctl secret set %2 %1' (reads it from stdin)")
                            .arg(id, ref.value().toString()));
        const QString where = ref.value().toString() + QLatin1Char('.') + id;
        const Result<QJsonValue> value = field->parseText(text, where);
        if (!value.ok())
            return failWith(value.error());
        values.values.insert(id, value.value());
    }
    return ActivationReport::applySettings(engine, ref.value(), values, {});
}

} // namespace sandbox
