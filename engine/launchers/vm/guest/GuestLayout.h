#pragma once

#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// Which host directories a VM sees, computed from the policy for one workspace: the
// workspace read-write, readable paths read-only, denied paths never (a directory that
// contains a denied path is not shared itself; its subdirectories are, one by one, and its
// files are not), read-only paths inside the workspace shared read-only on top (a read-only
// file makes its directory read-only). /tmp, /proc, /sys, /dev and /run are never shared:
// the guest has its own. Host symlinks at split points are recreated in the guest.
struct GuestLayout
{
    struct Share
    {
        QString hostPath;
        bool writable = false;
        // The directory the layout looked at (inode 0: not looked at), which the VM must
        // get: OpenedShares drops a share whose path names another one by then. The birth
        // time (ns, 0 where the file system keeps none) tells a reused inode number apart.
        quint64 device = 0;
        quint64 inode = 0;
        quint64 birth = 0;
        // The same share of a layout: when it was looked at is no part of it.
        friend bool operator==(const Share &a, const Share &b)
        {
            return a.hostPath == b.hostPath && a.writable == b.writable;
        }
    };
    struct Link
    {
        QString path;
        QString target;
        friend bool operator==(const Link &, const Link &) = default;
    };

    QList<Share> shares; // parents before children
    QList<Link> links;
    // Read-only paths of the policy inside writable shares that are no directory to share
    // (a file, a symbolic link, a path that does not exist yet): the write gate alone keeps
    // them from being made, changed or replaced (GuestRequest::Gate). Not part of key():
    // a VM's shares are the same whatever its commands' gates refuse.
    QStringList gateReadOnly;
    // The VM's network: none (no device, no forwarder) unless `proxied`, when its forwarder
    // reaches the engine's filtering proxy under these domain rules (network allowlist), or
    // `userNetwork`, when it has a NIC on user-mode networking whose reach these domain
    // rules' IPv4 literals widen and narrow (network full, UserNetwork::fromPolicy).
    bool proxied = false;
    bool userNetwork = false;
    QStringList allowedDomains;
    QStringList deniedDomains;
    // Network allowlist only: what the VM's proxy channel is opened with besides the domain
    // rules (LauncherHost::openProxyChannel), and with credentials the certificate bundle on
    // the host (content-named), which the guest gets in its initramfs as kCaBundle, bound
    // read-only over the system's bundle file.
    QList<PolicyCredential> credentials;
    QStringList extraCaCertificates;
    std::optional<PolicyUpstreamProxy> upstreamProxy;
    QString caBundle;
    // The policy's SSH agent: commands under another agent policy (other keys, another
    // confirmation) never share a VM, whose commands can reach into one another.
    std::optional<PolicySshAgent> sshAgent;
    static constexpr const char *kCaBundle = "/.sandbox/ca-bundle.pem";
    static constexpr const char *kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

    // The number of shares a VM can carry (one virtio device each).
    static constexpr qsizetype kMaxShares = 56;

    static Result<GuestLayout> fromPolicy(const Policy &policy, const QString &workspace, const QString &home);
    // The share of the directory at `path` as it is now (through symlinks or not), or of the
    // open `directory` (a descriptor) when given; nothing when it is no directory.
    enum class Follow { Symlinks, None };
    static std::optional<Share> lookAt(const QString &path, bool writable, Follow follow, int directory = -1);
    // The layout file the guest agent reads (/.sandbox/layout); share i has tag "s<i>".
    QByteArray layoutFile() const;
    // Identifies the layout: VMs with equal keys serve the same spawns.
    QString key() const;
    // Whether a VM booted with `running` may serve a spawn that needs this layout: it shares
    // every writable path this one does, and nothing this one does not allow (a directory
    // created since that VM booted is simply not visible in it), and its network is this one.
    bool isServedBy(const GuestLayout &running) const;

    friend bool operator==(const GuestLayout &, const GuestLayout &) = default;
};

} // namespace sandbox
