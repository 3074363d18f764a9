#pragma once

#include "core/Engine.h"
#include "protocol/Error.h"

#include <QObject>
#include <QString>

#include <memory>

namespace sandbox {

class Client;
class LocalServer;
class OwnerLock;
class ProtocolServer;

// Makes sure exactly one engine serves this user and hands out Clients for it. start()
// either connects to the running owner (Studio, sandboxd or an embedding sandboxctl) over
// the local socket, or, when nobody owns the engine, becomes the owner: creates the
// Engine with the built-in launchers, restores the last selection, serves the local
// socket and returns a Client over the in-process transport. Ownership is an flock on a
// lock file next to the socket, so two processes starting at once never both own it.
class EngineHost final : public QObject
{
    Q_OBJECT

public:
    enum class Mode {
        ConnectOrHost, // presenters: use the running engine, else host one
        HostOnly, // sandboxd, sandboxctl --embedded: host, or fail if one is running
    };

    struct Options
    {
        Mode mode = Mode::ConnectOrHost;
        QString socketPath; // default: RuntimeDirectory::defaultSocketPath()
        Engine::Options engine; // used only when this process becomes the owner
        int connectTimeoutMs = 5000;
    };

    // Where atom pack plugins are looked for: $SANDBOX_PACK_PATH (colon-separated), then
    // <prefix>/lib/sandbox-studio/packs beside the binary (installed) and <build>/lib/packs.
    static QStringList packDirectories();

    // Engine options from the environment: SANDBOX_CONFIG_DIR, SANDBOX_STATE_DIR;
    // `configDirectory` (a --config-dir option) wins over the environment. Directories
    // left empty are the user's shared ones (ConfigurationLocation).
    static Engine::Options engineOptionsFromEnvironment(const QString &configDirectory = {});

    explicit EngineHost(Options options, QObject *parent = nullptr);
    // As owner: ends every running process, stops serving, then destroys the engine.
    ~EngineHost() override;

    Result<std::unique_ptr<Client>> start();
    // Another Client of the same engine (in-process when owner, another connection otherwise).
    Result<std::unique_ptr<Client>> createClient();

    bool isOwner() const { return m_engine != nullptr; }
    // When start() failed in HostOnly mode because another process owns the engine.
    bool anotherOwnerRunning() const { return m_anotherOwner; }
    qint64 ownerPid() const;
    QString socketPath() const { return m_socketPath; }
    // The owner's engine, for wiring only (presenters go through Client).
    Engine *engine() const { return m_engine.get(); }
    ProtocolServer *server() const { return m_server.get(); }
    // As owner: the restore of the last selection started by start() (finished otherwise).
    QFuture<ActivationResult> restored() const { return m_restored; }

    // Ends every process spawned through this engine (before a clean exit).
    void shutdown();

private:
    Result<std::unique_ptr<Client>> host();
    // The engine's options as this user's shared configuration completes them: its
    // directories (after taking over an earlier version's per-program files), the keychain
    // service and the plaintext-secret opt-in.
    Engine::Options resolvedEngineOptions() const;
    void installPacks();

    Options m_options;
    QString m_socketPath;
    std::unique_ptr<OwnerLock> m_lock;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<ProtocolServer> m_server;
    std::unique_ptr<LocalServer> m_localServer;
    bool m_anotherOwner = false;
    QFuture<ActivationResult> m_restored;
};

} // namespace sandbox
