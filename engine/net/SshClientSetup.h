#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandbox {

// What a sandboxed `ssh` needs to reach the policy's SSH hosts (policy.sshAgent.hosts) and
// nowhere else: a configuration whose ProxyCommand is sandbox-init's tunnel through the
// engine's filtering proxy (`sandbox-init --ssh-proxy %h %p`), whose host keys are a
// read-only copy of the user's known hosts (checked strictly, never updated), and which
// takes no option from the user's own files. git uses it through GIT_SSH_COMMAND; other
// programs find it in SANDBOX_SSH_CONFIG (`ssh -F "$SANDBOX_SSH_CONFIG" …`).
struct SshClientSetup
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::SshClientSetup)

public:
    QMap<QString, QString> environment; // naming the files as the sandbox sees them
    QStringList files; // the configuration, the known hosts copy (on the host) and the program it runs

    // Writes the configuration and the known hosts copy (content-addressed, owner-only) into
    // `directory` (made 0700 when missing), which the sandbox sees as `sandboxDirectory`
    // (empty: the same path); `proxyProgram` is sandbox-init as the sandbox sees it.
    // `knownHosts` is the user's file; the copy holds only its entries for `proxyRules`
    // (PolicySshAgent::proxyRules(); as ssh-keygen -F finds them, hashed entries included), so
    // the command learns nothing of where else the user connects. A missing file, or a host
    // with no entry (a wildcard, say), fails the strict check, saying so.
    static Result<SshClientSetup> write(const QString &directory, const QString &sandboxDirectory,
                                        const QString &proxyProgram, const QString &knownHosts,
                                        const QStringList &proxyRules);
};

} // namespace sandbox
