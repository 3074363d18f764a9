#include "EngineProvider.h"

#include "ConfigurationLocation.h"
#include "ConfigurationMigration.h"
#include "PlaintextSecretsOptIn.h"
#include "client/Client.h"
#include "client/LocalSocketTransport.h"
#include "client/OwnerLock.h"
#include "core/packs/AtomPack.h"
#include "launchers/Builtins.h"
#include "protocol/RuntimeDirectory.h"
#include "server/EngineThread.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QPluginLoader>
#include <QThread>
#include <QTimer>

namespace sandbox {

Engine::Options EngineProvider::engineOptionsFromEnvironment(const QString &configDirectory)
{
    Engine::Options options;
    options.configDirectory = configDirectory.isEmpty() ? qEnvironmentVariable("SANDBOX_CONFIG_DIR") : configDirectory;
    options.stateDirectory = qEnvironmentVariable("SANDBOX_STATE_DIR");
    options.keychainService = ConfigurationLocation::keychainService();
    return options;
}

EngineProvider::EngineProvider(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_socketPath(m_options.socketPath.isEmpty() ? RuntimeDirectory::defaultSocketPath()
                                                  : QFileInfo(m_options.socketPath).absoluteFilePath())
{ }

EngineProvider::~EngineProvider()
{
    shutdown();
    m_engineThread.reset();
    m_lock.reset(); // last: a successor may take over only once we are gone
}

Engine *EngineProvider::engine() const
{
    return m_engineThread ? m_engineThread->engine() : nullptr;
}

QFuture<ActivationResult> EngineProvider::restored() const
{
    return m_engineThread ? m_engineThread->restored() : QFuture<ActivationResult>();
}

qint64 EngineProvider::ownerPid() const
{
    if (isOwner())
        return QCoreApplication::applicationPid();
    return OwnerLock(RuntimeDirectory::lockPathFor(m_socketPath)).ownerPid();
}

void EngineProvider::shutdown()
{
    if (m_engineThread)
        m_engineThread->stop();
}

Result<std::unique_ptr<Client>> EngineProvider::start()
{
    if (isOwner())
        return createClient();
    if (const Status length = RuntimeDirectory::checkSocketPath(m_socketPath); !length.ok())
        return length.error();
    const QString directory = QFileInfo(m_socketPath).absolutePath();
    const QString lockPath = RuntimeDirectory::lockPathFor(m_socketPath);
    QDeadlineTimer deadline(m_options.connectTimeoutMs);
    QString lastError;
    for (;;) {
        if (m_options.mode != Mode::HostOnly) {
            QString error;
            bool refused = false;
            auto transport = LocalSocketTransport::connectTo(m_socketPath, 1000, &error, &refused);
            if (transport)
                return std::make_unique<Client>(std::move(transport));
            if (refused)
                return Error{ m_socketPath, error, {} };
            lastError = error;
        }
        // Nobody answers: try to become the owner. Only the lock decides, so two processes
        // racing here never both host an engine.
        if (const Status dir = RuntimeDirectory::ensure(directory); !dir.ok()) {
            if (m_options.mode == Mode::HostOnly)
                return dir.error();
            lastError = dir.error().toString();
        } else {
            if (!m_lock)
                m_lock = std::make_unique<OwnerLock>(lockPath);
            const Result<bool> acquired = m_lock->tryAcquire();
            if (acquired.ok() && acquired.value() && m_options.mode == Mode::ConnectOrPrivate) {
                // Nobody owns the engine: this process hosts one of its own, leaving ownership
                // (and the socket) to whichever owner starts next.
                m_lock.reset();
                return host();
            }
            if (acquired.ok() && acquired.value())
                return host();
            if (!acquired.ok())
                lastError = acquired.error().toString();
            else if (m_options.mode == Mode::HostOnly) {
                m_anotherOwner = true;
                m_lock.reset();
                return Error{ m_socketPath,
                              tr("an engine is already running for this user (pid %1)").arg(ownerPid()),
                              {} };
            }
        }
        if (deadline.hasExpired())
            break;
        // The owner is starting up (or just exiting): look again shortly.
        QThread::msleep(50);
    }
    m_lock.reset();
    return Error{ m_socketPath, tr("cannot reach the engine: %1").arg(lastError), {} };
}

Engine::Options EngineProvider::resolvedEngineOptions() const
{
    Engine::Options options = m_options.engine;
    QStringList report;
    // Only the shared default location takes over what earlier versions kept per program;
    // an explicitly chosen directory is used as it is.
    if (options.configDirectory.isEmpty() || options.stateDirectory.isEmpty()) {
        const QString config
            = options.configDirectory.isEmpty() ? ConfigurationLocation::configDirectory() : options.configDirectory;
        const QString state
            = options.stateDirectory.isEmpty() ? ConfigurationLocation::stateDirectory() : options.stateDirectory;
        QList<ConfigurationLocation::Legacy> legacy = ConfigurationLocation::legacyLocations();
        for (ConfigurationLocation::Legacy &location : legacy) {
            if (!m_options.engine.configDirectory.isEmpty())
                location.configDirectory.clear();
            if (!m_options.engine.stateDirectory.isEmpty())
                location.stateDirectory.clear();
        }
        report = ConfigurationMigration(config, state, legacy).run();
        options.configDirectory = config;
        options.stateDirectory = state;
    }
    QString warning;
    const Result<bool> plaintext = PlaintextSecretsOptIn::read(options.configDirectory, &warning);
    if (!warning.isEmpty())
        report.append(warning);
    if (!plaintext.ok())
        report.append(tr("The secret storage choice could not be read, so secrets use the keychain: %1")
                          .arg(plaintext.error().toString()));
    else if (plaintext.value())
        options.allowPlaintextSecrets = true;
    for (const QString &line : std::as_const(report))
        qWarning("%s", qPrintable(line));
    options.startupWarnings += report;
    return options;
}

Result<std::unique_ptr<Client>> EngineProvider::host()
{
    EngineThread::Options options;
    options.engine = m_options.engine;
    // Completing them reads and may migrate files: on the engine thread, not this one.
    options.completeEngineOptions = [this](const Engine::Options &) { return resolvedEngineOptions(); };
    if (m_options.mode != Mode::ConnectOrPrivate)
        options.socketPath = m_socketPath;
    options.setUp = [planRecording = m_options.planRecording](Engine &engine) {
        registerBuiltinLaunchers(engine, planRecording);
        installPacks(engine);
    };
    m_engineThread = std::make_unique<EngineThread>(options);
    if (!m_options.waitUntilServing) {
        connect(m_engineThread.get(), &EngineThread::failed, this, &EngineProvider::engineFailed);
        m_engineThread->start();
        return createClient();
    }

    std::optional<Error> failure;
    QEventLoop loop;
    connect(m_engineThread.get(), &EngineThread::ready, &loop, &QEventLoop::quit);
    connect(m_engineThread.get(), &EngineThread::failed, &loop, [&](const Error &error) {
        failure = error;
        loop.quit();
    });
    m_engineThread->start();
    loop.exec();
    if (failure) {
        m_engineThread.reset();
        m_lock.reset();
        return *failure;
    }
    connect(m_engineThread.get(), &EngineThread::failed, this, &EngineProvider::engineFailed);
    return createClient();
}

QStringList EngineProvider::packDirectories()
{
    QStringList directories;
    for (const QString &dir : qEnvironmentVariable("SANDBOX_PACK_PATH").split(QLatin1Char(':'), Qt::SkipEmptyParts))
        directories.append(dir);
    const QString bin = QCoreApplication::applicationDirPath();
    directories.append(QDir::cleanPath(bin + QStringLiteral("/../lib/sandbox-studio/packs")));
    directories.append(QDir::cleanPath(bin + QStringLiteral("/../lib/packs")));
    return directories;
}

void EngineProvider::installPacks(Engine &engine)
{
    engine.loadInstalledPacks();
    for (const QString &directory : packDirectories()) {
        const QFileInfoList files = QDir(directory).entryInfoList(QDir::Files, QDir::Name);
        for (const QFileInfo &file : files) {
            if (!QLibrary::isLibrary(file.fileName()))
                continue;
            // The loader keeps the plugin loaded for the life of the process; the pack object
            // is the plugin's root instance, owned by the loader, hence the no-op deleter.
            QPluginLoader loader(file.absoluteFilePath());
            auto *pack = qobject_cast<AtomPack *>(loader.instance());
            if (!pack) {
                qWarning(
                    "%s",
                    qPrintable(
                        tr("not an atom pack, skipped: %1 (%2)").arg(file.absoluteFilePath(), loader.errorString())));
                continue;
            }
            const Status installed = engine.installDiscoveredPack(std::shared_ptr<AtomPack>(pack, [](AtomPack *) {}));
            if (!installed.ok())
                qWarning("%s",
                         qPrintable(tr("atom pack %1 was not installed: %2")
                                        .arg(file.absoluteFilePath(), installed.error().toString())));
        }
    }
}

Result<std::unique_ptr<Client>> EngineProvider::createClient()
{
    if (!isOwner()) {
        QString error;
        auto transport = LocalSocketTransport::connectTo(m_socketPath, m_options.connectTimeoutMs, &error);
        if (!transport)
            return Error{ m_socketPath, error, {} };
        return std::make_unique<Client>(std::move(transport));
    }
    return m_engineThread->createClient();
}

} // namespace sandbox
