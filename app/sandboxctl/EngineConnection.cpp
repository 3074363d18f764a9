#include "EngineConnection.h"

#include "Command.h"
#include "InteractionResponder.h"
#include "Terminal.h"
#include "client/Client.h"
#include "common/EngineProvider.h"

#ifdef Q_OS_LINUX
#include "launchers/auto/linux/handoff/PlanRecorder.h"
#endif

namespace sandbox {

EngineConnection::EngineConnection(GlobalOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{ }

EngineConnection::~EngineConnection()
{
    m_responder.reset();
    m_client.reset();
    m_provider.reset();
}

int EngineConnection::open(int errorStatus, bool privately)
{
    EngineProvider::Options options;
    options.mode = m_options.embedded ? EngineProvider::Mode::HostOnly
        : privately                   ? EngineProvider::Mode::ConnectOrPrivate
                                      : EngineProvider::Mode::ConnectOrHost;
    options.socketPath = m_options.socket;
    options.engine = EngineProvider::engineOptionsFromEnvironment(m_options.configDirectory);
#ifdef Q_OS_LINUX
    m_planRecording = std::make_shared<PlanRecording>();
    options.planRecording = m_planRecording;
#endif
    m_provider = std::make_unique<EngineProvider>(options);
    Result<std::unique_ptr<Client>> client = m_provider->start();
    if (!client.ok()) {
        if (m_provider->anotherOwnerRunning())
            return Command::fail(tr("--embedded: an engine already runs for this user (pid %1); run without "
                                    "--embedded to use it")
                                     .arg(m_provider->ownerPid()),
                                 errorStatus);
        return Command::fail(tr("cannot reach or start the engine: %1").arg(client.error().toString()), errorStatus);
    }
    m_client = std::move(client).value();
    m_responder = std::make_unique<InteractionResponder>(*m_client, m_options.answers);
    if (m_provider->isOwner()) {
        // Commands see the engine as a running owner would show it: selection restored,
        // and the restore's own events delivered (so none is mistaken for a later one's).
        // Restoring may ask a question (this process hosts the engine, so it must answer);
        // a refused one makes the restore fall back, which is not this command's failure.
        m_responder->setEnabled(true);
        const ActivationResult restored = await(m_provider->restored());
        // The engine sent the restore's notices before it ended, so the answer to a request
        // made now comes behind them: once it is here, they have all been delivered (none
        // at all when this client connected after the restore had ended).
        if (restored.activationId != 0)
            await(m_client->processes());
        m_responder->forgetUnanswerable();
    } else if (!m_options.configDirectory.isEmpty()) {
        Terminal::err(tr("sandboxctl: note: --config-dir applies only to an engine this command hosts; the running "
                         "engine (pid %1) uses its own\n")
                          .arg(m_provider->ownerPid()));
    }
    return 0;
}

} // namespace sandbox
