#pragma once

#include <QObject>
#include <QStringList>

#include <memory>

namespace sandbox {

class EngineProvider;
class SignalWatcher;

// sandboxd: the engine and its protocol server without a window. Owns the per-user
// engine (or reports that another process does), logs to stderr (the journal under
// systemd), and shuts down cleanly on SIGTERM/SIGINT.
class Daemon final : public QObject
{
    Q_OBJECT

public:
    explicit Daemon(QObject *parent = nullptr);
    ~Daemon() override;

    // Parses the command line and runs until a signal ends the daemon; the exit status.
    int run(const QStringList &arguments);

private:
    void logEvents();
    void stop(int signalNumber);

    std::unique_ptr<EngineProvider> m_provider;
    std::unique_ptr<SignalWatcher> m_signals;
};

} // namespace sandbox
