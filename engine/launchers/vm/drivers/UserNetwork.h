#pragma once

#include "protocol/BackendInfo.h"
#include "protocol/Error.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QObject>
#include <QStringList>

#include <memory>

class QProcess;

namespace sandbox {

// Network "full" for the QEMU driver, enforced by the host's kernel. QEMU (its own
// user-mode network for the guest) runs in a user and network namespace of its own,
// created between fork and exec, whose routing table prohibits, before QEMU runs, every
// internal IPv4 range (AddressClass), the host's own IPv4 addresses and the slirp4netns
// network but its gateway and DNS forwarder, less the addresses the policy names; QEMU then
// holds no capability there (its bounding set emptied, no_new_privs), so even a QEMU the
// guest took over cannot change them. The
// namespace's only way out is slirp4netns (in the host's namespace, its route to the
// host's loopback disabled), attached once QEMU has started and gone with it, with the
// engine (its exit descriptor, the parent-death signal) or when stop() is called.
class UserNetwork final : public QObject
{
    Q_OBJECT

public:
    struct Route
    {
        quint32 network; // host byte order
        int prefix;
        friend bool operator==(const Route &, const Route &) = default;
    };

    // The addresses a policy's domain entries open and close under network full: IPv4
    // literals in allowedDomains open an internal address (or one of the host's own) on
    // every port, unless deniedDomains names it too; IPv4 literals in deniedDomains close
    // that address. Names open and close nothing. An entry that cannot be honoured (a
    // port on an internal address, the host's loopback, the VM's own networks) is an Error.
    struct Addresses
    {
        QList<quint32> opened;
        QList<quint32> closed;
    };
    static Result<Addresses> fromPolicy(const QStringList &allowedDomains, const QStringList &deniedDomains);

    // Whether this host can run it, and why not (slirp4netns missing, user namespaces off).
    static Availability availability();
    // The routes to prohibit: the internal ranges and `hostAddresses` without `opened`,
    // and `closed`; the slirp4netns network's addresses but its gateway and DNS forwarder.
    static QList<Route> prohibitedRoutes(const Addresses &addresses, const QList<quint32> &hostAddresses);
    // The host's own IPv4 addresses now.
    static QList<quint32> hostAddresses();

    UserNetwork(Addresses addresses, QObject *parent = nullptr);
    ~UserNetwork() override;

    // Makes `qemu`'s next start happen inside a fresh namespace with the routes of now
    // (the host's addresses as they are), and attaches slirp4netns once it has started (in
    // this object's event loop): ready() or failed() tells how that went.
    void arm(QProcess &qemu);
    // Ends slirp4netns (when QEMU has ended or is ending).
    void stop();

signals:
    // slirp4netns has brought up the way out of the namespace QEMU started in.
    void ready();
    void failed(const QString &reason);

private:
    Q_DISABLE_COPY_MOVE(UserNetwork)
    void attach(qint64 pid);

    Addresses m_addresses;
    // What QEMU's child process applies before exec: built here, read there (no allocation).
    struct ChildSetup
    {
        QByteArray uidMap;
        QByteArray gidMap;
        QByteArray routes; // rtnetlink RTM_NEWROUTE messages, one after the other
        // The kernel's answers land here, not on the child's stack (Qt may start the child
        // on a small stack of its own).
        alignas(8) char answer[512];
    };
    std::unique_ptr<ChildSetup> m_child;
    QProcess *m_slirp = nullptr;
    int m_exitFd = -1; // slirp4netns ends when this closes
    bool m_connected = false;
};

} // namespace sandbox
