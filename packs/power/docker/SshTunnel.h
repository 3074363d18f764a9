#pragma once

#include "EngineTunnel.h"
#include "SshEndpoint.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMutex>
#include <QString>

#include <memory>
#include <sys/types.h>

namespace sandbox::power {

// The system's ssh, forwarding a local unix socket to the remote engine's socket
// (-L local:remote, OpenSSH's stream-local forwarding): every connection to the local
// socket is a channel of the one SSH connection, so DockerApi talks to the remote engine
// as to a local one. ssh runs with the user's keys, agent, configuration and known_hosts,
// host key checking on and never asking (BatchMode); what it says goes to a log file beside
// the socket, read to tell what failed. The tunnel ends with this object. It is the master of
// a control socket of its own beside the local one (owner-only folder, not the user's
// ControlPath), through which SshReverseForward adds and removes forwards and runs remote
// commands without a second login.
class SshTunnel final : public EngineTunnel
{
    Q_DECLARE_TR_FUNCTIONS(SshTunnel)

public:
    struct Options
    {
        QString identityFile; // empty: the user's keys and agent
        QString knownHostsFile; // empty: the user's known_hosts
    };

    // Starts ssh and waits (at most `timeoutMs`) until the local socket, in `folder` (an
    // owner-only folder), accepts connections; otherwise an Error saying what failed.
    static Result<std::unique_ptr<SshTunnel>> open(const SshEndpoint &endpoint, const Options &options,
                                                   const QString &folder, int timeoutMs);
    ~SshTunnel() override;
    SshTunnel(const SshTunnel &) = delete;
    SshTunnel &operator=(const SshTunnel &) = delete;

    QString localSocket() const override { return m_socket; }
    // Whether ssh still runs (thread-safe): when it has ended, every API connection through
    // the tunnel has ended with it.
    bool isRunning() const override;
    // Whether ssh still runs after waiting up to `graceMs` for it to end (a connection through
    // it has just failed: ssh closes its sockets a moment before it exits).
    bool isRunning(int graceMs) const override;
    // The arguments that make ssh a client of this connection's control socket, to put
    // between the program and its own options and destination (multiplexed, never a master).
    QStringList controlArguments() const;
    // The arguments that end such a command line: the login and the host.
    QStringList destinationArguments() const;
    const SshEndpoint &endpoint() const { return m_endpoint; }
    // What failed, in a user's words, judged from what ssh said; `fallback` when ssh said
    // nothing that tells (the remote socket did not answer, for one).
    QString explain(const QString &fallback) const override;
    QString reachedHow() const override { return tr("over SSH"); }
    // What ssh's words `said` mean for `endpoint`; empty when they tell nothing known.
    static QString explain(const QByteArray &said, const SshEndpoint &endpoint);

private:
    SshTunnel(SshEndpoint endpoint, QString socket, QString control, QString log, pid_t pid);
    QByteArray said() const;

    SshEndpoint m_endpoint;
    QString m_socket;
    QString m_control;
    QString m_log;
    pid_t m_pid = -1;
    mutable QMutex m_mutex;
    mutable bool m_ended = false;
};

} // namespace sandbox::power
