#pragma once

#include "core/Engine.h"
#include "protocol/Error.h"

#include <QObject>
#include <QString>

#include <memory>

namespace sandbox {

class Client;
class EngineThread;
class OwnerLock;
class PlanRecording;

// Makes sure exactly one engine serves this user and hands out Clients for it. start()
// either connects to the running owner (Studio, sandboxd or an embedding sandboxctl) over
// the local socket, or, when nobody owns the engine, becomes the owner: runs the Engine
// with the built-in launchers and the installed packs on its own thread (EngineThread),
// restores the last selection, serves the local socket and returns a Client over the
// in-process transport. Ownership is an flock on a lock file next to the socket, so two
// processes starting at once never both own it. In ConnectOrPrivate mode an engine hosted
// here is private: it neither owns nor serves.
class EngineProvider final : public QObject
{
    Q_OBJECT

public:
    enum class Mode {
        ConnectOrHost, // presenters: use the running engine, else host one
        HostOnly, // sandboxd, sandboxctl --embedded: host, or fail if one is running
        // sandboxctl run: use the running engine, else host one for this process alone,
        // serving no socket and taking no ownership, so that it ends with this process
        // without ending commands other processes run (each runs its own).
        ConnectOrPrivate,
    };

    struct Options
    {
        Mode mode = Mode::ConnectOrHost;
        QString socketPath; // default: RuntimeDirectory::defaultSocketPath()
        Engine::Options engine; // used only when this process becomes the owner
        // Where builtin:auto records its plans for sandboxctl's run front, as owner (Linux;
        // none: not recorded; registerBuiltinLaunchers).
        std::shared_ptr<PlanRecording> planRecording;
        int connectTimeoutMs = 5000;
        // As owner: start() returns once the engine serves (or failed to). Studio sets it
        // false and gets its Client at once; a failure then arrives as engineFailed().
        bool waitUntilServing = true;
    };

    // Where atom pack plugins are looked for: $SANDBOX_PACK_PATH (colon-separated), then
    // <prefix>/lib/sandbox-studio/packs beside the binary (installed) and <build>/lib/packs.
    static QStringList packDirectories();

    // Engine options from the environment: SANDBOX_CONFIG_DIR, SANDBOX_STATE_DIR;
    // `configDirectory` (a --config-dir option) wins over the environment. Directories
    // left empty are the user's shared ones (ConfigurationLocation).
    static Engine::Options engineOptionsFromEnvironment(const QString &configDirectory = {});

    explicit EngineProvider(Options options, QObject *parent = nullptr);
    // As owner: ends every running process, stops serving, then destroys the engine.
    ~EngineProvider() override;

    Result<std::unique_ptr<Client>> start();
    // Another Client of the same engine (in-process when owner, another connection otherwise).
    Result<std::unique_ptr<Client>> createClient();

    bool isOwner() const { return m_engineThread != nullptr; }
    // When start() failed in HostOnly mode because another process owns the engine.
    bool anotherOwnerRunning() const { return m_anotherOwner; }
    qint64 ownerPid() const;
    QString socketPath() const { return m_socketPath; }
    // The owner's engine once it serves, for wiring only (presenters go through Client).
    Engine *engine() const;
    // As owner, once the engine serves: the restore of the last selection started by start().
    QFuture<ActivationResult> restored() const;

    // Ends every process spawned through this engine and stops serving (before a clean exit).
    void shutdown();

signals:
    // As owner without waitUntilServing: the engine could not be set up to serve.
    void engineFailed(const sandbox::Error &error);

private:
    Result<std::unique_ptr<Client>> host();
    // The engine's options as this user's shared configuration completes them: its
    // directories (after taking over an earlier version's per-program files), the keychain
    // service and the plaintext-secret opt-in.
    Engine::Options resolvedEngineOptions() const;
    static void installPacks(Engine &engine);

    Options m_options;
    QString m_socketPath;
    std::unique_ptr<OwnerLock> m_lock;
    std::unique_ptr<EngineThread> m_engineThread;
    bool m_anotherOwner = false;
};

} // namespace sandbox
