#include "ActivationReport.h"

#include "Command.h"
#include "EngineConnection.h"
#include "Terminal.h"
#include "client/Client.h"

#include <QSet>

#include <memory>

namespace sandbox {

int ActivationReport::activate(EngineConnection &engine, const BackendRef &ref,
                               const std::optional<SettingsValues> &candidate, const QList<SecretUpdate> &secrets)
{
    Client &client = engine.client();
    // Events of activations that ended before ours (e.g. the start-up restore) are not ours.
    auto finished = std::make_shared<QSet<quint64>>();
    QMetaObject::Connection finishedConnection
        = QObject::connect(&client, &Client::activationFinished, &engine,
                           [finished](const ActivationResult &result) { finished->insert(result.activationId); });
    QMetaObject::Connection eventConnection
        = QObject::connect(&client, &Client::activationEvent, &engine, [ref, finished](const ActivationEvent &event) {
              if (event.ref != ref || finished->contains(event.activationId))
                  return;
              QString line = QStringLiteral("%1 %2").arg(activationStepName(event.step).leftJustified(16),
                                                         ActivationEvent::stateName(event.state));
              if (!event.message.isEmpty())
                  line += QStringLiteral(": ") + event.message;
              Terminal::out(line + QLatin1Char('\n'));
          });
    const Result<ActivationResult> result = EngineConnection::await(client.activate(ref, candidate, secrets));
    QObject::disconnect(finishedConnection);
    QObject::disconnect(eventConnection);
    if (!result.ok())
        return Command::failWith(result.error());
    const ActivationResult &r = result.value();
    if (r.ok) {
        Terminal::out(tr("activated %1\n").arg(r.ref.toString()));
        return 0;
    }
    const QString step = r.failedStep ? activationStepName(*r.failedStep) : tr("unknown step");
    Command::fail(tr("activation of %1 failed at %2: %3").arg(r.ref.toString(), step, r.error.toString()));
    Terminal::err(tr("sandboxctl: the active backend is still %1\n").arg(r.active.toString()));
    return Command::Failure;
}

int ActivationReport::applySettings(EngineConnection &engine, const BackendRef &ref, const SettingsValues &values,
                                    const QList<SecretUpdate> &secrets)
{
    const Result<BackendInfo> info = EngineConnection::await(engine.client().describe(ref));
    if (!info.ok())
        return Command::failWith(info.error());
    if (info.value().active)
        return activate(engine, ref, values, secrets);
    const Status status = EngineConnection::await(engine.client().updateSettings(ref, values, secrets));
    if (!status.ok())
        return Command::failWith(status.error());
    Terminal::out(tr("saved settings of %1\n").arg(ref.toString()));
    return 0;
}

} // namespace sandbox
