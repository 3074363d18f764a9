#pragma once

#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>

#include <memory>
#include <optional>

namespace sandbox {

class Client;
class RemoteProcess;

// One ACP terminal: a command the engine runs in the active backend for the agent. Keeps
// the combined stdout and stderr up to the agent's byte limit (dropping from the start, at
// a UTF-8 character boundary, as ACP asks) and how the command ended.
class AcpTerminal final : public QObject
{
    Q_OBJECT

public:
    AcpTerminal(Client &client, const SpawnRequest &request, qint64 outputByteLimit, QObject *parent = nullptr);
    ~AcpTerminal() override;

    bool hasStarted() const { return m_started; }
    bool hasExited() const { return m_exit.has_value(); }
    void kill();

    // ACP's TerminalOutputResponse: { output, truncated, exitStatus? }.
    QJsonObject outputResponse() const;
    // ACP's TerminalExitStatus: { exitCode: int|null, signal: string|null }.
    QJsonObject exitStatusJson() const;

signals:
    void started();
    void failedToStart(const sandbox::Error &error);
    void exited();

private:
    void append(const QByteArray &data);

    std::unique_ptr<RemoteProcess> m_process;
    qint64 m_limit;
    QByteArray m_output;
    bool m_truncated = false;
    bool m_started = false;
    std::optional<ExitStatus> m_exit;
};

} // namespace sandbox
