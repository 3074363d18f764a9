// The VM backend's parts that need no VM: which host paths a guest gets, the initramfs
// the engine assembles (unpacked by the real cpio tool), the QEMU command line, and the
// helper store against a real loopback HTTP server.
#include "TestFiles.h"
#include "launchers/vm/VmLauncher.h"
#include "launchers/vm/VmMachine.h"
#include "launchers/vm/drivers/HyperVDriver.h"
#include "launchers/vm/drivers/QemuDriver.h"
#include "launchers/vm/drivers/VfkitDriver.h"
#include "launchers/vm/guest/GuestImage.h"
#include "launchers/vm/guest/GuestLayout.h"
#include "launchers/vm/guest/GuestRequest.h"
#include "launchers/vm/guest/HelperStore.h"
#include "launchers/vm/guest/OpenedShares.h"
#include "launchers/vm/image/CpioArchive.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sandbox;
using sandbox::test::readFile;
using sandbox::test::writeFile;

namespace {

bool sharesInside(const GuestLayout &layout, const QString &path)
{
    for (const GuestLayout::Share &share : layout.shares) {
        if (share.hostPath == path || share.hostPath.startsWith(path + QLatin1Char('/'))
            || path.startsWith(share.hostPath + QLatin1Char('/')))
            return true;
    }
    return false;
}

const GuestLayout::Share *shareAt(const GuestLayout &layout, const QString &path)
{
    for (const GuestLayout::Share &share : layout.shares) {
        if (share.hostPath == path)
            return &share;
    }
    return nullptr;
}

} // namespace

class TestVmGuest final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void layoutSharesWorkspaceWritableAndSplitsAroundDenied();
    void layoutRefusesWhatItCannotShare();
    void aRunningVmServesOnlyLayoutsThatAllowAllItShares();
    void aShareSwappedOrGoneAfterTheLayoutIsNotShared();
    void aRunningVmServesOnWhenAShareOfItsIsRemoved();
    void modulesComeWithTheirDependenciesInLoadOrder();
    void initramfsUnpacksWithTheRealCpio();
    void qemuCommandHasNoNetworkAndReadOnlyShares();
    void vfkitCommandSharesOnlyWhatItCanKeepReadOnly();
    void hyperVScriptHasNoNetworkAdapter();
    void helperStoreFetchesOnceAndVerifiesEveryTime();
    void helperStoreRefusesTamperedAndReportsSourceDown();
    void spawnWithAnAgentNamesItsSocketAfterTheRequestsVariables();

private:
    std::unique_ptr<QTemporaryDir> m_root;
    QProcess m_http;
    QByteArray m_httpLog;
    quint16 m_port = 0;
};

void TestVmGuest::initTestCase()
{
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/tst_vmguest-XXXXXX"));
    QVERIFY(m_root->isValid());
    const QDir root(m_root->path());
    QVERIFY(root.mkpath(QStringLiteral("good")) && root.mkpath(QStringLiteral("bad")));
    for (const QString &name : HelperStore::pinnedHelpers()) {
        const QByteArray content = readFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/") + name);
        QVERIFY(!content.isEmpty());
        QVERIFY(writeFile(m_root->filePath(QStringLiteral("good/") + name), content));
        QVERIFY(writeFile(m_root->filePath(QStringLiteral("bad/") + name), content + "!"));
    }
    m_http.setProcessChannelMode(QProcess::MergedChannels);
    connect(&m_http, &QProcess::readyRead, this, [this] { m_httpLog += m_http.readAll(); });
    m_http.start(QStringLiteral("python3"),
                 { QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"), QStringLiteral("--bind"),
                   QStringLiteral("127.0.0.1"), QStringLiteral("--directory"), m_root->path(), QStringLiteral("0") });
    QVERIFY(m_http.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_httpLog.contains("Serving HTTP"), 20000);
    m_port = quint16(
        QRegularExpression(QStringLiteral("port (\\d+)")).match(QString::fromUtf8(m_httpLog)).captured(1).toUInt());
    QVERIFY(m_port > 0);
}

void TestVmGuest::cleanupTestCase()
{
    m_http.kill();
    m_http.waitForFinished();
}

void TestVmGuest::layoutSharesWorkspaceWritableAndSplitsAroundDenied()
{
    const QDir root(m_root->path());
    QVERIFY(root.mkpath(QStringLiteral("ws/.git/hooks")) && root.mkpath(QStringLiteral("ws/src")));
    QVERIFY(root.mkpath(QStringLiteral("ws/keys")) && root.mkpath(QStringLiteral("home/.ssh")));
    QVERIFY(root.mkpath(QStringLiteral("home/projects")));
    QVERIFY(writeFile(m_root->filePath(QStringLiteral("ws/.git/config")), "[core]\n"));
    const QString ws = m_root->filePath(QStringLiteral("ws"));
    const QString home = m_root->filePath(QStringLiteral("home"));

    QVERIFY(root.mkpath(QStringLiteral("ws/src/generated")));
    QVERIFY(writeFile(m_root->filePath(QStringLiteral("ws/src/real-config")), "[user]\n"));
    QVERIFY(QFile::link(QStringLiteral("src/real-config"), m_root->filePath(QStringLiteral("ws/linked-config"))));
    Policy policy = Policy::defaults();
    policy.denied.append(QStringLiteral("${workspace}/keys"));
    policy.readOnly.append(QStringLiteral("${workspace}/src/generated"));
    policy.readOnly.append(QStringLiteral("${workspace}/missing/config"));
    policy.readOnly.append(QStringLiteral("${workspace}/linked-config"));
    const Result<GuestLayout> layout = GuestLayout::fromPolicy(policy, ws, home);
    QVERIFY2(layout.ok(), layout.ok() ? "" : qPrintable(layout.error().toString()));
    const GuestLayout &l = layout.value();

    // The workspace holds a denied path: it is split, its other subdirectories writable.
    QVERIFY(!shareAt(l, ws));
    QVERIFY(shareAt(l, ws + QStringLiteral("/src")) && shareAt(l, ws + QStringLiteral("/src"))->writable);
    QVERIFY(!sharesInside(l, ws + QStringLiteral("/keys")));
    // Read-only paths inside it: a directory goes on top, read-only.
    QVERIFY(shareAt(l, ws + QStringLiteral("/.git/hooks"))
            && !shareAt(l, ws + QStringLiteral("/.git/hooks"))->writable);
    // A file, a path that does not exist yet and a link (its own name and its target) are the
    // write gate's alone: the directory holding them stays writable, so git works in .git.
    for (const GuestLayout::Share &share : l.shares)
        QVERIFY2(share.hostPath != ws + QStringLiteral("/.git") || share.writable, "a read-only .git");
    QVERIFY(shareAt(l, ws + QStringLiteral("/src")) && shareAt(l, ws + QStringLiteral("/src"))->writable);
    const GuestRequest::Gate gate = GuestRequest::Gate::fromLayout(l);
    for (const char *path : { "/.git/config", "/missing/config", "/linked-config", "/src/real-config" }) {
        QVERIFY2(l.gateReadOnly.contains(ws + QLatin1String(path)), path);
        QVERIFY2(gate.readOnly.contains(ws + QLatin1String(path)), path);
    }
    // Readable "/": shared read-only, without the guest's own directories or denied paths.
    QVERIFY(shareAt(l, QStringLiteral("/usr")) && !shareAt(l, QStringLiteral("/usr"))->writable);
    for (const char *own : { "/proc", "/sys", "/dev", "/run", "/tmp" })
        QVERIFY2(!sharesInside(l, QString::fromLatin1(own)), own);
    QVERIFY(!sharesInside(l, home + QStringLiteral("/.ssh")));
    QVERIFY(shareAt(l, home + QStringLiteral("/projects")));
    for (const GuestLayout::Share &share : l.shares) {
        if (share.writable)
            QVERIFY2(share.hostPath.startsWith(ws + QLatin1Char('/')), qPrintable(share.hostPath));
    }
    // Parents are mounted before what is mounted on top of them.
    const QByteArray file = l.layoutFile();
    QVERIFY(file.indexOf(QFile::encodeName(ws + QStringLiteral("/src\n")))
            < file.indexOf(QFile::encodeName(ws + QStringLiteral("/src/generated\n"))));
    if (QFileInfo(QStringLiteral("/bin")).isSymLink()) {
        bool linked = false;
        for (const GuestLayout::Link &link : l.links)
            linked = linked || link.path == QLatin1String("/bin");
        QVERIFY(linked);
    }

    // A readable path that is a symlink: its target shared, the link recreated where it was.
    QVERIFY(root.mkpath(QStringLiteral("system/usr/lib64")));
    QVERIFY(QFile::link(QStringLiteral("usr/lib64"), m_root->filePath(QStringLiteral("system/lib64"))));
    Policy narrow;
    narrow.readable = { m_root->filePath(QStringLiteral("system/lib64")) };
    const Result<GuestLayout> linked = GuestLayout::fromPolicy(narrow, ws, home);
    QVERIFY2(linked.ok(), linked.ok() ? "" : qPrintable(linked.error().toString()));
    QVERIFY(shareAt(linked.value(), m_root->filePath(QStringLiteral("system/usr/lib64"))));
    QVERIFY(linked.value().links.contains(
        GuestLayout::Link{ m_root->filePath(QStringLiteral("system/lib64")), QStringLiteral("usr/lib64") }));
    QVERIFY(linked.value().layoutFile().contains(QByteArray(
        "symlink\tusr/lib64\t" + QFile::encodeName(m_root->filePath(QStringLiteral("system/lib64"))) + '\n')));

    // A workspace under /tmp is still shared, read-write, on the guest's private /tmp.
    QTemporaryDir tmpWorkspace;
    const Result<GuestLayout> underTmp = GuestLayout::fromPolicy(Policy::defaults(), tmpWorkspace.path(), home);
    QVERIFY(underTmp.ok());
    QVERIFY(shareAt(underTmp.value(), QFileInfo(tmpWorkspace.path()).canonicalFilePath()));
    QVERIFY(shareAt(underTmp.value(), QFileInfo(tmpWorkspace.path()).canonicalFilePath())->writable);
}

void TestVmGuest::layoutRefusesWhatItCannotShare()
{
    const QString ws = m_root->filePath(QStringLiteral("ws2"));
    QVERIFY(QDir().mkpath(ws));
    Policy policy = Policy::defaults();
    policy.denied.append(m_root->path());
    const Result<GuestLayout> inside = GuestLayout::fromPolicy(policy, ws, QDir::homePath());
    QVERIFY(!inside.ok());
    QVERIFY(inside.error().message.contains(QStringLiteral("inside the denied path")));

    Policy writableRoot = Policy::defaults();
    writableRoot.writable.append(QStringLiteral("/"));
    QVERIFY(!GuestLayout::fromPolicy(writableRoot, ws, QDir::homePath()).ok());
    QVERIFY(!GuestLayout::fromPolicy(Policy::defaults(), QStringLiteral("/"), QDir::homePath()).ok());
    QVERIFY(!GuestLayout::fromPolicy(Policy::defaults(), ws + QStringLiteral("/missing"), QDir::homePath()).ok());

    const QString odd = m_root->filePath(QStringLiteral("line\nbreak"));
    QVERIFY(QDir().mkpath(odd));
    const Result<GuestLayout> broken = GuestLayout::fromPolicy(Policy::defaults(), odd, QDir::homePath());
    QVERIFY(!broken.ok());
    QVERIFY(broken.error().message.contains(QStringLiteral("tab or line break")));
}

void TestVmGuest::aRunningVmServesOnlyLayoutsThatAllowAllItShares()
{
    const QString ws = m_root->filePath(QStringLiteral("ws3"));
    const QString home = m_root->filePath(QStringLiteral("home3"));
    QVERIFY(QDir().mkpath(ws) && QDir().mkpath(home + QStringLiteral("/.ssh"))
            && QDir().mkpath(home + QStringLiteral("/a")));
    const GuestLayout before = GuestLayout::fromPolicy(Policy::defaults(), ws, home).value();
    // A directory created since the VM booted: the VM still serves (it just does not show it).
    QVERIFY(QDir().mkpath(home + QStringLiteral("/b")));
    const GuestLayout after = GuestLayout::fromPolicy(Policy::defaults(), ws, home).value();
    QVERIFY(after.key() != before.key());
    QVERIFY(after.isServedBy(before));
    // Another workspace: never.
    const QString other = m_root->filePath(QStringLiteral("ws4"));
    QVERIFY(QDir().mkpath(other));
    QVERIFY(!GuestLayout::fromPolicy(Policy::defaults(), other, home).value().isServedBy(before));
    // A path denied since: the VM that shares it does not serve the stricter policy.
    Policy stricter = Policy::defaults();
    stricter.denied.append(home + QStringLiteral("/a"));
    QVERIFY(!GuestLayout::fromPolicy(stricter, ws, home).value().isServedBy(before));
    // A VM with no shares never serves a spawn (the workspace must be shared).
    QVERIFY(!after.isServedBy(GuestLayout()));
    // The network is part of what a VM is: one without a forwarder never serves an allowlist
    // spawn, one with a forwarder never a spawn under network none or other domain rules.
    GuestLayout proxied = after;
    proxied.proxied = true;
    proxied.allowedDomains = { QStringLiteral("example.com") };
    QVERIFY(proxied.key() != after.key());
    QVERIFY(!proxied.isServedBy(after));
    QVERIFY(!after.isServedBy(proxied));
    QVERIFY(proxied.isServedBy(proxied));
    GuestLayout otherRules = proxied;
    otherRules.allowedDomains.append(QStringLiteral("example.org"));
    QVERIFY(otherRules.key() != proxied.key());
    QVERIFY(!otherRules.isServedBy(proxied));
    GuestLayout denying = proxied;
    denying.deniedDomains = { QStringLiteral("example.com") };
    QVERIFY(!denying.isServedBy(proxied));
    QCOMPARE(proxied.layoutFile(), after.layoutFile());
    // Network full has VMs of its own too: not a none or allowlist VM, nor one for other lists.
    GuestLayout full = proxied;
    full.proxied = false;
    full.userNetwork = true;
    QVERIFY(full.key() != proxied.key() && full.key() != after.key());
    QVERIFY(!full.isServedBy(proxied) && !full.isServedBy(after) && !after.isServedBy(full));
    QVERIFY(full.isServedBy(full));
    GuestLayout fullOther = full;
    fullOther.allowedDomains = { QStringLiteral("192.168.1.20") };
    QVERIFY(fullOther.key() != full.key() && !fullOther.isServedBy(full));
    // What the proxy channel is opened with is part of it too: credentials, the extra
    // authorities, the upstream proxy, and the bundle the guest trusts (bound over the
    // system's, written in the layout file).
    GuestLayout withCredential = proxied;
    withCredential.credentials = { PolicyCredential{
        QStringLiteral("forge"), QStringLiteral("FORGE_TOKEN"), { QStringLiteral("example.com") }, {}, {} } };
    withCredential.caBundle = QStringLiteral("/state/ca-bundles/0123.pem");
    QVERIFY(withCredential.key() != proxied.key());
    QVERIFY(!withCredential.isServedBy(proxied) && !proxied.isServedBy(withCredential));
    QVERIFY(withCredential.isServedBy(withCredential));
    QVERIFY(
        withCredential.layoutFile().endsWith("bind\t/.sandbox/ca-bundle.pem\t/.sandbox/ca-bundle.pem\n"
                                             "bind\t/.sandbox/ca-bundle.pem\t/etc/ssl/certs/ca-certificates.crt\n"));
    GuestLayout otherHosts = withCredential;
    otherHosts.credentials.first().hosts.append(QStringLiteral("example.org"));
    QVERIFY(otherHosts.key() != withCredential.key() && !otherHosts.isServedBy(withCredential));
    GuestLayout otherBundle = withCredential;
    otherBundle.caBundle = QStringLiteral("/state/ca-bundles/4567.pem");
    QVERIFY(otherBundle.key() != withCredential.key() && !otherBundle.isServedBy(withCredential));
    GuestLayout upstream = proxied;
    upstream.upstreamProxy = PolicyUpstreamProxy{ QStringLiteral("http://proxy.example:3128"), QString() };
    QVERIFY(upstream.key() != proxied.key() && !upstream.isServedBy(proxied) && !proxied.isServedBy(upstream));
    GuestLayout otherProxyCredential = upstream;
    otherProxyCredential.upstreamProxy->credential = QStringLiteral("corp");
    QVERIFY(otherProxyCredential.key() != upstream.key() && !otherProxyCredential.isServedBy(upstream));
    // So is the SSH agent's policy: other keys or another confirmation, another VM.
    GuestLayout signing = proxied;
    signing.sshAgent = PolicySshAgent{ { QStringLiteral("SHA256:deploy") }, {}, PolicySshAgent::Confirm::Always };
    QVERIFY(signing.key() != proxied.key() && !signing.isServedBy(proxied) && !proxied.isServedBy(signing));
    GuestLayout signingNever = signing;
    signingNever.sshAgent->confirm = PolicySshAgent::Confirm::Never;
    QVERIFY(signingNever.key() != signing.key() && !signingNever.isServedBy(signing));
    GuestLayout otherKey = signing;
    otherKey.sshAgent->keys = { QStringLiteral("SHA256:personal") };
    QVERIFY(otherKey.key() != signing.key() && !otherKey.isServedBy(signing));
    GuestLayout extraCa = proxied;
    extraCa.extraCaCertificates = { QStringLiteral("/etc/corp-root.pem") };
    QVERIFY(extraCa.key() != proxied.key() && !extraCa.isServedBy(proxied));
}

void TestVmGuest::aShareSwappedOrGoneAfterTheLayoutIsNotShared()
{
    // A workspace split around a denied directory: its other subdirectories are shares of
    // their own, found by listing it. Between the layout and QEMU's start, something with
    // write access to the workspace swaps them.
    QTemporaryDir scratch(m_root->filePath(QStringLiteral("swap-XXXXXX")));
    QVERIFY(scratch.isValid());
    QDir root(scratch.path());
    for (const char *dir :
         { "ws/keys", "ws/more-keys", "ws/linked", "ws/renamed", "ws/recreated", "ws/gone/inner", "ws/kept" })
        QVERIFY(root.mkpath(QString::fromLatin1(dir)));
    QVERIFY(writeFile(root.filePath(QStringLiteral("ws/keys/id")), "secret"));
    QVERIFY(writeFile(root.filePath(QStringLiteral("ws/more-keys/id")), "secret"));
    const QString ws = root.filePath(QStringLiteral("ws"));
    // Readable /usr only: a readable / would be split down to the workspace, and every entry
    // of a crowded /var/tmp would take one of the VM's shares.
    Policy policy = Policy::defaults();
    policy.readable = { QStringLiteral("/usr") };
    policy.denied.append(QStringLiteral("${workspace}/keys"));
    policy.denied.append(QStringLiteral("${workspace}/more-keys"));
    policy.readOnly.append(QStringLiteral("${workspace}/gone/inner"));
    const Result<GuestLayout> computed = GuestLayout::fromPolicy(policy, ws, root.filePath(QStringLiteral("home")));
    QVERIFY2(computed.ok(), computed.ok() ? "" : qPrintable(computed.error().toString()));
    GuestLayout layout = computed.value();
    for (const char *dir : { "linked", "renamed", "recreated", "gone", "gone/inner", "kept" })
        QVERIFY2(shareAt(layout, ws + QLatin1Char('/') + QString::fromLatin1(dir)), dir);
    QVERIFY(!sharesInside(layout, ws + QStringLiteral("/keys")));
    QVERIFY(!sharesInside(layout, ws + QStringLiteral("/more-keys")));
    const bool birthTimes = shareAt(layout, ws + QStringLiteral("/recreated"))->birth != 0;

    // A symlink to a denied directory in place of one share, the other denied directory
    // renamed over another, a third (with a read-only share on top) removed, a fourth
    // removed and made again (perhaps with the same inode number).
    QVERIFY(root.rename(QStringLiteral("ws/linked"), QStringLiteral("linked-away")));
    QVERIFY(QFile::link(ws + QStringLiteral("/keys"), ws + QStringLiteral("/linked")));
    QVERIFY(QDir(ws + QStringLiteral("/renamed")).removeRecursively());
    QVERIFY(root.rename(QStringLiteral("ws/more-keys"), QStringLiteral("ws/renamed")));
    QVERIFY(QDir(ws + QStringLiteral("/gone")).removeRecursively());
    QVERIFY(root.rmdir(QStringLiteral("ws/recreated")) && root.mkdir(QStringLiteral("ws/recreated")));

    QStringList dropped;
    const std::shared_ptr<const OpenedShares> opened = OpenedShares::open(layout, &dropped);
    QVERIFY(opened);
    QStringList expected
        = { QStringLiteral("linked"), QStringLiteral("renamed"), QStringLiteral("gone"), QStringLiteral("gone/inner") };
    // Without birth times a reused inode number looks like the same directory (an empty one,
    // made by whoever could write there): only where the file system keeps them is it told apart.
    if (birthTimes)
        expected.append(QStringLiteral("recreated"));
    for (const QString &dir : std::as_const(expected)) {
        const QString path = ws + QLatin1Char('/') + dir;
        QVERIFY2(!shareAt(layout, path), qPrintable(dir));
        QVERIFY2(dropped.contains(path), qPrintable(dropped.join(QLatin1Char(' '))));
    }
    QCOMPARE(dropped.size(), expected.size());
    // What stayed is shared as the very directories the layout looked at, held open
    // close-on-exec (only QEMU inherits them), one per share.
    QCOMPARE(opened->descriptors().size(), layout.shares.size());
    QVERIFY(shareAt(layout, ws + QStringLiteral("/kept")));
    for (qsizetype i = 0; i < layout.shares.size(); ++i) {
        const int descriptor = opened->descriptors().at(i);
        struct stat held = {};
        struct stat named = {};
        QVERIFY(::fstat(descriptor, &held) == 0);
        QVERIFY(::stat(QFile::encodeName(layout.shares.at(i).hostPath).constData(), &named) == 0);
        QVERIFY2(held.st_dev == named.st_dev && held.st_ino == named.st_ino, qPrintable(layout.shares.at(i).hostPath));
        QVERIFY(::fcntl(descriptor, F_GETFD) & FD_CLOEXEC);
    }
    // The guest is told only what QEMU is given, and QEMU is given the held directories.
    const QByteArray file = layout.layoutFile();
    QVERIFY(!file.contains(QFile::encodeName(ws + QStringLiteral("/linked\n"))));
    QVERIFY(!file.contains(QFile::encodeName(ws + QStringLiteral("/gone"))));
    QemuDriver driver(QStringLiteral("/usr/bin/qemu-system-x86_64"));
    VmSpec spec;
    spec.kernel = QStringLiteral("/boot/vmlinuz");
    spec.initramfs = QStringLiteral("/run/i.cpio");
    spec.agentSocket = QStringLiteral("/run/agent");
    spec.consoleLog = QStringLiteral("/run/console.log");
    spec.shares = layout.shares;
    spec.openedShares = opened;
    const Result<VmDriver::Command> command = driver.bootCommand(spec, VmDriver::Acceleration::Software);
    QVERIFY(command.ok());
    const QString line = command.value().arguments.join(QLatin1Char(' '));
    QVERIFY(line.contains(QStringLiteral("local,id=fs0,path=/proc/self/fd/%1,").arg(opened->descriptors().at(0))));
    QVERIFY2(!line.contains(ws), qPrintable(line));
    // Unchanged paths all stay: opening them again drops nothing.
    GuestLayout again = layout;
    QStringList none;
    QVERIFY(OpenedShares::open(again, &none));
    QVERIFY2(none.isEmpty(), qPrintable(none.join(QLatin1Char(' '))));
    QCOMPARE(again.shares, layout.shares);
}

void TestVmGuest::aRunningVmServesOnWhenAShareOfItsIsRemoved()
{
    // A home split around its denied ~/.ssh: each of its other folders is a share of its own.
    QTemporaryDir scratch(m_root->filePath(QStringLiteral("removed-XXXXXX")));
    QVERIFY(scratch.isValid());
    QDir root(scratch.path());
    for (const char *dir : { "ws", "home/.ssh", "home/kept", "home/removed/inner", "home/moved", "home/recreated" })
        QVERIFY(root.mkpath(QString::fromLatin1(dir)));
    QVERIFY(writeFile(root.filePath(QStringLiteral("home/moved/notes")), "moved along"));
    const QString ws = root.filePath(QStringLiteral("ws"));
    const QString home = root.filePath(QStringLiteral("home"));
    Policy policy = Policy::defaults();
    policy.readable = { home };
    policy.writable.append(home + QStringLiteral("/recreated"));
    const GuestLayout booted = GuestLayout::fromPolicy(policy, ws, home).value();
    for (const char *dir : { "kept", "removed", "moved", "recreated" })
        QVERIFY2(shareAt(booted, home + QLatin1Char('/') + QString::fromLatin1(dir)), dir);

    // The VM started with that layout, its shares held open as QEMU is given them.
    GuestLayout shared = booted;
    VmSpec spec;
    spec.openedShares = OpenedShares::open(shared, nullptr);
    spec.shares = shared.shares;
    VmMachine machine(VmDriver::Command{}, spec, booted, 1000);
    QCOMPARE(machine.servingLayout(), booted);

    // Another program removes a folder of the home: the next spawn's layout no longer has it.
    // The VM serves it still (the removed folder is empty and can get nothing again), where
    // its layout as it booted does not.
    QVERIFY(QDir(home + QStringLiteral("/removed")).removeRecursively());
    const GuestLayout afterRemoval = GuestLayout::fromPolicy(policy, ws, home).value();
    QVERIFY(afterRemoval.key() != booted.key());
    QVERIFY(!afterRemoval.isServedBy(booted));
    QCOMPARE(spec.openedShares->removed(), QStringList{ home + QStringLiteral("/removed") });
    QVERIFY(!sharesInside(machine.servingLayout(), home + QStringLiteral("/removed")));
    QVERIFY(afterRemoval.isServedBy(machine.servingLayout()));

    // A folder renamed away is not removed: the VM still shows what it holds under its old
    // name, which the next layout no longer allows there. It serves no more.
    QVERIFY(root.rename(QStringLiteral("home/moved"), QStringLiteral("moved-away")));
    const GuestLayout afterMove = GuestLayout::fromPolicy(policy, ws, home).value();
    QVERIFY(shareAt(machine.servingLayout(), home + QStringLiteral("/moved")));
    QVERIFY(!afterMove.isServedBy(machine.servingLayout()));
    QVERIFY(root.rename(QStringLiteral("moved-away"), QStringLiteral("home/moved")));
    QVERIFY(afterRemoval.isServedBy(machine.servingLayout()));

    // A writable folder removed and made again: the VM holds the removed one, where nothing
    // can be written, so it serves no spawn that needs the new one, even of the same layout.
    QVERIFY(root.rmdir(QStringLiteral("home/recreated")) && root.mkdir(QStringLiteral("home/recreated")));
    const GuestLayout afterRecreation = GuestLayout::fromPolicy(policy, ws, home).value();
    QCOMPARE(afterRecreation.key(), afterRemoval.key());
    QVERIFY(!afterRecreation.isServedBy(machine.servingLayout()));
}

void TestVmGuest::modulesComeWithTheirDependenciesInLoadOrder()
{
    const Result<QString> kernel = GuestImage::discoverKernel();
    QVERIFY2(kernel.ok(), kernel.ok() ? "" : qPrintable(kernel.error().message));
    const Result<QStringList> modules
        = GuestImage::modulesFor(GuestImage::kernelVersion(kernel.value()), { QStringLiteral("9p") });
    QVERIFY(modules.ok());
    auto indexOf = [&](const char *name) {
        for (qsizetype i = 0; i < modules.value().size(); ++i) {
            if (modules.value().at(i).endsWith(QLatin1Char('/') + QLatin1String(name)))
                return int(i);
        }
        return -1;
    };
    QVERIFY(indexOf("9pnet.ko") >= 0 && indexOf("netfs.ko") >= 0);
    QVERIFY(indexOf("9pnet.ko") < indexOf("9p.ko"));
    QVERIFY(indexOf("netfs.ko") < indexOf("9p.ko"));
    QCOMPARE(modules.value().last().section(QLatin1Char('/'), -1), QStringLiteral("9p.ko"));
    const Result<QStringList> missing
        = GuestImage::modulesFor(GuestImage::kernelVersion(kernel.value()), { QStringLiteral("no_such_module") });
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.contains(QStringLiteral("no_such_module")));
}

void TestVmGuest::initramfsUnpacksWithTheRealCpio()
{
    GuestImage::Inputs inputs;
    inputs.helpers.insert(QStringLiteral("sandbox-vm-agent"), QByteArray("agent-bytes"));
    const QString image = m_root->filePath(QStringLiteral("initramfs.cpio"));
    const Result<QString> built = GuestImage::build(inputs, image);
    QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message));
    QFile archive(image);
    QVERIFY(archive.open(QIODevice::ReadOnly));
    QByteArray layout = GuestImage::singleFileArchive(QStringLiteral("/.sandbox/layout"), "mount\ts0\tro\t/usr\n");
    const QString out = m_root->filePath(QStringLiteral("unpacked"));
    QVERIFY(QDir().mkpath(out));
    QProcess cpio;
    cpio.setWorkingDirectory(out);
    cpio.start(QStringLiteral("cpio"), { QStringLiteral("-id"), QStringLiteral("--no-absolute-filenames") });
    QVERIFY(cpio.waitForStarted());
    cpio.write(archive.readAll());
    cpio.closeWriteChannel();
    QVERIFY(cpio.waitForFinished(60000));
    QCOMPARE(cpio.exitCode(), 0);
    // The layout is a second archive (the kernel unpacks each one after the other).
    cpio.start(QStringLiteral("cpio"), { QStringLiteral("-id"), QStringLiteral("--no-absolute-filenames") });
    QVERIFY(cpio.waitForStarted());
    cpio.write(layout);
    cpio.closeWriteChannel();
    QVERIFY(cpio.waitForFinished(60000));
    QCOMPARE(cpio.exitCode(), 0);
    QCOMPARE(readFile(out + QStringLiteral("/.sandbox/sandbox-vm-agent")), QByteArray("agent-bytes"));
    QCOMPARE(QFileInfo(out + QStringLiteral("/init")).symLinkTarget(),
             out + QStringLiteral("/.sandbox/sandbox-vm-agent"));
    QVERIFY(QFileInfo(out + QStringLiteral("/.sandbox/bin/busybox")).size() > 100000);
    QCOMPARE(QFileInfo(out + QStringLiteral("/.sandbox/bin/sh")).symLinkTarget(),
             out + QStringLiteral("/.sandbox/bin/busybox"));
    const QList<QByteArray> modules = readFile(out + QStringLiteral("/.sandbox/modules")).split('\n');
    QVERIFY(modules.size() > 5);
    for (const QByteArray &module : modules) {
        if (!module.isEmpty())
            QVERIFY2(QFileInfo::exists(out + QString::fromUtf8(module)), module.constData());
    }
    QVERIFY(readFile(out + QStringLiteral("/.sandbox/layout")).startsWith("mount\ts0"));
}

void TestVmGuest::qemuCommandHasNoNetworkAndReadOnlyShares()
{
    QemuDriver driver(QStringLiteral("/usr/bin/qemu-system-x86_64"));
    VmSpec spec;
    spec.kernel = QStringLiteral("/boot/vmlinuz");
    spec.initramfs = QStringLiteral("/run/i.cpio");
    spec.agentSocket = QStringLiteral("/run/a,b/agent");
    spec.consoleLog = QStringLiteral("/run/console.log");
    spec.kernelCommandLine = QStringLiteral("quiet");
    for (int i = 0; i < 40; ++i)
        spec.shares.append({ QStringLiteral("/data/d%1").arg(i), i == 0 });
    spec.shares[1].hostPath = QStringLiteral("/odd,path");
    const Result<VmDriver::Command> tcg = driver.bootCommand(spec, VmDriver::Acceleration::Software);
    QVERIFY(tcg.ok());
    const QString line = tcg.value().arguments.join(QLatin1Char(' '));
    QVERIFY(line.contains(QStringLiteral("-accel tcg -M pc")));
    QVERIFY(line.contains(QStringLiteral("-nic none")));
    QVERIFY(!line.contains(QStringLiteral("-netdev")));
    QVERIFY(line.contains(QStringLiteral("-sandbox on,")));
    QVERIFY(line.contains(QStringLiteral("path=/run/a,,b/agent,server=on,wait=on")));
    QVERIFY(line.contains(QStringLiteral("path=/data/d0,security_model=none -device")));
    QVERIFY(line.contains(QStringLiteral("path=/odd,,path,security_model=none,readonly=on")));
    QVERIFY(line.contains(QStringLiteral("pci-bridge,id=bridge0")));
    QVERIFY(line.contains(QStringLiteral("mount_tag=s24,bus=bridge0,addr=0x5 ")));
    // QEMU reads the slot as hexadecimal: the 20th device on a bridge is slot 0x14.
    QVERIFY(line.contains(QStringLiteral("mount_tag=s39,bus=bridge0,addr=0x14")));
    QVERIFY(!line.contains(QStringLiteral("-monitor")) && !line.contains(QStringLiteral("-qmp")));

    const Result<VmDriver::Command> kvm = driver.bootCommand(spec, VmDriver::Acceleration::Hardware);
    QVERIFY(kvm.ok());
    const QString kvmLine = kvm.value().arguments.join(QLatin1Char(' '));
    QVERIFY(kvmLine.contains(QStringLiteral("-accel kvm -cpu host -M microvm")));
    QVERIFY(kvmLine.contains(QStringLiteral("virtio-9p-device,fsdev=fs3,mount_tag=s3")));
    QVERIFY(kvmLine.contains(QStringLiteral("virtio-serial-device")));
    QVERIFY(!kvmLine.contains(QStringLiteral("sandbox.proxy")));

    // Network allowlist: still no NIC, one more port whose host end the engine listens on.
    spec.proxySocket = QStringLiteral("/run/a,b/proxy");
    const QString proxied
        = driver.bootCommand(spec, VmDriver::Acceleration::Software).value().arguments.join(QLatin1Char(' '));
    QVERIFY(proxied.contains(QStringLiteral("-nic none")));
    QVERIFY(!proxied.contains(QStringLiteral("-netdev")));
    QVERIFY(proxied.contains(QStringLiteral("-chardev socket,id=proxy,path=/run/a,,b/proxy -device "
                                            "virtserialport,chardev=proxy,name=sandbox.proxy")));
    QVERIFY(!proxied.contains(QStringLiteral("proxy,server")));

    // Network full: one virtio-net NIC on QEMU's user-mode network, IPv4 only, nothing forwarded in.
    spec.proxySocket.clear();
    spec.userNetwork = true;
    const QString full
        = driver.bootCommand(spec, VmDriver::Acceleration::Software).value().arguments.join(QLatin1Char(' '));
    QVERIFY(!full.contains(QStringLiteral("-nic none")));
    QVERIFY2(full.contains(QStringLiteral("-netdev user,id=net0,net=10.0.2.0/24,host=10.0.2.2,ipv6=off -device "
                                          "virtio-net-pci,netdev=net0")),
             qPrintable(full));
    QVERIFY(!full.contains(QStringLiteral("hostfwd")) && !full.contains(QStringLiteral("guestfwd")));
    QVERIFY(full.count(QStringLiteral("-netdev")) == 1);
    const QString fullKvm
        = driver.bootCommand(spec, VmDriver::Acceleration::Hardware).value().arguments.join(QLatin1Char(' '));
    QVERIFY(fullKvm.contains(QStringLiteral("-device virtio-net-device,netdev=net0")));
}

void TestVmGuest::vfkitCommandSharesOnlyWhatItCanKeepReadOnly()
{
    VfkitDriver driver(QStringLiteral("/opt/homebrew/bin/vfkit"));
#ifndef Q_OS_MACOS
    QVERIFY(!driver.availability().available);
    QVERIFY(driver.availability().reason.contains(QStringLiteral("macOS")));
#endif
    VmSpec spec;
    spec.kernel = QStringLiteral("/vm/vmlinux");
    spec.initramfs = QStringLiteral("/vm/initramfs.cpio");
    spec.kernelCommandLine = QStringLiteral("console=hvc0 quiet");
    spec.runDirectory = QStringLiteral("/vm/run");
    spec.agentSocket = QStringLiteral("/vm/run/agent");
    spec.consoleLog = QStringLiteral("/vm/run/console.log");
    spec.memoryMb = 768;
    spec.cpus = 2;
    spec.shares = { { QStringLiteral("/Users/me/project"), true }, { QStringLiteral("/usr"), false } };
    const Result<VmDriver::Command> command = driver.bootCommand(spec, VmDriver::Acceleration::Hardware);
    QVERIFY(command.ok());
    QCOMPARE(command.value().program, QStringLiteral("/opt/homebrew/bin/vfkit"));
    const QStringList &args = command.value().arguments;
    QCOMPARE(args.mid(0, 4),
             QStringList(
                 { QStringLiteral("--cpus"), QStringLiteral("2"), QStringLiteral("--memory"), QStringLiteral("768") }));
    QVERIFY(args.contains(QStringLiteral("linux,kernel=/vm/vmlinux,initrd=/vm/initramfs.cpio,cmdline=\"console=hvc0 "
                                         "quiet sandbox.channel=vsock sandbox.fs=virtiofs\"")));
    QVERIFY(args.contains(QStringLiteral("virtio-vsock,port=1024,socketURL=/vm/run/agent,listen")));
    QVERIFY(args.contains(QStringLiteral("virtio-fs,sharedDir=/Users/me/project,mountTag=s0")));
    QVERIFY(!args.join(QLatin1Char(' ')).contains(QStringLiteral("sharedDir=/usr")));
    QVERIFY(!args.join(QLatin1Char(' ')).contains(QStringLiteral("virtio-net")));
    QCOMPARE(args.last(), QStringLiteral("unix:///vm/run/rest"));
    spec.shares = { { QStringLiteral("/a,b"), true } };
    QVERIFY(!driver.bootCommand(spec, VmDriver::Acceleration::Hardware).ok());
    // No forwarder port with vfkit yet: an allowlist VM is refused, not booted without it.
    spec.shares.clear();
    spec.proxySocket = QStringLiteral("/vm/run/proxy");
    const Result<VmDriver::Command> proxied = driver.bootCommand(spec, VmDriver::Acceleration::Hardware);
    QVERIFY(!proxied.ok());
    QVERIFY(proxied.error().message.contains(QStringLiteral("forwarder")));
}

void TestVmGuest::hyperVScriptHasNoNetworkAdapter()
{
    HyperVDriver driver;
    QVERIFY(!driver.availability().available);
    VmSpec spec;
    spec.runDirectory = QStringLiteral("C:/Users/me/vm/run-1");
    spec.memoryMb = 1024;
    spec.cpus = 2;
    const Result<VmDriver::Command> command = driver.bootCommand(spec, VmDriver::Acceleration::Hardware);
    QVERIFY(command.ok());
    QCOMPARE(command.value().program, QStringLiteral("powershell.exe"));
    const QString script = command.value().arguments.last();
    QVERIFY(script.startsWith(QStringLiteral("$ErrorActionPreference = 'Stop'; New-VM -Name 'sandbox-vm-run-1' "
                                             "-Generation 2 -MemoryStartupBytes 1024MB -NoVHD")));
    QVERIFY(
        script.contains(QStringLiteral("Get-VMNetworkAdapter -VMName 'sandbox-vm-run-1' | Remove-VMNetworkAdapter")));
    QVERIFY(script.contains(QStringLiteral("Set-VMProcessor -VMName 'sandbox-vm-run-1' -Count 2")));
    QVERIFY(script.contains(QStringLiteral("00000400-facb-11e6-bd58-64006a7986d3")));
    QVERIFY(script.contains(QStringLiteral(
        "Set-ItemProperty -Path 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Virtualization\\"
        "GuestCommunicationServices\\00000400-facb-11e6-bd58-64006a7986d3' -Name ElementName -Value "
        "'Sandbox Studio exec agent'")));
    QVERIFY(script.contains(QStringLiteral("Set-VMFirmware -VMName 'sandbox-vm-run-1' -EnableSecureBoot Off")));
    QVERIFY(script.contains(QStringLiteral("Add-VMHardDiskDrive -VMName 'sandbox-vm-run-1' -Path "
                                           "'C:/Users/me/vm/run-1/boot.vhdx'; Set-VMFirmware -VMName "
                                           "'sandbox-vm-run-1' -FirstBootDevice (Get-VMHardDiskDrive -VMName "
                                           "'sandbox-vm-run-1')")));
    // Started, its id printed for winvm-helper, and the command lasts as long as the VM runs.
    QVERIFY(script.endsWith(
        QStringLiteral("Start-VM -VMName 'sandbox-vm-run-1'; Write-Output ('sandbox-vm-id ' + (Get-VM -Name "
                       "'sandbox-vm-run-1').Id.Guid); while ((Get-VM -Name 'sandbox-vm-run-1').State -eq 'Running') "
                       "{ Start-Sleep -Milliseconds 500 }")));
    QCOMPARE(HyperVDriver::quoted(QStringLiteral("it's")), QStringLiteral("'it''s'"));
    QVERIFY(driver.availability().reason.contains(QStringLiteral("Windows")));

    // A quote in the run directory stays inside its PowerShell literal.
    spec.runDirectory = QStringLiteral("C:/Users/o'brien/vm/run-2");
    const QString quotedScript = driver.bootCommand(spec, VmDriver::Acceleration::Hardware).value().arguments.last();
    QVERIFY(quotedScript.contains(QStringLiteral("-Path 'C:/Users/o''brien/vm/run-2/boot.vhdx'")));
    QVERIFY(!quotedScript.contains(QStringLiteral("o'brien")));
    spec.runDirectory = QStringLiteral("C:/Users/me/vm/run-1");

    spec.kernelCommandLine = QStringLiteral("console=ttyS0 rdinit=/init");
    QCOMPARE(HyperVDriver::guestCommandLine(spec), QStringLiteral("console=ttyS0 rdinit=/init sandbox.channel=vsock"));
    QCOMPARE(HyperVDriver::vmIdFromOutput("WARNING: x\r\nsandbox-vm-id 6F1C2D3E-0A1B-4C5D-8E9F-0123456789AB\r\n"),
             QStringLiteral("6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab"));
    QVERIFY(HyperVDriver::vmIdFromOutput("sandbox-vm-id 6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab; Remove-VM\n").isEmpty());
    QVERIFY(HyperVDriver::vmIdFromOutput("no id here\n").isEmpty());
    const VmDriver::Command bridge = HyperVDriver::agentBridgeCommand(
        QStringLiteral("C:/Users/me/vm/bin/winvm-helper.exe"), QStringLiteral("6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab"));
    QCOMPARE(bridge.program, QStringLiteral("C:/Users/me/vm/bin/winvm-helper.exe"));
    QCOMPARE(bridge.arguments,
             QStringList({ QStringLiteral("--vm-id"), QStringLiteral("6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab"),
                           QStringLiteral("--port"), QStringLiteral("1024") }));
    QVERIFY(HyperVDriver::teardownCommand(spec).arguments.last().endsWith(
        QStringLiteral("Stop-VM -Name 'sandbox-vm-run-1' -TurnOff -Force; Remove-VM -Name 'sandbox-vm-run-1' -Force")));
    spec.proxySocket = QStringLiteral("C:/Users/me/vm/run-1/proxy");
    QVERIFY(!driver.bootCommand(spec, VmDriver::Acceleration::Hardware).ok());
}

void TestVmGuest::helperStoreFetchesOnceAndVerifiesEveryTime()
{
    // The forwarder is pinned and fetched like the other guest helpers.
    QVERIFY(HelperStore::pinnedHelpers().contains(QStringLiteral("sandbox-vm-gvforwarder")));
    QVERIFY(VmLauncher::requiredHelpers().contains(QStringLiteral("sandbox-vm-gvforwarder")));
    QCOMPARE(HelperStore::pin(QStringLiteral("sandbox-vm-gvforwarder")),
             QString::fromLatin1(
                 QCryptographicHash::hash(readFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/sandbox-vm-gvforwarder")),
                                          QCryptographicHash::Sha256)
                     .toHex()));
    const QString bin = m_root->filePath(QStringLiteral("store/bin"));
    const QUrl source(QStringLiteral("http://127.0.0.1:%1/good").arg(m_port));
    QStringList progress;
    HelperStore first(bin, source);
    const auto fetched = first.ensure(HelperStore::pinnedHelpers(), [&](const QString &m) { progress.append(m); });
    QVERIFY2(fetched.ok(), fetched.ok() ? "" : qPrintable(fetched.error().message));
    QCOMPARE(first.fetches(), HelperStore::pinnedHelpers().size());
    QVERIFY(progress.join(QLatin1Char('\n')).contains(QStringLiteral("fetching sandbox-vm-agent")));
    QCOMPARE(QFile::permissions(bin) & (QFileDevice::ReadOther | QFileDevice::ReadGroup), QFileDevice::Permissions());

    HelperStore second(bin, source);
    const auto cached = second.ensure(HelperStore::pinnedHelpers(), {});
    QVERIFY(cached.ok());
    QCOMPARE(second.fetches(), 0);
    QCOMPARE(cached.value(), fetched.value());

    // Changed on disk since: never used, fetched again.
    QVERIFY(writeFile(bin + QStringLiteral("/sandbox-vm-agent"), "changed"));
    HelperStore third(bin, source);
    const auto again = third.ensure(HelperStore::pinnedHelpers(), {});
    QVERIFY(again.ok());
    QCOMPARE(third.fetches(), 1);
    QCOMPARE(again.value().value(QStringLiteral("sandbox-vm-agent")),
             fetched.value().value(QStringLiteral("sandbox-vm-agent")));
}

void TestVmGuest::helperStoreRefusesTamperedAndReportsSourceDown()
{
    const QString bin = m_root->filePath(QStringLiteral("tampered/bin"));
    HelperStore store(bin, QUrl(QStringLiteral("http://127.0.0.1:%1/bad/").arg(m_port)));
    const auto refused = store.ensure({ QStringLiteral("sandbox-vm-agent") }, {});
    QVERIFY(!refused.ok());
    const QByteArray served = readFile(m_root->filePath(QStringLiteral("bad/sandbox-vm-agent")));
    const QString actual = QString::fromLatin1(QCryptographicHash::hash(served, QCryptographicHash::Sha256).toHex());
    QVERIFY(refused.error().message.contains(actual));
    QVERIFY(refused.error().message.contains(HelperStore::pin(QStringLiteral("sandbox-vm-agent"))));
    QVERIFY(refused.error().message.contains(QStringLiteral("sandbox-vm-agent")));
    QVERIFY(!QFileInfo::exists(bin + QStringLiteral("/sandbox-vm-agent")));

    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 port = closed.serverPort();
    closed.close();
    HelperStore down(bin, QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
    const auto unreachable = down.ensure({ QStringLiteral("sandbox-vm-agent") }, {});
    QVERIFY(!unreachable.ok());
    QVERIFY2(unreachable.error().message.contains(QStringLiteral("cannot fetch the helper sandbox-vm-agent")),
             qPrintable(unreachable.error().message));

    HelperStore unpinned(bin, QUrl(QStringLiteral("http://127.0.0.1:%1/good/").arg(m_port)));
    QVERIFY(!unpinned.ensure({ QStringLiteral("not-a-helper") }, {}).ok());
}

void TestVmGuest::spawnWithAnAgentNamesItsSocketAfterTheRequestsVariables()
{
    SpawnRequest request;
    request.cwd = QStringLiteral("/work");
    request.argv = { QStringLiteral("ssh-add"), QStringLiteral("-l") };
    request.env.insert(QStringLiteral("SSH_AUTH_SOCK"), QStringLiteral("/elsewhere/agent"));
    request.env.insert(QStringLiteral("GIT_SSH_COMMAND"), QStringLiteral("ssh -F /elsewhere/config"));
    GuestRequest::Agent agent;
    agent.socketName = QStringLiteral("agent-1234abcd");
    agent.environment.insert(QStringLiteral("SSH_AUTH_SOCK"),
                             GuestRequest::agentFolder(7) + QStringLiteral("/agent-1234abcd"));
    agent.environment.insert(QStringLiteral("GIT_SSH_COMMAND"),
                             QStringLiteral("ssh -F '/run/sandbox-studio/agent-7/config-1'"));
    agent.files
        = { { QStringLiteral("config-1"), QByteArray("Host *\n") }, { QStringLiteral("known_hosts-2"), QByteArray() } };
    QCOMPARE(GuestRequest::agentFolder(7), QStringLiteral("/run/sandbox-studio/agent-7"));

    GuestRequest::Gate gate;
    gate.guarded = { QStringLiteral("/work") };
    gate.readOnly = { QStringLiteral("/work/.git/hooks") };
    const QList<QByteArray> fields = GuestRequest::spawnPayload(request, gate, true, {}, &agent).split('\0');
    QCOMPARE(fields.value(1), QByteArray("gate agent"));
    // After the environment: the gate's guarded roots, then its read-only paths.
    const qsizetype guarded = fields.indexOf("/work", 1); // field 0 is the directory
    QVERIFY(guarded > 0);
    QCOMPARE(fields.mid(guarded - 1, 4), (QList<QByteArray>{ "1", "/work", "1", "/work/.git/hooks" }));
    // The request's own variables are replaced: the command's socket is the one it gets.
    QVERIFY(fields.contains("SSH_AUTH_SOCK=/run/sandbox-studio/agent-7/agent-1234abcd"));
    QVERIFY(fields.contains("GIT_SSH_COMMAND=ssh -F '/run/sandbox-studio/agent-7/config-1'"));
    QVERIFY(!fields.contains("SSH_AUTH_SOCK=/elsewhere/agent"));
    // After the environment: the socket's name and the files, name then content.
    const qsizetype socket = fields.indexOf("agent-1234abcd");
    QVERIFY(socket > 0);
    QCOMPARE(fields.mid(socket + 1, 5),
             (QList<QByteArray>{ "2", "config-1", "Host *\n", "known_hosts-2", QByteArray() }));
    // Without an agent nothing of it is sent.
    const QByteArray plain = GuestRequest::spawnPayload(request, gate, false);
    QCOMPARE(plain.split('\0').value(1), QByteArray("gate"));
    QVERIFY(plain.contains("SSH_AUTH_SOCK=/elsewhere/agent"));
}

QTEST_GUILESS_MAIN(TestVmGuest)
#include "tst_vmguest.moc"
