#pragma once

#include "GlobalOptions.h"

#include <QEventLoop>
#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <memory>

namespace sandbox {

class Client;
class EngineProvider;
class InteractionResponder;
class PlanRecording;

// The engine a sandboxctl command talks to: the running engine owner when there is one,
// else an engine embedded in this process (with its last selection restored), through a
// Client either way, and the responder that answers Host Interaction questions.
class EngineConnection final : public QObject
{
    Q_OBJECT

public:
    explicit EngineConnection(GlobalOptions options, QObject *parent = nullptr);
    ~EngineConnection() override;

    // Reaches or hosts the engine; 0, or `errorStatus` after reporting why not. `privately`:
    // an engine hosted here serves no other process (EngineProvider::Mode::ConnectOrPrivate).
    int open(int errorStatus, bool privately = false);

    const GlobalOptions &options() const { return m_options; }
    Client &client() const { return *m_client; }
    EngineProvider &provider() const { return *m_provider; }
    InteractionResponder &responder() const { return *m_responder; }
    // Where an engine hosted here records builtin:auto's plans for the run front once the
    // command installs a recorder (Linux; null elsewhere).
    PlanRecording *planRecording() const { return m_planRecording.get(); }

    // Runs the event loop until `future` has its result (the Client resolves every pending
    // call with an error when the engine goes away, so this cannot wait forever on a dead peer).
    template <typename T> static T await(const QFuture<T> &future)
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

private:
    GlobalOptions m_options;
    std::unique_ptr<EngineProvider> m_provider;
    std::unique_ptr<Client> m_client;
    std::unique_ptr<InteractionResponder> m_responder;
    std::shared_ptr<PlanRecording> m_planRecording;
};

} // namespace sandbox
