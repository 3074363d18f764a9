#pragma once

#include "core/Engine.h"
#include "protocol/Error.h"

#include <QFuture>
#include <QObject>
#include <QThread>

#include <functional>
#include <memory>

namespace sandbox {

class Client;
class LocalServer;
class ProtocolServer;

// The engine, its protocol server and its local socket server on a thread of their own,
// so the thread that presents (Studio's GUI thread, sandboxd's main thread) never waits
// on the keychain, a lock file, a launcher, a process or the network. Presenters reach
// the engine only through Clients over the in-process transport, which queues messages
// between the threads. Everything here is called from the thread that made the object.
class EngineThread final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        Engine::Options engine;
        // Runs on the engine thread before the engine is made and gives the options it is
        // made with (they may need files read); empty: `engine` as it is.
        std::function<Engine::Options(const Engine::Options &)> completeEngineOptions;
        QString socketPath; // empty: serve no local socket
        // Runs on the engine thread once the engine exists, before it serves anyone:
        // registers launchers and installs packs.
        std::function<void(Engine &)> setUp;
    };

    explicit EngineThread(Options options, QObject *parent = nullptr);
    // stop(), then joins the thread.
    ~EngineThread() override;

    // Starts the thread and sets the engine up there; ready() or failed() follows. Returns
    // at once.
    void start();
    // A Client of this engine, usable at once: what it sends before the engine is ready
    // is served once it is. Call after start().
    std::unique_ptr<Client> createClient();
    // Ends every process spawned through the engine, stops serving, destroys the engine
    // (every wait in it is bounded) and ends the thread. Events of this thread keep being
    // delivered meanwhile.
    void stop();

    bool isReady() const { return m_ready; }
    // Once ready(): the engine (for wiring only) and the start-up restore of the selection.
    Engine *engine() const { return m_ready ? m_engine.get() : nullptr; }
    QFuture<ActivationResult> restored() const { return m_restored; }

signals:
    void ready();
    void failed(const sandbox::Error &error);

private:
    void setUpOnEngineThread();
    void tearDownOnEngineThread();

    Options m_options;
    QThread m_thread;
    QObject *m_context = nullptr; // lives in m_thread
    // Made, used and destroyed on m_thread only.
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<ProtocolServer> m_server;
    std::unique_ptr<LocalServer> m_localServer;
    QFuture<ActivationResult> m_restored;
    bool m_ready = false; // this thread's view, set when ready() is delivered
    bool m_stopped = false;
};

} // namespace sandbox
