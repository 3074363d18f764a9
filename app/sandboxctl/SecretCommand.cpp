#include "SecretCommand.h"

#include "ActivationReport.h"
#include "EngineConnection.h"
#include "Terminal.h"
#include "client/Client.h"
#include "common/ConfigurationLocation.h"
#include "common/EngineProvider.h"
#include "common/PlaintextSecretsOptIn.h"

#include <QDir>

#include <csignal>

namespace sandbox {

SecretCommand::SecretCommand()
    : Command(QStringLiteral("secret"),
              QStringLiteral("secret set REF FIELD | secret remove REF FIELD | secret storage [keychain|plaintext]"),
              tr("Replace a secret (the value is read from stdin, without echo on a terminal) or remove it. "
                 "'secret storage plaintext' lets every engine of this user store secrets in a plain file when no "
                 "keychain can be used (not recommended); 'secret storage keychain' turns that off."))
{ }

bool SecretCommand::needsEngine() const
{
    return arguments().value(0) != QLatin1String("storage");
}

int SecretCommand::storage(const EngineConnection &engine) const
{
    const QStringList p = arguments();
    if (p.size() > 2 || (p.size() == 2 && p[1] != QLatin1String("keychain") && p[1] != QLatin1String("plaintext")))
        return usageError(tr("expects storage, storage keychain or storage plaintext"));
    QString directory = EngineProvider::engineOptionsFromEnvironment(engine.options().configDirectory).configDirectory;
    if (directory.isEmpty())
        directory = ConfigurationLocation::configDirectory();
    QString warning;
    const Result<bool> current = PlaintextSecretsOptIn::read(directory, &warning);
    if (!warning.isEmpty())
        Terminal::err(tr("sandboxctl: warning: %1\n").arg(warning));
    if (!current.ok())
        return failWith(current.error());
    if (p.size() == 1) {
        if (current.value()) {
            Terminal::out(tr("plaintext\n"));
            Terminal::err(tr("sandboxctl: warning: %1\n").arg(PlaintextSecretsOptIn::warning(directory)));
        } else {
            Terminal::out(tr("keychain\n"));
        }
        return 0;
    }
    const bool allow = p[1] == QLatin1String("plaintext");
    if (const Status written = PlaintextSecretsOptIn::write(directory, allow); !written.ok())
        return failWith(written.error());
    if (allow) {
        Terminal::out(tr("plaintext secret storage allowed for every program of this user (%1)\n")
                          .arg(PlaintextSecretsOptIn::path(directory)));
        Terminal::err(tr("sandboxctl: warning: %1 Secrets already in the keychain are not copied: set them again.\n")
                          .arg(PlaintextSecretsOptIn::warning(directory)));
    } else {
        Terminal::out(tr("secrets are stored in the keychain only (%1)\n").arg(PlaintextSecretsOptIn::path(directory)));
        Terminal::err(tr("sandboxctl: note: secrets already stored in plain text stay in %1 until you remove it; set "
                         "them again to keep them in the keychain.\n")
                          .arg(QDir(directory).filePath(QStringLiteral("secrets.json"))));
    }
    EngineProvider::Options providerOptions;
    providerOptions.socketPath = engine.options().socket;
    const EngineProvider provider(providerOptions);
    if (const qint64 pid = provider.ownerPid(); pid > 0 && ::kill(pid_t(pid), 0) == 0)
        Terminal::err(tr("sandboxctl: note: the running engine (pid %1) keeps its secret storage until it is "
                         "restarted.\n")
                          .arg(pid));
    return 0;
}

int SecretCommand::execute(EngineConnection &engine)
{
    const QStringList p = arguments();
    if (p.value(0) == QLatin1String("storage"))
        return storage(engine);
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
        const std::optional<QString> input
            = Terminal::readSecretInput(tr("%1 for %2 (not shown): ").arg(field->label, ref.value().toString()));
        if (!input)
            return fail(tr("cannot read the secret from stdin"));
        const QString value = *input;
        if (value.isEmpty())
            return fail(tr("empty secret: nothing changed (use 'sandboxctl secret remove' to remove it)"));
        update.action = SecretUpdate::Action::Replace;
        update.value = value;
    }
    if (view.value().insecureStorage)
        Terminal::err(tr("sandboxctl: warning: secrets are stored without the OS keychain\n"));
    return ActivationReport::applySettings(engine, ref.value(), view.value().values, { update });
}

} // namespace sandbox
