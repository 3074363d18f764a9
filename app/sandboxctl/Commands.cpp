#include "Commands.h"

#include "InteractionResponder.h"
#include "Terminal.h"
#include "common/EngineHost.h"
#include "common/SignalWatcher.h"
#include "protocol/JsonReader.h"
#include "server/Client.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace sandbox {

namespace {

// Runs the event loop until `future` has its result (the Client resolves every pending
// call with an error when the engine goes away, so this cannot wait forever on a dead peer).
template <typename T> T await(const QFuture<T> &future)
{
    if (!future.isFinished()) {
        QEventLoop loop;
        QFutureWatcher<T> watcher;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(future);
        if (!future.isFinished())
            loop.exec();
    }
    if (future.resultCount() == 0) // abandoned (engine shutting down): a default, i.e. an error
        return T();
    return future.result();
}

void printJson(const QJsonValue &value)
{
    const QJsonDocument document = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    Terminal::out(QString::fromUtf8(document.toJson(QJsonDocument::Indented)));
}

// Left-aligned columns, two spaces apart; the last column is not padded.
void printTable(const QStringList &header, const QList<QStringList> &rows)
{
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths.append(h.size());
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    auto line = [&widths](const QStringList &cells) {
        QString text;
        for (qsizetype i = 0; i < cells.size(); ++i)
            text += i + 1 < cells.size() ? cells[i].leftJustified(widths[i] + 2) : cells[i];
        Terminal::out(text + QLatin1Char('\n'));
    };
    line(header);
    for (const QStringList &row : rows)
        line(row);
}

// A listing the engine returned: with --json the items' own JSON as one array, otherwise
// a table with one row per item.
template <typename T, typename RowFn>
void printList(const QList<T> &items, bool json, const QStringList &header, RowFn row)
{
    if (json) {
        QJsonArray array;
        for (const T &item : items)
            array.append(item.toJson());
        printJson(array);
        return;
    }
    QList<QStringList> rows;
    for (const T &item : items)
        rows.append(row(item));
    printTable(header, rows);
}

QString jsonText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble());
    if (value.isUndefined() || value.isNull())
        return QStringLiteral("-");
    return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

QString processesName(Policy::ProcessConfinement mode)
{
    return mode == Policy::ProcessConfinement::Isolated ? QStringLiteral("isolated") : QStringLiteral("shared");
}

QString listOrNone(const QStringList &items)
{
    return items.isEmpty() ? QStringLiteral("(none)") : items.join(QStringLiteral(", "));
}

// Takes --flag or --flag=value options out of `args`; the rest stays positional.
struct OptionParser
{
    QStringList positional;
    QMap<QString, QString> values;
    QSet<QString> flags;
    QString error;

    OptionParser(const QStringList &args, const QStringList &flagNames, const QStringList &valueNames)
    {
        for (qsizetype i = 0; i < args.size(); ++i) {
            const QString &a = args[i];
            if (a == QLatin1String("--")) {
                positional += args.mid(i);
                return;
            }
            if (!a.startsWith(QLatin1String("--")) || a == QLatin1String("-")) {
                positional.append(a);
                continue;
            }
            const QString name = a.section(QLatin1Char('='), 0, 0);
            if (flagNames.contains(name) && !a.contains(QLatin1Char('='))) {
                flags.insert(name);
            } else if (valueNames.contains(name)) {
                if (a.contains(QLatin1Char('=')))
                    values.insert(name, a.section(QLatin1Char('='), 1));
                else if (i + 1 < args.size())
                    values.insert(name, args[++i]);
                else
                    error = QCoreApplication::translate("sandbox::Commands", "%1 needs a value").arg(name);
            } else {
                error = QCoreApplication::translate("sandbox::Commands", "unknown option %1").arg(a);
            }
        }
    }
};

} // namespace

Commands::Commands(QObject *parent)
    : QObject(parent)
{ }

Commands::~Commands()
{
    m_responder.reset();
    m_client.reset();
    m_host.reset();
}

const QList<Commands::Command> &Commands::commands()
{
    static const QList<Command> table{
        { QStringLiteral("backends"), QStringLiteral("backends [--json]"), tr("List the sandbox backends."),
          &Commands::backends, false },
        { QStringLiteral("describe"), QStringLiteral("describe REF [--json]"),
          tr("Show a backend's descriptor: settings, platforms, what enforces each policy dimension."),
          &Commands::describe, false },
        { QStringLiteral("settings"), QStringLiteral("settings get REF [--json] | settings set REF FIELD=VALUE..."),
          tr("Show or change a backend's settings (secrets show only whether they are configured). Changing the "
             "active backend's settings re-activates it."),
          &Commands::settings, true },
        { QStringLiteral("secret"), QStringLiteral("secret set REF FIELD | secret remove REF FIELD"),
          tr("Replace a secret (the value is read from stdin, without echo on a terminal) or remove it."),
          &Commands::secret, true },
        { QStringLiteral("activate"), QStringLiteral("activate REF"),
          tr("Activate a backend, printing each step of the activation; fails when the activation fails."),
          &Commands::activate, true },
        { QStringLiteral("policy"), QStringLiteral("policy show [--json] | policy set FILE"),
          tr("Show the sandbox policy, or replace it with the JSON policy in FILE (- for stdin)."), &Commands::policy,
          false },
        { QStringLiteral("run"), QStringLiteral("run [--policy FILE] [--timeout S] -- CMD..."),
          tr("Run CMD in the active backend with the current directory as workspace, streaming stdin, stdout "
             "and stderr. Exits with CMD's status, or 128+signal; 125 for sandboxctl's own errors."),
          &Commands::runCommand, true },
        { QStringLiteral("ps"), QStringLiteral("ps [--json]"), tr("List sandboxed processes and their backends."),
          &Commands::ps, false },
        { QStringLiteral("kill"), QStringLiteral("kill ID"),
          tr("Kill a sandboxed process (everything in its sandbox)."), &Commands::kill, false },
        { QStringLiteral("packs"), QStringLiteral("packs list [--json] | packs enable|disable|remove ID"),
          tr("List atom packs, or enable, disable or remove one."), &Commands::packs, true },
        { QStringLiteral("status"), QStringLiteral("status [--json]"),
          tr("Show the engine: active backend, warnings, processes, who hosts it."), &Commands::status, false },
    };
    return table;
}

void Commands::printHelp() const
{
    QString text = tr("Usage: sandboxctl [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
                      "Controls the Sandbox Studio engine: the running one (sandbox-studio or sandboxd) when there "
                      "is one, else an engine embedded in this command.\n\nCommands:\n");
    for (const Command &command : commands())
        text += QStringLiteral("  %1\n      %2\n").arg(command.usage, command.summary);
    text += tr("\nGlobal options:\n"
               "  --socket PATH       the engine's socket (default: $XDG_RUNTIME_DIR/sandbox-studio/engine.sock)\n"
               "  --embedded          run the engine in this process (fails if another process runs it)\n"
               "  --config-dir DIR    settings and policy directory of an engine this command hosts\n"
               "                      (also $SANDBOX_CONFIG_DIR; $SANDBOX_STATE_DIR for backend state)\n"
               "  --answer ID=VALUE   answer the Host Interaction question ID without a prompt\n"
               "  --help, --version\n"
               "REF is a backend reference: builtin:KIND or atom-pack:PACK:KIND.\n"
               "Run 'sandboxctl COMMAND --help' for one command.\n"
               "Exit status: 0 success, 1 failure, 2 bad usage; run: CMD's status or 125.\n");
    Terminal::out(text);
}

int Commands::fail(const QString &message, int status) const
{
    Terminal::err(QStringLiteral("sandboxctl: %1\n").arg(message));
    return status;
}

int Commands::failWith(const Error &error, int status) const
{
    QString text = error.toString();
    for (const Error &detail : error.details)
        text += QStringLiteral("\n  ") + detail.toString();
    return fail(text, status);
}

int Commands::usage(const Command &command, const QString &problem) const
{
    Terminal::err(
        QStringLiteral("sandboxctl %1: %2\nusage: sandboxctl %3\n").arg(command.name, problem, command.usage));
    return command.name == QLatin1String("run") ? RunError : Usage;
}

Result<BackendRef> Commands::parseRef(const QString &text) const
{
    return BackendRef::parse(text);
}

int Commands::run(const QStringList &arguments)
{
    QStringList positional;
    bool help = false;
    bool rest = false;
    const QStringList args = arguments.mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (rest || a == QLatin1String("--")) {
            rest = true;
            positional.append(a);
            continue;
        }
        auto takeValue = [&](const QString &name, QString *out) {
            if (a == name) {
                if (i + 1 >= args.size())
                    return false;
                *out = args[++i];
                return true;
            }
            *out = a.mid(name.size() + 1);
            return true;
        };
        const QString name = a.section(QLatin1Char('='), 0, 0);
        QString value;
        if (a == QLatin1String("--embedded")) {
            m_embedded = true;
        } else if (name == QLatin1String("--socket") || name == QLatin1String("--config-dir")
                   || name == QLatin1String("--answer")) {
            if (!takeValue(name, &value) || value.isEmpty())
                return fail(tr("%1 needs a value").arg(name), Usage);
            if (name == QLatin1String("--socket"))
                m_socket = value;
            else if (name == QLatin1String("--config-dir"))
                m_configDir = QDir(value).absolutePath();
            else if (!value.contains(QLatin1Char('=')))
                return fail(tr("--answer expects ID=VALUE, got \"%1\"").arg(value), Usage);
            else
                m_answers.insert(value.section(QLatin1Char('='), 0, 0), value.section(QLatin1Char('='), 1));
        } else if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            help = true;
        } else if (a == QLatin1String("--version")) {
            Terminal::out(QStringLiteral("sandboxctl %1\n").arg(QCoreApplication::applicationVersion()));
            return 0;
        } else {
            positional.append(a);
        }
    }
    if (positional.isEmpty()) {
        printHelp();
        return help ? 0 : Usage;
    }
    for (const Command &command : commands()) {
        if (command.name == positional.constFirst())
            m_current = &command;
    }
    if (!m_current)
        return fail(tr("unknown command \"%1\"; see sandboxctl --help").arg(positional.constFirst()), Usage);
    if (help) {
        Terminal::out(QStringLiteral("usage: sandboxctl %1\n%2\n").arg(m_current->usage, m_current->summary));
        return 0;
    }
    if (const int status = connectEngine(); status != 0)
        return status;
    m_responder->setEnabled(m_current->mayAsk);
    const int status = (this->*m_current->handler)(positional.mid(1));
    if (status == 0 && m_responder->hadUnanswerable())
        return Failure;
    return status;
}

int Commands::connectEngine()
{
    const int errorStatus = m_current->name == QLatin1String("run") ? RunError : Failure;
    EngineHost::Options options;
    options.mode = m_embedded ? EngineHost::Mode::HostOnly : EngineHost::Mode::ConnectOrHost;
    options.socketPath = m_socket;
    options.engine = EngineHost::engineOptionsFromEnvironment(m_configDir);
    m_host = std::make_unique<EngineHost>(options);
    Result<std::unique_ptr<Client>> client = m_host->start();
    if (!client.ok()) {
        if (m_host->anotherOwnerRunning())
            return fail(tr("--embedded: an engine already runs for this user (pid %1); run without --embedded to "
                           "use it")
                            .arg(m_host->ownerPid()),
                        errorStatus);
        return fail(tr("cannot reach or start the engine: %1").arg(client.error().toString()), errorStatus);
    }
    m_client = std::move(client).value();
    m_responder = std::make_unique<InteractionResponder>(*m_client, m_answers);
    if (m_host->isOwner()) {
        // Commands see the engine as a running owner would show it: selection restored,
        // and the restore's own events delivered (so none is mistaken for a later one's).
        // Restoring may ask a question (this process hosts the engine, so it must answer);
        // a refused one makes the restore fall back, which is not this command's failure.
        m_responder->setEnabled(true);
        QSet<quint64> finished; // tracked from before the wait: the notice may come first
        connect(m_client.get(), &Client::activationFinished, this,
                [&finished](const ActivationResult &r) { finished.insert(r.activationId); });
        const ActivationResult restored = await(m_host->restored());
        QDeadlineTimer deadline(5000);
        while (restored.activationId != 0 && !finished.contains(restored.activationId) && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        disconnect(m_client.get(), &Client::activationFinished, this, nullptr);
        m_responder->forgetUnanswerable();
    } else if (!m_configDir.isEmpty()) {
        Terminal::err(tr("sandboxctl: note: --config-dir applies only to an engine this command hosts; the running "
                         "engine (pid %1) uses its own\n")
                          .arg(m_host->ownerPid()));
    }
    return 0;
}

int Commands::backends(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty() || !options.positional.isEmpty())
        return usage(*m_current, options.error.isEmpty() ? tr("unexpected argument") : options.error);
    const Result<QList<BackendInfo>> list = await(m_client->backends());
    if (!list.ok())
        return failWith(list.error());
    printList(list.value(), options.flags.contains(QStringLiteral("--json")),
              { tr("REF"), tr("NAME"), tr("SOURCE"), tr("STATE") }, [](const BackendInfo &info) {
                  const QString state = info.active ? tr("active")
                      : info.availability.available ? tr("available")
                                                    : tr("unavailable: %1").arg(info.availability.reason);
                  return QStringList{ info.ref.toString(), info.descriptor.name, info.sourceLabel, state };
              });
    return 0;
}

int Commands::describe(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty() || options.positional.size() != 1)
        return usage(*m_current, options.error.isEmpty() ? tr("expects one backend reference") : options.error);
    const Result<BackendRef> ref = parseRef(options.positional.constFirst());
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    const Result<BackendInfo> info = await(m_client->describe(ref.value()));
    if (!info.ok())
        return failWith(info.error());
    const BackendInfo &b = info.value();
    if (options.flags.contains(QStringLiteral("--json"))) {
        printJson(b.toJson());
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
                line += tr(" [default %1]").arg(jsonText(field.defaultValue));
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

int Commands::activateAndReport(const BackendRef &ref, const std::optional<SettingsValues> &candidate,
                                const QList<SecretUpdate> &secrets)
{
    // Events of activations that ended before ours (e.g. the start-up restore) are not ours.
    auto finished = std::make_shared<QSet<quint64>>();
    QMetaObject::Connection finishedConnection
        = connect(m_client.get(), &Client::activationFinished, this,
                  [finished](const ActivationResult &result) { finished->insert(result.activationId); });
    QMetaObject::Connection eventConnection
        = connect(m_client.get(), &Client::activationEvent, this, [ref, finished](const ActivationEvent &event) {
              if (event.ref != ref || finished->contains(event.activationId))
                  return;
              QString line = QStringLiteral("%1 %2").arg(activationStepName(event.step).leftJustified(16),
                                                         ActivationEvent::stateName(event.state));
              if (!event.message.isEmpty())
                  line += QStringLiteral(": ") + event.message;
              Terminal::out(line + QLatin1Char('\n'));
          });
    const Result<ActivationResult> result = await(m_client->activate(ref, candidate, secrets));
    disconnect(finishedConnection);
    disconnect(eventConnection);
    if (!result.ok())
        return failWith(result.error());
    const ActivationResult &r = result.value();
    if (r.ok) {
        Terminal::out(tr("activated %1\n").arg(r.ref.toString()));
        return 0;
    }
    const QString step = r.failedStep ? activationStepName(*r.failedStep) : tr("unknown step");
    fail(tr("activation of %1 failed at %2: %3").arg(r.ref.toString(), step, r.error.toString()));
    Terminal::err(tr("sandboxctl: the active backend is still %1\n").arg(r.active.toString()));
    return Failure;
}

int Commands::applySettings(const BackendRef &ref, const SettingsValues &values, const QList<SecretUpdate> &secrets)
{
    const Result<BackendInfo> info = await(m_client->describe(ref));
    if (!info.ok())
        return failWith(info.error());
    // The active backend's settings change only through an activation, so the running
    // backend and the stored settings never disagree.
    if (info.value().active)
        return activateAndReport(ref, values, secrets);
    const Status status = await(m_client->updateSettings(ref, values, secrets));
    if (!status.ok())
        return failWith(status.error());
    Terminal::out(tr("saved settings of %1\n").arg(ref.toString()));
    return 0;
}

int Commands::settings(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty())
        return usage(*m_current, options.error);
    const QStringList &p = options.positional;
    if (p.size() < 2 || (p[0] != QLatin1String("get") && p[0] != QLatin1String("set")))
        return usage(*m_current, tr("expects get REF or set REF FIELD=VALUE..."));
    const Result<BackendRef> ref = parseRef(p[1]);
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    const Result<BackendInfo> info = await(m_client->describe(ref.value()));
    if (!info.ok())
        return failWith(info.error());
    const Result<SettingsView> view = await(m_client->settings(ref.value()));
    if (!view.ok())
        return failWith(view.error());
    const BackendDescriptor &descriptor = info.value().descriptor;

    if (p[0] == QLatin1String("get")) {
        if (p.size() != 2)
            return usage(*m_current, tr("settings get takes one backend reference"));
        if (options.flags.contains(QStringLiteral("--json"))) {
            printJson(view.value().toJson());
            return 0;
        }
        if (descriptor.fields.isEmpty())
            Terminal::out(tr("%1 has no settings\n").arg(ref.value().toString()));
        for (const FieldSpec &field : descriptor.fields) {
            QString value;
            if (field.type == FieldSpec::Type::Secret)
                value = view.value().secretsConfigured.value(field.id) ? tr("(secret, configured)")
                                                                       : tr("(secret, not configured)");
            else
                value = jsonText(view.value().values.values.value(field.id));
            Terminal::out(QStringLiteral("%1 = %2\n").arg(field.id, value));
        }
        if (view.value().insecureStorage)
            Terminal::err(tr("sandboxctl: warning: secrets are stored without the OS keychain\n"));
        return 0;
    }

    if (p.size() < 3)
        return usage(*m_current, tr("settings set needs at least one FIELD=VALUE"));
    SettingsValues values = view.value().values;
    for (const QString &assignment : p.mid(2)) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return usage(*m_current, tr("expected FIELD=VALUE, got \"%1\"").arg(assignment));
        const QString id = assignment.left(eq);
        const QString text = assignment.mid(eq + 1);
        const FieldSpec *field = descriptor.field(id);
        if (!field) {
            QStringList ids;
            for (const FieldSpec &f : descriptor.fields)
                ids.append(f.id);
            return fail(
                tr("%1 has no setting \"%2\" (its settings: %3)").arg(ref.value().toString(), id, listOrNone(ids)));
        }
        QJsonValue value;
        switch (field->type) {
        case FieldSpec::Type::Secret:
            return fail(tr("%1 is a secret: set it with 'sandboxctl secret set %2 %1' (reads it from stdin)")
                            .arg(id, ref.value().toString()));
        case FieldSpec::Type::String:
        case FieldSpec::Type::Select:
            value = text;
            break;
        case FieldSpec::Type::Number: {
            bool ok = false;
            const double number = text.toDouble(&ok);
            if (!ok)
                return fail(tr("%1.%2: expected a number, got \"%3\"").arg(ref.value().toString(), id, text));
            value = number;
            break;
        }
        case FieldSpec::Type::Boolean: {
            const QString t = text.toLower();
            if (t == QLatin1String("true") || t == QLatin1String("yes") || t == QLatin1String("on")
                || t == QLatin1String("1"))
                value = true;
            else if (t == QLatin1String("false") || t == QLatin1String("no") || t == QLatin1String("off")
                     || t == QLatin1String("0"))
                value = false;
            else
                return fail(tr("%1.%2: expected true or false, got \"%3\"").arg(ref.value().toString(), id, text));
            break;
        }
        }
        if (const Status valid = field->validateValue(value, ref.value().toString() + QLatin1Char('.') + id);
            !valid.ok())
            return failWith(valid.error());
        values.values.insert(id, value);
    }
    return applySettings(ref.value(), values, {});
}

int Commands::secret(const QStringList &args)
{
    const OptionParser options(args, {}, {});
    if (!options.error.isEmpty())
        return usage(*m_current, options.error);
    const QStringList &p = options.positional;
    if (p.size() != 3 || (p[0] != QLatin1String("set") && p[0] != QLatin1String("remove")))
        return usage(*m_current, tr("expects set REF FIELD or remove REF FIELD (the value comes from stdin)"));
    const Result<BackendRef> ref = parseRef(p[1]);
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    const Result<BackendInfo> info = await(m_client->describe(ref.value()));
    if (!info.ok())
        return failWith(info.error());
    const FieldSpec *field = info.value().descriptor.field(p[2]);
    if (!field || field->type != FieldSpec::Type::Secret)
        return fail(tr("%1 has no secret field \"%2\"").arg(ref.value().toString(), p[2]));
    const Result<SettingsView> view = await(m_client->settings(ref.value()));
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
    return applySettings(ref.value(), view.value().values, { update });
}

int Commands::activate(const QStringList &args)
{
    const OptionParser options(args, {}, {});
    if (!options.error.isEmpty() || options.positional.size() != 1)
        return usage(*m_current, options.error.isEmpty() ? tr("expects one backend reference") : options.error);
    const Result<BackendRef> ref = parseRef(options.positional.constFirst());
    if (!ref.ok())
        return failWith(ref.error(), Usage);
    return activateAndReport(ref.value(), std::nullopt, {});
}

int Commands::policy(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty())
        return usage(*m_current, options.error);
    const QStringList &p = options.positional;
    if (p.value(0) == QLatin1String("set")) {
        if (p.size() != 2)
            return usage(*m_current, tr("policy set takes one FILE"));
        QFile file;
        const bool opened = p[1] == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                       : (file.setFileName(p[1]), file.open(QIODevice::ReadOnly));
        if (!opened)
            return fail(tr("cannot read %1: %2").arg(p[1], file.errorString()));
        const Result<QJsonObject> json = parseJsonObject(file.readAll(), p[1]);
        if (!json.ok())
            return failWith(json.error());
        const Result<Policy> parsed = Policy::fromJson(json.value(), QStringLiteral("policy"));
        if (!parsed.ok())
            return failWith(parsed.error());
        const Status status = await(m_client->setPolicy(parsed.value()));
        if (!status.ok())
            return failWith(status.error());
        Terminal::out(tr("policy updated\n"));
        return 0;
    }
    if (p.size() > 1 || (p.size() == 1 && p[0] != QLatin1String("show")))
        return usage(*m_current, tr("expects show or set FILE"));
    const Result<Policy> policy = await(m_client->policy());
    if (!policy.ok())
        return failWith(policy.error());
    const Policy &pol = policy.value();
    if (options.flags.contains(QStringLiteral("--json"))) {
        printJson(pol.toJson());
        return 0;
    }
    QString text;
    text += tr("filesystem:\n");
    text += tr("  readable:   %1\n").arg(listOrNone(pol.readable));
    text += tr("  writable:   %1\n").arg(listOrNone(pol.writable));
    text += tr("  read-only:  %1\n").arg(listOrNone(pol.readOnly));
    text += tr("  denied:     %1\n").arg(listOrNone(pol.denied));
    text += tr("processes:      %1\n").arg(processesName(pol.processes));
    text += tr("network:        %1\n").arg(Policy::networkModeName(pol.network));
    if (pol.network == Policy::NetworkMode::Allowlist) {
        text += tr("  allowed domains: %1\n").arg(listOrNone(pol.allowedDomains));
        text += tr("  denied domains:  %1\n").arg(listOrNone(pol.deniedDomains));
    }
    text += tr("host execution: %1\n").arg(Policy::hostExecutionName(pol.hostExecution));
    Terminal::out(text);
    return 0;
}

int Commands::runCommand(const QStringList &args)
{
    const OptionParser options(args, {}, { QStringLiteral("--policy"), QStringLiteral("--timeout") });
    if (!options.error.isEmpty())
        return usage(*m_current, options.error);
    QStringList argv = options.positional;
    if (argv.value(0) == QLatin1String("--"))
        argv.removeFirst();
    if (argv.isEmpty())
        return usage(*m_current, tr("no command given"));

    SpawnRequest request;
    request.argv = argv;
    request.cwd = QDir::currentPath();
    for (const char *name : { "TERM", "LANG", "LC_ALL" }) {
        if (qEnvironmentVariableIsSet(name))
            request.env.insert(QString::fromLatin1(name), qEnvironmentVariable(name));
    }
    if (options.values.contains(QStringLiteral("--timeout"))) {
        bool ok = false;
        const double seconds = options.values.value(QStringLiteral("--timeout")).toDouble(&ok);
        if (!ok || seconds <= 0)
            return usage(*m_current, tr("--timeout expects a positive number of seconds"));
        request.timeoutMs = qint64(seconds * 1000);
    }
    if (options.values.contains(QStringLiteral("--policy"))) {
        const QString path = options.values.value(QStringLiteral("--policy"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return fail(tr("cannot read %1: %2").arg(path, file.errorString()), RunError);
        const Result<QJsonObject> json = parseJsonObject(file.readAll(), path);
        if (!json.ok())
            return failWith(json.error(), RunError);
        const Result<Policy> parsed = Policy::fromJson(json.value(), path);
        if (!parsed.ok())
            return failWith(parsed.error(), RunError);
        request.policy = parsed.value();
    }

    std::unique_ptr<RemoteProcess> process = m_client->spawn(request);
    QEventLoop loop;
    int exitStatus = RunError;
    connect(process.get(), &RemoteProcess::stdoutReady, this,
            [](const QByteArray &data) { Terminal::writeAll(STDOUT_FILENO, data); });
    connect(process.get(), &RemoteProcess::stderrReady, this,
            [](const QByteArray &data) { Terminal::writeAll(STDERR_FILENO, data); });
    connect(process.get(), &RemoteProcess::failedToStart, this, [&](const Error &error) {
        failWith(Error{ error.where, tr("cannot run %1: %2").arg(argv.constFirst(), error.message), error.details },
                 RunError);
        exitStatus = RunError;
        loop.quit();
    });
    connect(process.get(), &RemoteProcess::finished, this, [&](const ExitStatus &status) {
        if (status.timedOut)
            fail(tr("%1 timed out after %2 s and was killed")
                     .arg(argv.constFirst(), options.values.value(QStringLiteral("--timeout"))));
        exitStatus = status.shellStatus();
        loop.quit();
    });
    connect(m_client.get(), &Client::disconnected, this, [&](const QString &reason) {
        fail(tr("lost the engine while %1 was running: %2").arg(argv.constFirst(), reason), RunError);
        exitStatus = RunError;
        loop.quit();
    });

    // Our stdin goes to the command; end of input closes its stdin.
    std::unique_ptr<QSocketNotifier> stdinNotifier;
    if (::fcntl(STDIN_FILENO, F_GETFD) == -1) {
        process->closeStdin();
    } else {
        stdinNotifier = std::make_unique<QSocketNotifier>(STDIN_FILENO, QSocketNotifier::Read);
        connect(stdinNotifier.get(), &QSocketNotifier::activated, this, [&] {
            char buffer[65536];
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n > 0) {
                process->writeStdin(QByteArray(buffer, n));
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                stdinNotifier->setEnabled(false);
                process->closeStdin();
            }
        });
    }
    // Ctrl-C or a TERM to sandboxctl stops the sandboxed command, whose status we then report.
    SignalWatcher signalWatcher({ SIGINT, SIGTERM, SIGHUP });
    connect(&signalWatcher, &SignalWatcher::signalReceived, this, [&] { process->kill(); });

    loop.exec();
    return exitStatus;
}

int Commands::ps(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty() || !options.positional.isEmpty())
        return usage(*m_current, options.error.isEmpty() ? tr("unexpected argument") : options.error);
    const Result<QList<ProcessInfo>> list = await(m_client->processes());
    if (!list.ok())
        return failWith(list.error());
    printList(list.value(), options.flags.contains(QStringLiteral("--json")),
              { tr("ID"), tr("PID"), tr("BACKEND"), tr("STATE"), tr("STARTED"), tr("COMMAND") },
              [](const ProcessInfo &info) {
                  return QStringList{ QString::number(info.id),
                                      QString::number(info.pid),
                                      info.owner.toString(),
                                      info.running ? tr("running") : tr("exited %1").arg(info.exit.shellStatus()),
                                      info.startedAt,
                                      info.argv.join(QLatin1Char(' ')) };
              });
    return 0;
}

int Commands::kill(const QStringList &args)
{
    const OptionParser options(args, {}, {});
    bool ok = false;
    const quint64 id = options.positional.value(0).toULongLong(&ok);
    if (!options.error.isEmpty() || options.positional.size() != 1 || !ok || id == 0)
        return usage(*m_current,
                     options.error.isEmpty() ? tr("expects one process ID (see sandboxctl ps)") : options.error);
    const Status status = await(m_client->kill(id));
    if (!status.ok())
        return failWith(status.error());
    Terminal::out(tr("killed process %1\n").arg(id));
    return 0;
}

int Commands::packs(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty())
        return usage(*m_current, options.error);
    const QStringList &p = options.positional;
    const QString action = p.value(0, QStringLiteral("list"));
    if (action == QLatin1String("list")) {
        if (p.size() > 1)
            return usage(*m_current, tr("packs list takes no arguments"));
        const Result<QList<PackInfo>> list = await(m_client->packs());
        if (!list.ok())
            return failWith(list.error());
        printList(list.value(), options.flags.contains(QStringLiteral("--json")),
                  { tr("ID"), tr("NAME"), tr("VERSION"), tr("PUBLISHER"), tr("STATE"), tr("BACKENDS") },
                  [](const PackInfo &info) {
                      QStringList refs;
                      for (const BackendRef &ref : info.backends)
                          refs.append(ref.toString());
                      return QStringList{ info.id,
                                          info.name,
                                          info.version,
                                          info.publisher,
                                          info.enabled ? tr("enabled") : tr("disabled"),
                                          refs.join(QStringLiteral(", ")) };
                  });
        return 0;
    }
    if (p.size() != 2)
        return usage(*m_current, tr("expects list, or enable|disable|remove ID"));
    QFuture<Status> future;
    QString done;
    if (action == QLatin1String("enable")) {
        future = m_client->enablePack(p[1]);
        done = tr("enabled pack %1\n");
    } else if (action == QLatin1String("disable")) {
        future = m_client->disablePack(p[1]);
        done = tr("disabled pack %1\n");
    } else if (action == QLatin1String("remove")) {
        future = m_client->removePack(p[1]);
        done = tr("removed pack %1\n");
    } else {
        return usage(*m_current, tr("unknown packs action \"%1\"").arg(action));
    }
    const Status status = await(future);
    if (!status.ok())
        return failWith(status.error());
    Terminal::out(done.arg(p[1]));
    return 0;
}

int Commands::status(const QStringList &args)
{
    const OptionParser options(args, { QStringLiteral("--json") }, {});
    if (!options.error.isEmpty() || !options.positional.isEmpty())
        return usage(*m_current, options.error.isEmpty() ? tr("unexpected argument") : options.error);
    const Result<QJsonObject> status = await(m_client->status());
    if (!status.ok())
        return failWith(status.error());
    QJsonObject s = status.value();
    s.insert(QStringLiteral("embedded"), m_host->isOwner());
    s.insert(QStringLiteral("socket"), m_host->socketPath());
    if (options.flags.contains(QStringLiteral("--json"))) {
        printJson(s);
        return 0;
    }
    const QJsonObject server = s.value(QStringLiteral("server")).toObject();
    const Result<BackendRef> active = BackendRef::fromJson(s.value(QStringLiteral("active")), QStringLiteral("active"));
    QString text;
    text += tr("engine:          pid %1, version %2, protocol %3, %4\n")
                .arg(jsonText(server.value(QStringLiteral("pid"))), jsonText(server.value(QStringLiteral("version"))),
                     jsonText(server.value(QStringLiteral("protocolVersion"))),
                     m_host->isOwner() ? tr("embedded in this command") : tr("serving %1").arg(m_host->socketPath()));
    text += tr("active backend:  %1\n").arg(active.ok() ? active.value().toString() : tr("none"));
    text += tr("processes:       %1 running\n").arg(jsonText(s.value(QStringLiteral("processes"))));
    text += tr("clients:         %1\n").arg(jsonText(s.value(QStringLiteral("clients"))));
    const QJsonArray warnings = s.value(QStringLiteral("warnings")).toArray();
    for (const QJsonValue &warning : warnings)
        text += tr("warning:         %1\n").arg(warning.toString());
    Terminal::out(text);
    return 0;
}

} // namespace sandbox
