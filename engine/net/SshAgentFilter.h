#pragma once

#include "protocol/Error.h"
#include "protocol/PolicySshAgent.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <functional>

class QLocalServer;

namespace sandbox {

// A signature that waits for the user's word (confirm "first-use" or "always").
struct SshAgentConfirmation
{
    QString fingerprint; // "SHA256:…"
    QString keyType; // "ssh-ed25519"
    QString comment; // as the user's agent lists the key; empty when it has not been listed
};

// Told of a signature to confirm; calls `answer` once, at once or later, on the filter's
// thread (true: sign, false: refuse). An answer after the connection has gone is ignored.
using SshAgentConfirmHandler
    = std::function<void(const SshAgentConfirmation &request, std::function<void(bool allowed)> answer)>;
// Told of every refusal: the key's fingerprint when one is involved (else empty) and what was
// refused, in words.
using SshAgentRefusalListener = std::function<void(const QString &fingerprint, const QString &what)>;

// A filtering SSH agent: serves one unix socket and passes to the user's agent (the socket
// at `upstreamSocket`) only what `policy` allows. A client sees only the listed keys and may
// sign only with them, after the user's confirmation when the policy asks for it
// ("first-use" is remembered per key for this filter's life); session-bind@openssh.com is the
// one extension passed on. Everything else (adding, removing, locking, other extensions,
// malformed or oversized messages) is refused and reported; a malformed or oversized message
// also ends its connection, and connections beyond kMaxConnections are closed at once. Each client connection has its
// own connection to the user's agent, made when its first request needs it. Lives on, and must be used from, the thread
// that owns it.
class SshAgentFilter final : public QObject
{
    Q_OBJECT

public:
    static const QByteArray sessionBindExtension;
    // Connections served at once; more are closed at once and reported.
    static constexpr int kMaxConnections = 32;

    SshAgentFilter(const PolicySshAgent &policy, QString upstreamSocket, QObject *parent = nullptr);
    ~SshAgentFilter() override;

    void setConfirmHandler(SshAgentConfirmHandler handler);
    void setRefusalListener(SshAgentRefusalListener listener);

    // Listens at `socketPath`, in a directory that is created 0700 when missing and refused
    // when it is not ours alone (RuntimeDirectory's rules); a stale socket there is replaced.
    Status listen(const QString &socketPath);
    QString socketPath() const;
    // Stops listening, ends every connection and removes the socket.
    void close();
    int connectionCount() const;

private:
    class Connection;
    friend class Connection;

    bool isListed(const QString &fingerprint) const { return m_keys.contains(fingerprint); }
    bool needsConfirmation(const QString &fingerprint) const;
    void confirmed(const QString &fingerprint);
    void refuse(const QString &fingerprint, const QString &what) const;

    PolicySshAgent::Confirm m_confirm;
    QSet<QString> m_keys;
    QString m_upstream;
    QLocalServer *m_server = nullptr;
    SshAgentConfirmHandler m_confirmHandler;
    SshAgentRefusalListener m_refused;
    QSet<QString> m_confirmedKeys; // first-use: the keys the user has allowed once
    QHash<QString, QString> m_comments; // fingerprint -> the comment the user's agent gave
    QSet<QObject *> m_connections;
};

} // namespace sandbox
