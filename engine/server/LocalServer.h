#pragma once

#include "protocol/Error.h"

#include <QObject>
#include <QString>

class QLocalServer;

namespace sandbox {

class ProtocolServer;

// Serves a ProtocolServer on a local socket in the user's runtime directory. The socket
// is owner-only (0600) in an owner-only directory, and each peer's uid is checked with the
// kernel's credentials: another user's process is refused and the refusal logged.
class LocalServer final : public QObject
{
    Q_OBJECT

public:
    explicit LocalServer(ProtocolServer &server, QObject *parent = nullptr);
    ~LocalServer() override;

    // The caller must own the engine (OwnerLock): a socket left at `path` is then stale
    // and is replaced. The directory is created or verified as RuntimeDirectory requires.
    Status listen(const QString &path);
    void close();
    QString socketPath() const { return m_path; }
    bool isListening() const;

signals:
    void peerRefused(quint32 uid, qint64 pid);

private:
    void onNewConnection();

    ProtocolServer &m_server;
    QLocalServer *m_local;
    QString m_path;
};

} // namespace sandbox
