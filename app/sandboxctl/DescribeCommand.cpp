#include "DescribeCommand.h"

#include "EngineConnection.h"
#include "Listing.h"
#include "Terminal.h"
#include "client/Client.h"

namespace sandbox {

DescribeCommand::DescribeCommand()
    : Command(QStringLiteral("describe"), QStringLiteral("describe REF [--json]"),
              tr("Show a backend's descriptor: settings, platforms, what enforces each policy dimension."))
{
    addOption(QCommandLineOption(QStringLiteral("json"), tr("print the descriptor as JSON")));
}

int DescribeCommand::execute(EngineConnection &engine)
{
    if (arguments().size() != 1)
        return usageError(tr("expects one backend reference"));
    const Result<BackendRef> ref = BackendRef::parse(arguments().constFirst());
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    const Result<BackendInfo> info = EngineConnection::await(engine.client().describe(ref.value()));
    if (!info.ok())
        return failWith(info.error());
    const BackendInfo &b = info.value();
    if (isSet(QStringLiteral("json"))) {
        Listing::printJson(b.toJson());
        return 0;
    }
    QString text = QStringLiteral("%1 (%2)\n%3\n").arg(b.descriptor.name, b.ref.toString(), b.descriptor.description);
    text += tr("source: %1\n").arg(b.sourceLabel);
    text += tr("state: %1\n")
                .arg(b.active                       ? tr("active")
                         : b.availability.available ? tr("available")
                                                    : tr("unavailable: %1").arg(b.availability.reason));
    if (!b.descriptor.platforms.isEmpty())
        text += tr("platforms: %1\n").arg(b.descriptor.platforms.join(QStringLiteral(", ")));
    if (!b.descriptor.enforcement.isEmpty()) {
        text += tr("enforcement:\n");
        for (auto it = b.descriptor.enforcement.cbegin(); it != b.descriptor.enforcement.cend(); ++it)
            text += QStringLiteral("  %1: %2\n").arg(it.key(), it.value());
    }
    if (b.descriptor.fields.isEmpty()) {
        text += tr("settings: none\n");
    } else {
        text += tr("settings:\n");
        for (const FieldSpec &field : b.descriptor.fields) {
            QString line = QStringLiteral("  %1 (%2%3): %4")
                               .arg(field.id, FieldSpec::typeName(field.type),
                                    field.required ? tr(", required") : QString(), field.label);
            if (!field.defaultValue.isUndefined())
                line += tr(" [default %1]").arg(Listing::text(field.defaultValue));
            if (field.type == FieldSpec::Type::Select) {
                QStringList values;
                for (const SelectOption &option : field.options)
                    values.append(option.value);
                line += tr(" {%1}").arg(values.join(QLatin1Char('|')));
            }
            text += line + QLatin1Char('\n');
            if (!field.description.isEmpty())
                text += QStringLiteral("      %1\n").arg(field.description);
        }
    }
    Terminal::out(text);
    return 0;
}

} // namespace sandbox
