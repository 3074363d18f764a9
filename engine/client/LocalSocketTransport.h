#pragma once

#include "client/Transport.h"

#include <QLocalSocket>

#include <memory>

namespace sandbox {

// A Transport over a QLocalSocket (a Unix domain socket on Linux and macOS). On Linux a
// frame goes to the socket as it is sent, not when the event loop next polls it, and the
// answers to the messages of one read go out together, in one write.
class LocalSocketTransport final : public Transport
{
    Q_OBJECT

public:
    // Takes ownership of a connected socket (the server side of an accepted connection).
    explicit LocalSocketTransport(QLocalSocket *socket, QString peerDescription, QObject *parent = nullptr);
    ~LocalSocketTransport() override;

    // Connects to a server; blocks up to timeoutMs. On failure returns null and sets *error;
    // *refused says a server answered but is not run by our uid (so do not retry).
    static std::unique_ptr<LocalSocketTransport> connectTo(const QString &path, int timeoutMs, QString *error,
                                                           bool *refused = nullptr);

    void close() override;
    bool isOpen() const override;
    QString peerDescription() const override { return m_peer; }

protected:
    void writeFrame(const QByteArray &frame) override;

private:
    void onReadyRead();
    void onDisconnected();
    // Writes m_unsent (see writeFrame()).
    void sendUnsent();

    QLocalSocket *m_socket;
    QString m_peer;
    bool m_closing = false;
    bool m_receiving = false; // handing out the messages of one read: answers wait for the end
    QByteArray m_unsent; // frames not yet given to the socket
};

} // namespace sandbox
