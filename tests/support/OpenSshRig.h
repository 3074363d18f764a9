#pragma once

#include <QFile>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace sandbox::test {

// The user's side of the SSH agent tests, made of Debian's OpenSSH tools: a folder of its
// own (short, so sockets fit), an ssh-agent child in the foreground holding two ed25519
// keys, "listed" and "unlisted", whose private key files are deleted once added, so only the
// agent can sign with them.
class OpenSshRig final
{
public:
    struct Run
    {
        int exitCode = -1; // -1: crashed or timed out
        QByteArray out;
        QByteArray err;
    };

    OpenSshRig();
    ~OpenSshRig();
    OpenSshRig(const OpenSshRig &) = delete;
    OpenSshRig &operator=(const OpenSshRig &) = delete;

    // Starts the agent and adds both keys; empty on success, else what failed.
    QString start();
    // Starts Debian's sshd in the foreground on a free loopback port, accepting both keys
    // for this user only, and writes path("known_hosts") with its host key; empty on
    // success, else what failed. It stops with the rig.
    QString startServer();
    quint16 serverPort() const { return m_port; }
    QString userName() const { return m_user; }
    // What sshd has said so far (for a failed test's report).
    QByteArray serverLog() const { return m_serverLog; }

    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString agentSocket() const { return m_agentSocket; }
    QString listedKey() const { return path(QStringLiteral("listed.pub")); }
    QString unlistedKey() const { return path(QStringLiteral("unlisted.pub")); }
    QString listedFingerprint() const { return m_listedFingerprint; }
    QString unlistedFingerprint() const { return m_unlistedFingerprint; }

    // Runs `program` with SSH_AUTH_SOCK=`authSocket` (DISPLAY unset), in the rig's folder,
    // waiting with the event loop running so that a filter on this thread can answer it.
    Run run(const QString &program, const QStringList &args, const QString &authSocket,
            const QMap<QString, QString> &extraEnvironment = {}, const QString &workingDirectory = {}) const;
    // A new key pair without a passphrase at `path` (and `path`.pub); empty on success.
    QString generateKey(const QString &path, const QString &comment) const;
    // "SHA256:…" as ssh-keygen -l prints it for `publicKey`.
    QString fingerprintOf(const QString &publicKey) const;
    QByteArray keyBlobOf(const QString &publicKey) const;
    // The fingerprints `ssh-add -l` lists at `authSocket`.
    QStringList fingerprintsListedAt(const QString &authSocket) const;
    // Empty when `signature` (ssh-keygen -Y sign, namespace "file") of the file `data`
    // verifies against `publicKey` alone (signer tester@example.org); else what ssh-keygen said.
    QString verifySignature(const QString &publicKey, const QString &data, const QString &signature) const;
    // Empty when the HEAD commit of `repository` is signed with `publicKey` alone (gpg.format
    // ssh; signer tester@example.org), as the host's git verify-commit sees it; else what it said.
    QString verifyCommit(const QString &publicKey, const QString &repository) const;

    // git push over SSH to this rig's sshd, as the backends' agent tests do it: `project` (a
    // new folder) gets one commit and an origin at the bare repository path(`remoteName`).
    // Returns HEAD; empty when a step failed, git's words in `*problem`.
    QByteArray preparePush(const QString &project, const QString &remoteName, QString *problem) const;
    // What a sandboxed shell runs then, in `project`: the push (`gitOptions` before it), an
    // ssh to otherPort() through the proxy, one straight to this sshd past it, and a look at
    // the known-hosts copy. Prints "pushed", "other=N", "direct=N" and "kept" or "leaked".
    QString pushProbe(const QString &project, const QString &gitOptions = {}) const;
    quint16 otherPort() const { return m_port == 65535 ? 65534 : m_port + 1; }
    // Empty when the probe's output says the push landed (main of path(`remoteName`) is
    // `head`), the other port and the direct way failed, and the copy holds this host only.
    QString pushProbeProblem(const QByteArray &output, const QString &remoteName, const QByteArray &head) const;

    // What a sandboxed shell runs to change the user's keys through its agent: remove them
    // all, remove one, and add a new one. Prints "removeall=N", "remove=N" and "add=N".
    static QString keyChangeProbe();
    // Empty when the probe's output says every change failed and the user's agent still holds
    // its two keys and nothing else.
    QString keyChangeProblem(const QByteArray &output) const;
    // The host's git (no system configuration, no agent, a committer named), its exit code
    // (-1: it did not end) and output.
    static Run git(const QStringList &args);

    static QByteArray readAll(const QString &path);
    static bool writeFile(const QString &path, const QByteArray &data, QFile::Permissions permissions = {});

private:
    QTemporaryDir m_dir;
    QProcess m_agent;
    QProcess m_server;
    QByteArray m_serverLog;
    quint16 m_port = 0;
    QString m_user;
    QString m_agentSocket;
    QString m_listedFingerprint;
    QString m_unlistedFingerprint;
};

} // namespace sandbox::test
