#pragma once

#include "protocol/Error.h"
#include "protocol/Policy.h"
#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sandbox {

class FilesystemReads;

// Turns a policy and a spawn request into sandbox-init's configuration: the resolved
// mount plan (tier 1) or Landlock rule set (tier 2), the seccomp profile switches, the
// network mode and proxy, rlimits, argv, cwd and the command's environment.
class SandboxPlan final
{
public:
    struct Input
    {
        Policy policy;
        SpawnRequest request;
        int tier = 1;
        int landlockAbi = 0;
        QString proxySocket; // allowlist mode only
        // policy.sshAgent: this command's filtering agent socket (host path), the one unix
        // socket it may connect to besides the proxy's, named by SSH_AUTH_SOCK.
        QString agentSocket;
        // policy.sshAgent.hosts: the SSH configuration's variables (GIT_SSH_COMMAND …), set
        // last, and the files it names (the configuration, the known hosts copy, the
        // ProxyCommand program), readable whatever the policy grants.
        QMap<QString, QString> sshEnvironment;
        QStringList sshFiles;
        bool exposeHostExecution = false; // hostExecution allow, or ask answered yes
        QProcessEnvironment hostEnvironment = QProcessEnvironment::systemEnvironment();
        QString homePath; // default: QDir::homePath()
        // A policy with credentials: the placeholders and certificate bundle variables
        // (LauncherHost::credentialSandbox), set last so that the request cannot change
        // them, and the bundle on the host, made readable (and, in tier 1, bound over the
        // system's bundle, `systemBundle`).
        QMap<QString, QString> credentialEnvironment;
        QString certificateBundle;
        QString systemBundle;
    };

    struct Mount
    {
        QString kind; // ro | rw | tmpfs | mask
        QString source;
        QString target;
        friend bool operator==(const Mount &, const Mount &) = default;
    };

    static constexpr int kProxyPort = 3128;
    static constexpr int kMaxLandlockRules = 8192;

    // `reads`, when given, learns every directory the plan was read from.
    static Result<SandboxPlan> build(const Input &input, FilesystemReads *reads = nullptr);
    // This plan for `input`'s command and environment: what build(input) gives when
    // everything else in `input` is what this plan was built from.
    Result<SandboxPlan> forCommand(const Input &input) const;

    QByteArray serialize() const;

    const QList<Mount> &mounts() const { return m_mounts; }
    const QStringList &environment() const { return m_environment; }
    const QStringList &landlockReadable() const { return m_landlockReadable; }
    const QStringList &landlockWritable() const { return m_landlockWritable; }
    QString workspace() const { return m_workspace; }
    QString cwd() const { return m_cwd; }

private:
    static Status checkArgv(const Input &input);
    Status resolvePaths(const Input &input, FilesystemReads *reads);
    void planMounts(const Input &input, FilesystemReads *reads);
    Status planLandlock(const Input &input, FilesystemReads *reads);
    void planEnvironment(const Input &input);
    void planGuard(const Input &input, FilesystemReads *reads);

    int m_tier = 1;
    QStringList m_argv;
    QString m_cwd;
    QString m_workspace; // what ${workspace} names; the cwd lies inside it
    QString m_network;
    QString m_proxySocket;
    QString m_agentSocket;
    QStringList m_readable;
    QStringList m_writable;
    QStringList m_readOnly;
    QStringList m_readOnlyAsNamed; // read-only paths named through a symbolic link, as named
    QStringList m_denied; // resolved, with every alias under which the host shows them
    QStringList m_hostChannels;
    bool m_privateTmp = false;
    bool m_denyUnixSockets = false;
    bool m_exposeHostExecution = false;
    bool m_superviseConnect = false;
    QList<Mount> m_mounts;
    QList<QPair<QString, QString>> m_symlinks; // (target, link)
    QStringList m_landlockReadable;
    QStringList m_landlockWritable;
    QStringList m_landlockDevices;
    QStringList m_directoryOnly; // tier 2: listing only (ancestors of denied paths)
    QStringList m_environment;
    QStringList m_guardRepositories; // writable directories whose .git is guarded
    QStringList m_guardReadOnly; // read-only paths inside writable ones the guard restores
};

} // namespace sandbox
