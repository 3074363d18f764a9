#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMutex>
#include <QString>

#include <atomic>
#include <memory>
#include <sys/types.h>
#include <thread>

namespace sandbox::power {

class SshTunnel;

// A unix socket of this computer (`localSocket`: a channel of the engine's filtering proxy)
// made reachable on the remote host of an SshTunnel, through that tunnel's one connection:
//   1. a remote session (a client of the tunnel's control socket) makes a folder of its own
//      there with mktemp -d under umask 077 (owner-only, so no other user of that host can
//      reach what it holds), says the remote user's uid and gid and the folder, and then
//      waits on its input; when that ends (this object closes it, or the connection dies)
//      it removes the folder;
//   2. OpenSSH's remote stream-local forwarding (ssh -O forward -R socket:local) binds the
//      socket in that folder (sshd's StreamLocalBindMask, 0177 by default, makes it the remote
//      user's alone, and the folder is owner-only whatever that mask is); each connection to
//      it is a channel of the tunnel's connection to `localSocket`.
// When this object goes, the forward is cancelled and the folder removed; when the connection
// dies first, sshd has closed the listener and the session removes the folder; when the session
// ends first (killed on the remote host), the forward is cancelled at once.
class SshReverseForward final
{
    Q_DECLARE_TR_FUNCTIONS(SshReverseForward)

public:
    // The remote socket's name in remoteFolder().
    static constexpr const char *socketName = "proxy.sock";

    static Result<std::unique_ptr<SshReverseForward>> open(const std::shared_ptr<SshTunnel> &tunnel,
                                                           const QString &localSocket, int timeoutMs);
    ~SshReverseForward();
    SshReverseForward(const SshReverseForward &) = delete;
    SshReverseForward &operator=(const SshReverseForward &) = delete;

    QString remoteFolder() const { return m_folder; }
    // The remote user's uid:gid, who alone can connect to the socket.
    QString remoteUser() const { return m_user; }
    // Whether the remote session that keeps the folder still runs: when it has ended, so has
    // the forward (the connection died, or the folder's keeper was ended on the remote host).
    bool isHolding() const;

private:
    SshReverseForward(std::weak_ptr<SshTunnel> tunnel, QString localSocket, pid_t keeper, int keeperInput);
    // `-O forward` or `-O cancel` of this forward's specification; empty on success, else
    // what ssh said.
    QString control(const char *operation, int timeoutMs) const;
    // Cancels the forward as soon as the keeper's session ends (a thread of its own, until
    // this object goes); false when the thread could not be set up.
    bool watchKeeper();

    std::weak_ptr<SshTunnel> m_tunnel;
    QString m_localSocket;
    QString m_folder;
    QString m_user;
    pid_t m_keeper = -1;
    int m_keeperInput = -1;
    int m_keeperOutput = -1;
    bool m_forwarded = false;
    std::thread m_watch;
    int m_stop[2] = { -1, -1 };
    std::atomic<bool> m_cancelled = false; // by the watch, when the keeper ended first
    mutable QMutex m_mutex;
    mutable bool m_ended = false;
};

} // namespace sandbox::power
