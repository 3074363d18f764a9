#pragma once

#include "core/Engine.h"
#include "protocol/BackendRef.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFuture>
#include <QTemporaryDir>

#include <functional>
#include <memory>

namespace sandbox {
class Client;
class ProtocolServer;
} // namespace sandbox

namespace sandbox::test {

// A real engine (settings in a temporary directory, secrets in the session's keychain)
// with the GUI test pack installed, served over the in-process transport, and the
// Client Studio's widgets talk to: the same path as in the application.
class StudioHarness final
{
public:
    StudioHarness();
    // On the files under `directory` (config/, state/) that an earlier harness left: a
    // restart of the application. `setUp` runs on the engine before the pack is installed
    // (registers built-in backends, for instance).
    explicit StudioHarness(const QString &directory, const std::function<void(Engine &)> &setUp = {});
    ~StudioHarness();

    Engine &engine() { return *m_engine; }
    Client *client() { return m_client.get(); }
    // What serves the engine's protocol: tests put it on a local socket for sandboxctl.
    ProtocolServer &server() { return *m_server; }
    QString directory() const { return m_directory; }

    // Activates a test-pack backend through the Client and waits for the outcome.
    ActivationResult activate(const QString &kind);

    // Waits for a future while the event loop runs (results arrive through it).
    template <typename T> static T await(QFuture<T> future, int timeoutMs = 30000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!future.isFinished() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        return future.isFinished() ? future.result() : T();
    }

private:
    QTemporaryDir m_dir;
    QString m_directory;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<ProtocolServer> m_server;
    std::unique_ptr<Client> m_client;
};

} // namespace sandbox::test
