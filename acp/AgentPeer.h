#pragma once

#include "LineBuffer.h"

#include <QObject>
#include <QProcess>
#include <QStringList>

#include <memory>

namespace sandbox {

class Client;
class RemoteProcess;

// The ACP agent sandbox-acp stands in front of: a process on the host, or (confined) a
// process the engine runs in the active backend. Its stdout arrives as lines; its stderr
// goes to ours (stdout is the protocol, never a log).
class AgentPeer final : public QObject
{
    Q_OBJECT

public:
    explicit AgentPeer(QObject *parent = nullptr);
    ~AgentPeer() override;

    void startOnHost(const QStringList &argv);
    void startConfined(Client &client, const QStringList &argv, const QString &workspace);
    void write(const QByteArray &line);
    void closeInput();
    void kill();
    bool isRunning() const { return m_running; }

signals:
    void lineReceived(const QByteArray &line, bool overlong);
    // `status` is the shell convention (exit code or 128 + signal); `reason` when it never ran.
    void finished(int status, const QString &reason);

private:
    void receive(const QByteArray &data);
    void end(int status, const QString &reason);

    LineBuffer m_lines;
    std::unique_ptr<QProcess> m_hostProcess;
    std::unique_ptr<RemoteProcess> m_confined;
    bool m_running = false;
    bool m_ended = false;
};

} // namespace sandbox
