#include "UserNetwork.h"

#include "UserNetworkProtocol.h"
#include "net/AddressClass.h"

#include <QFile>
#include <QHostAddress>
#include <QNetworkInterface>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <optional>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace sandbox {

namespace {

constexpr int kReadyTimeoutMs = 10 * 1000;
constexpr int kStopTimeoutMs = 5 * 1000;
const QString kWhere = QStringLiteral("builtin:vm.network");

quint32 maskOf(int prefix)
{
    return prefix == 0 ? 0 : ~quint32(0) << (32 - prefix);
}

bool inside(quint32 address, quint32 network, int prefix)
{
    return (address & maskOf(prefix)) == (network & maskOf(prefix));
}

// `network/prefix` without the addresses in `holes`, as the fewest prefixes.
void carve(quint32 network, int prefix, const QList<quint32> &holes, QList<UserNetwork::Route> &out)
{
    network &= maskOf(prefix);
    const bool holed
        = std::any_of(holes.cbegin(), holes.cend(), [&](quint32 hole) { return inside(hole, network, prefix); });
    if (!holed) {
        out.append({ network, prefix });
        return;
    }
    if (prefix == 32)
        return;
    carve(network, prefix + 1, holes, out);
    carve(network | (quint32(1) << (31 - prefix)), prefix + 1, holes, out);
}

#ifdef Q_OS_LINUX
QByteArray prohibitMessage(const UserNetwork::Route &route, quint32 sequence)
{
    struct Message
    {
        nlmsghdr header;
        rtmsg route;
        rtattr destinationAttribute;
        quint32 destination;
    };
    static_assert(sizeof(Message) == NLMSG_LENGTH(sizeof(rtmsg)) + RTA_LENGTH(sizeof(quint32)));
    Message message;
    std::memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = RTM_NEWROUTE;
    message.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
    message.header.nlmsg_seq = sequence;
    message.route.rtm_family = AF_INET;
    message.route.rtm_dst_len = quint8(route.prefix);
    message.route.rtm_table = RT_TABLE_MAIN;
    message.route.rtm_protocol = RTPROT_STATIC;
    message.route.rtm_scope = RT_SCOPE_UNIVERSE;
    message.route.rtm_type = RTN_PROHIBIT;
    message.destinationAttribute.rta_len = RTA_LENGTH(sizeof(quint32));
    message.destinationAttribute.rta_type = RTA_DST;
    message.destination = htonl(route.network);
    return QByteArray(reinterpret_cast<const char *>(&message), sizeof message);
}

// Between fork and exec: only system calls, nothing that allocates, little stack (Qt may
// run the child on a small stack of its own).
void put(const char *text)
{
    size_t length = 0;
    while (text[length])
        ++length;
    [[maybe_unused]] const ssize_t written = ::write(2, text, length);
}

[[noreturn]] void report(const char *what, int error)
{
    put("network full: ");
    put(what);
    put(" failed (errno ");
    char digits[12] = {};
    int at = 10;
    unsigned value = unsigned(error < 0 ? -error : error);
    do {
        digits[at--] = char('0' + value % 10);
        value /= 10;
    } while (value && at >= 0);
    put(digits + at + 1);
    put(")\n");
    ::_exit(126);
}

void writeProcFile(const char *path, const QByteArray &content)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, content.constData(), size_t(content.size())) != content.size())
        report(path, errno);
    ::close(fd);
}
#endif

} // namespace

Result<UserNetwork::Addresses> UserNetwork::fromPolicy(const QStringList &allowedDomains,
                                                       const QStringList &deniedDomains)
{
    // A domain entry is a name or an IPv4 literal, optionally with ":port" (Policy::domainProblem).
    auto literal = [](const QString &entry, bool *hasPort) -> std::optional<quint32> {
        const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
        *hasPort = colon >= 0;
        const QString host = colon >= 0 ? entry.left(colon) : entry;
        QHostAddress address;
        if (host.count(QLatin1Char('.')) != 3 || !address.setAddress(host)
            || address.protocol() != QAbstractSocket::IPv4Protocol)
            return std::nullopt;
        return address.toIPv4Address();
    };
    Addresses addresses;
    for (const QString &entry : deniedDomains) {
        bool hasPort = false;
        if (const std::optional<quint32> address = literal(entry, &hasPort))
            addresses.closed.append(*address);
    }
    const QList<quint32> host = hostAddresses();
    for (const QString &entry : allowedDomains) {
        bool hasPort = false;
        const std::optional<quint32> address = literal(entry, &hasPort);
        if (!address || addresses.closed.contains(*address))
            continue;
        const QString kind = AddressClass::internalKind(QHostAddress(*address));
        if (kind.isEmpty() && !host.contains(*address))
            continue; // public: reachable under full anyway
        if (inside(*address, 0x7F000000, 8))
            return Error{ kWhere,
                          tr("the policy names %1, but a VM never reaches the host's loopback; under network "
                             "\"full\" name a non-loopback address of the host instead; nothing was run")
                              .arg(entry),
                          {} };
        if (inside(*address, usernet::kGuestNetwork, usernet::kGuestPrefix)
            || inside(*address, usernet::kOuterNetwork, usernet::kOuterPrefix))
            return Error{ kWhere,
                          tr("the policy names %1, which lies in the VM's own user-mode networks (%2/%3 and "
                             "%4/%5); nothing was run")
                              .arg(entry, QHostAddress(usernet::kGuestNetwork).toString())
                              .arg(usernet::kGuestPrefix)
                              .arg(QHostAddress(usernet::kOuterNetwork).toString())
                              .arg(usernet::kOuterPrefix),
                          {} };
        if (hasPort)
            return Error{ kWhere,
                          tr("the policy names %1, an internal address with a port; under network \"full\" the VM "
                             "opens a named internal address on every port or not at all, so name the address "
                             "without a port; nothing was run")
                              .arg(entry),
                          {} };
        if (!addresses.opened.contains(*address))
            addresses.opened.append(*address);
    }
    return addresses;
}

Availability UserNetwork::availability()
{
#ifndef Q_OS_LINUX
    return { false, tr("user-mode networking isolated from the host needs Linux network namespaces") };
#else
    if (QStandardPaths::findExecutable(QStringLiteral("slirp4netns")).isEmpty())
        return { false, tr("slirp4netns was not found on PATH (install slirp4netns)") };
    auto number = [](const char *path) {
        QFile file(QString::fromLatin1(path));
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        bool ok = false;
        const int value = file.readAll().trimmed().toInt(&ok);
        return ok ? value : -1;
    };
    if (number("/proc/sys/user/max_user_namespaces") == 0)
        return { false, tr("user namespaces are turned off (user.max_user_namespaces is 0)") };
    if (::geteuid() != 0) {
        if (number("/proc/sys/kernel/unprivileged_userns_clone") == 0)
            return { false, tr("unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone is 0)") };
        if (number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1)
            return { false,
                     tr("AppArmor refuses unprivileged user namespaces "
                        "(kernel.apparmor_restrict_unprivileged_userns is 1)") };
    }
    return { true, QString() };
#endif
}

QList<quint32> UserNetwork::hostAddresses()
{
    QList<quint32> addresses;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !addresses.contains(address.toIPv4Address()))
            addresses.append(address.toIPv4Address());
    }
    return addresses;
}

QList<UserNetwork::Route> UserNetwork::prohibitedRoutes(const Addresses &addresses, const QList<quint32> &hostAddresses)
{
    QList<Route> routes;
    for (const AddressClass::Ipv4Range &range : AddressClass::internalIpv4Ranges()) {
        // Less specific than the VM's own: slirp4netns's network, carved below.
        carve(range.network, range.prefix, addresses.opened, routes);
    }
    for (quint32 address : hostAddresses) {
        if (!addresses.opened.contains(address) && AddressClass::internalKind(QHostAddress(address)).isEmpty())
            routes.append({ address, 32 });
    }
    for (quint32 address : addresses.closed) {
        if (AddressClass::internalKind(QHostAddress(address)).isEmpty() && !routes.contains(Route{ address, 32 }))
            routes.append({ address, 32 });
    }
    // Of slirp4netns's own network only its gateway (the default route; its host-loopback
    // mapping is off) and its DNS forwarder; the tap's own address is local.
    carve(usernet::kOuterNetwork, usernet::kOuterPrefix,
          { usernet::kOuterGateway, usernet::kOuterDns, usernet::kOuterTap }, routes);
    return routes;
}

UserNetwork::UserNetwork(Addresses addresses, QObject *parent)
    : QObject(parent)
    , m_addresses(std::move(addresses))
{ }

UserNetwork::~UserNetwork()
{
    stop();
}

void UserNetwork::arm(QProcess &qemu)
{
#ifndef Q_OS_LINUX
    Q_UNUSED(qemu)
    emit failed(availability().reason);
#else
    auto setup = std::make_unique<ChildSetup>();
    setup->uidMap = QByteArray::number(::geteuid()) + ' ' + QByteArray::number(::geteuid()) + " 1\n";
    setup->gidMap = QByteArray::number(::getegid()) + ' ' + QByteArray::number(::getegid()) + " 1\n";
    quint32 sequence = 1;
    for (const Route &route : prohibitedRoutes(m_addresses, hostAddresses()))
        setup->routes += prohibitMessage(route, sequence++);
    m_child = std::move(setup);
    ChildSetup *child = m_child.get();
    qemu.setChildProcessModifier([child] {
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
            report("creating a user and network namespace", errno);
        writeProcFile("/proc/self/setgroups", QByteArrayLiteral("deny"));
        writeProcFile("/proc/self/uid_map", child->uidMap);
        writeProcFile("/proc/self/gid_map", child->gidMap);
        const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
        if (fd < 0)
            report("opening rtnetlink", errno);
        sockaddr_nl kernel;
        std::memset(&kernel, 0, sizeof kernel);
        kernel.nl_family = AF_NETLINK;
        const char *at = child->routes.constData();
        const char *end = at + child->routes.size();
        while (at < end) {
            const auto *header = reinterpret_cast<const nlmsghdr *>(at);
            if (::sendto(fd, at, header->nlmsg_len, 0, reinterpret_cast<const sockaddr *>(&kernel), sizeof kernel) < 0)
                report("sending a route", errno);
            const ssize_t got = ::recv(fd, child->answer, sizeof child->answer, 0);
            const auto *reply = reinterpret_cast<const nlmsghdr *>(child->answer);
            if (got < ssize_t(NLMSG_LENGTH(sizeof(nlmsgerr))) || reply->nlmsg_type != NLMSG_ERROR)
                report("reading the kernel's answer to a route", got < 0 ? errno : EPROTO);
            const int error = static_cast<const nlmsgerr *>(NLMSG_DATA(reply))->error;
            if (error != 0)
                report("adding a prohibit route", error);
            at += NLMSG_ALIGN(header->nlmsg_len);
        }
        ::close(fd);
        // The program runs without a capability in the namespace (even as its root): it
        // cannot change the routes, nor ever gain one again.
        for (int capability = 0; capability < 64; ++capability) {
            if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 && errno != EINVAL)
                report("dropping the capabilities", errno);
        }
        if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
            report("setting no_new_privs", errno);
    });
    if (!m_connected) {
        m_connected = true;
        // Queued: not inside QProcess's own start-up handling (a second QProcess starts there).
        connect(
            &qemu, &QProcess::started, this, [this, &qemu] { attach(qemu.processId()); }, Qt::QueuedConnection);
    }
#endif
}

void UserNetwork::attach(qint64 pid)
{
#ifndef Q_OS_LINUX
    Q_UNUSED(pid)
#else
    stop();
    const QString program = QStandardPaths::findExecutable(QStringLiteral("slirp4netns"));
    if (program.isEmpty()) {
        emit failed(availability().reason);
        return;
    }
    int readiness[2] = { -1, -1 };
    int ending[2] = { -1, -1 };
    if (::pipe2(readiness, O_CLOEXEC) != 0 || ::pipe2(ending, O_CLOEXEC) != 0) {
        for (int fd : { readiness[0], readiness[1], ending[0], ending[1] })
            if (fd >= 0)
                ::close(fd);
        emit failed(tr("cannot create the pipes for slirp4netns: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return;
    }
    // Above the numbers they get in slirp4netns, so neither overwrites the other there.
    const int readyWrite = ::fcntl(readiness[1], F_DUPFD_CLOEXEC, 64);
    const int exitRead = ::fcntl(ending[0], F_DUPFD_CLOEXEC, 64);
    ::close(readiness[1]);
    ::close(ending[0]);
    m_exitFd = ending[1];
    const QString proc = QStringLiteral("/proc/%1/ns/").arg(pid);
    m_slirp = new QProcess(this);
    m_slirp->setProcessChannelMode(QProcess::MergedChannels);
    m_slirp->setStandardInputFile(QProcess::nullDevice());
    m_slirp->setChildProcessModifier([readyWrite, exitRead] {
        if (::dup2(readyWrite, 3) != 3 || ::dup2(exitRead, 4) != 4)
            ::_exit(126);
        // Gone with the engine even if its exit descriptor were somehow kept open.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
    const QString cidr
        = QStringLiteral("%1/%2").arg(QHostAddress(usernet::kOuterNetwork).toString()).arg(usernet::kOuterPrefix);
    m_slirp->start(program,
                   { QStringLiteral("--configure"), QStringLiteral("--mtu=65520"),
                     QStringLiteral("--disable-host-loopback"), QStringLiteral("--cidr=") + cidr,
                     QStringLiteral("--ready-fd=3"), QStringLiteral("--exit-fd=4"), QStringLiteral("--enable-sandbox"),
                     QStringLiteral("--enable-seccomp"),
                     QStringLiteral("--userns-path=") + proc + QStringLiteral("user"),
                     QStringLiteral("--netns-type=path"), proc + QStringLiteral("net"), QStringLiteral("tap0") });
    ::close(readyWrite);
    ::close(exitRead);
    // Before the guest can be ready: its commands find the way out in place.
    pollfd waiting{ readiness[0], POLLIN, 0 };
    const int polled = ::poll(&waiting, 1, kReadyTimeoutMs);
    char byte = 0;
    const bool isReady = polled == 1 && ::read(readiness[0], &byte, 1) == 1;
    ::close(readiness[0]);
    if (isReady) {
        emit ready();
    } else {
        m_slirp->waitForFinished(100);
        const QString output = QString::fromUtf8(m_slirp->readAll()).trimmed();
        stop();
        emit failed(tr("slirp4netns did not bring up the VM's network within %1 s%2")
                        .arg(kReadyTimeoutMs / 1000)
                        .arg(output.isEmpty() ? QString() : QStringLiteral(": ") + output.right(400)));
    }
#endif
}

void UserNetwork::stop()
{
#ifdef Q_OS_LINUX
    if (m_exitFd >= 0) {
        ::close(m_exitFd);
        m_exitFd = -1;
    }
#endif
    if (m_slirp) {
        if (m_slirp->state() != QProcess::NotRunning && !m_slirp->waitForFinished(kStopTimeoutMs)) {
            m_slirp->kill();
            m_slirp->waitForFinished(kStopTimeoutMs);
        }
        delete m_slirp;
        m_slirp = nullptr;
    }
}

} // namespace sandbox
