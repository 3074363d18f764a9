#pragma once

#include "SshAgentFilter.h"
#include "protocol/BackendRef.h"
#include "protocol/Error.h"
#include "protocol/HostInteraction.h"
#include "protocol/PolicySshAgent.h"
#include "protocol/Refusal.h"

#include <QFuture>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>
#include <QThread>

#include <functional>

namespace sandbox {

// The engine's filtering SSH agents, one per command that has one (policy.sshAgent), served
// on a thread of their own so that a slow user agent or a pending confirmation never holds
// the engine. Each agent listens on a socket alone in an owner-only directory under the
// engine's runtime directory, reaches the user's agent at `upstreamSocket`, and goes with
// close() (or with the service).
class SshAgentService final
{
public:
    // Asks the user whether a signature may go ahead; the future's `true` allows it (a
    // cancelled future refuses). Called on the service's thread.
    using Ask = std::function<QFuture<bool>(const SshAgentConfirmation &request)>;

    explicit SshAgentService(QString baseDirectory);
    ~SshAgentService();
    SshAgentService(const SshAgentService &) = delete;
    SshAgentService &operator=(const SshAgentService &) = delete;

    // Starts an agent for `policy`; its socket's path, or what kept it from listening. It
    // listens at `socketPath` when one is given (in an owner-only folder the caller hands to
    // a sandbox, which stays when the agent goes), else alone in an owner-only folder of its
    // own under the base directory. `refused` is told of every refusal, on the service's thread.
    Result<QString> open(const PolicySshAgent &policy, const QString &upstreamSocket, Ask ask,
                         SshAgentRefusalListener refused, const QString &socketPath = {});
    // Puts a question to the user (a launcher host's ask()).
    using HostAsk = std::function<QFuture<HostInteractionResponse>(const HostInteractionRequest &request)>;
    // An agent for one sandboxed command, as every backend offers it: the user's agent is the
    // engine's own SSH_AUTH_SOCK (refused, saying so, without one); a signature that needs
    // confirming is a question through `ask` (subject "ssh-signature", for `ref`, naming
    // `command`); every refusal reaches `refused` as the command's (kind credential, rule
    // "ssh agent: …"), on the service's thread. `socketPath` as for open().
    Result<QString> openForCommand(const PolicySshAgent &policy, const QString &command, const BackendRef &ref,
                                   HostAsk ask, std::function<void(const Refusal &)> refused,
                                   const QString &socketPath = {});
    // Ends the agent listening at `socketPath` (its connections too) and removes its directory.
    void close(const QString &socketPath);
    int count() const;

private:
    Status start();

    const QString m_baseDirectory;
    mutable QMutex m_mutex;
    QThread m_thread;
    QObject *m_home = nullptr; // lives on m_thread; parent of every filter
    QHash<QString, SshAgentFilter *> m_filters; // by socket path; guarded by m_mutex
    QSet<QString> m_ownFolders; // the folders made for a filter, removed with it; guarded by m_mutex
    quint64 m_next = 0;
};

} // namespace sandbox
