#pragma once

#include "client/Client.h"

#include <QByteArrayList>
#include <QJsonObject>

#include <functional>
#include <optional>

namespace sandbox {

// The RemoteProcess a Client hands out: forwards stdin and kill requests as protocol
// calls and turns process.* notifications into signals. Until the server has assigned an
// id, stdin writes are queued so nothing typed early is lost.
class ClientProcess final : public RemoteProcess
{
    Q_OBJECT

public:
    using Sender = std::function<void(const QString &method, const QJsonObject &params)>;

    explicit ClientProcess(Sender sender, QObject *parent = nullptr);
    ~ClientProcess() override;

    quint64 id() const override { return m_id; }
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void kill() override;
    void deliverSignal(ProcessSignal signal) override;
    void resizeTerminal(const TerminalSize &size) override;

    // From the Client.
    void assignId(quint64 id);
    void fail(const Error &error);
    void handleNotification(const QString &method, const QJsonObject &params);
    bool isDone() const { return m_done; }
    // Called by the Client when the connection is gone.
    void detachSender();

private:
    Sender m_sender;
    quint64 m_id = 0;
    bool m_done = false;
    bool m_stdinClosed = false;
    bool m_killRequested = false;
    std::optional<ProcessSignal> m_signalRequested;
    std::optional<TerminalSize> m_resizeRequested;
    QByteArrayList m_queuedStdin;
};

} // namespace sandbox
