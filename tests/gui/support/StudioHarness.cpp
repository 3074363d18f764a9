#include "StudioHarness.h"

#include "TestPack.h"
#include "UnconfinedPolicy.h"
#include "client/Client.h"
#include "client/InProcessTransport.h"
#include "server/ProtocolServer.h"

#include <QDir>

namespace sandbox::test {

StudioHarness::StudioHarness()
    : StudioHarness(QString())
{ }

StudioHarness::StudioHarness(const QString &directory, const std::function<void(Engine &)> &setUp)
    : m_directory(directory.isEmpty() ? m_dir.path() : directory)
{
    static int serial = 0;
    Engine::Options options;
    options.configDirectory = QDir(m_directory).filePath(QStringLiteral("config"));
    options.stateDirectory = QDir(m_directory).filePath(QStringLiteral("state"));
    // Each harness has its own keychain entries, so tests never see each other's secrets.
    options.keychainService
        = QStringLiteral("sandbox-studio-guitest-%1-%2").arg(QCoreApplication::applicationPid()).arg(++serial);
    m_engine = std::make_unique<Engine>(options);
    if (const Status set = m_engine->setPolicy(unconfinedPolicy()); !set.ok())
        qFatal("setting the host process policy failed: %s", qPrintable(set.error().toString()));
    if (setUp)
        setUp(*m_engine);
    const Status installed = m_engine->installPack(std::make_shared<TestPack>());
    if (!installed)
        qFatal("installing the GUI test pack failed: %s", qPrintable(installed.error().toString()));
    m_server = std::make_unique<ProtocolServer>(*m_engine);
    auto [serverEnd, clientEnd] = InProcessTransport::createPair();
    m_server->addConnection(std::move(serverEnd));
    m_client = std::make_unique<Client>(std::move(clientEnd));
}

StudioHarness::~StudioHarness()
{
    m_client.reset();
    m_server->killAllProcesses();
    m_server.reset();
    m_engine.reset();
}

ActivationResult StudioHarness::activate(const QString &kind)
{
    const Result<ActivationResult> result = await(m_client->activate(TestPack::ref(kind)));
    if (!result) {
        ActivationResult failed;
        failed.error = result.error();
        return failed;
    }
    return result.value();
}

} // namespace sandbox::test
