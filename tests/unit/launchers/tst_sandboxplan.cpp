// From policy to sandbox-init configuration: mount order, masks, symlinks, aliases,
// read-only pins, Landlock carving in tier 2, the environment and the proxy variables.
#include "launchers/auto/linux/SandboxPlan.h"

#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace sandbox;

namespace {

SandboxPlan::Input input(int tier, const QString &workspace, const QString &home)
{
    SandboxPlan::Input in;
    in.policy = Policy::defaults();
    in.request.argv = { QStringLiteral("true") };
    in.request.cwd = workspace;
    in.tier = tier;
    in.landlockAbi = 7;
    in.homePath = home;
    return in;
}

qsizetype indexOf(const QList<SandboxPlan::Mount> &mounts, const QString &kind, const QString &target)
{
    for (qsizetype i = 0; i < mounts.size(); ++i) {
        if (mounts[i].kind == kind && mounts[i].target == target)
            return i;
    }
    return -1;
}

} // namespace

class TestSandboxPlan final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tier1MountsParentsFirstAndMasksLast();
    void readOnlyPathsArePinnedUpToTheWorkspace();
    void deniedSymlinksAreResolved();
    void deniedPathsAreMaskedUnderEveryMount();
    void hostExecutionChannelsAreMaskedUnlessExposed();
    void tier2CarvesGrantsAroundDeniedPathsAndGuardsReadOnlyOnes();
    void unixSocketsRefusedOrSupervised();
    void environmentIsMinimalAndProxyVariablesWin_data();
    void environmentIsMinimalAndProxyVariablesWin();
    void badPathsAreNamed();
    void workspaceInsideAHiddenPathIsRefused_data();
    void workspaceInsideAHiddenPathIsRefused();
    void theRequestsWorkspaceNotItsCwdIsTheWorkspace();

private:
    QTemporaryDir m_root{ QStringLiteral("/var/tmp/plan-test-XXXXXX") };
    QString m_home;
    QString m_workspace;
    bool m_ownNamespace = false;
};

void TestSandboxPlan::initTestCase()
{
    QVERIFY(m_root.isValid());
    const QString root = QFileInfo(m_root.path()).canonicalFilePath();
    m_home = root + QStringLiteral("/home");
    m_workspace = root + QStringLiteral("/ws");
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/.ssh")));
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/.config/real-gcloud")));
    QVERIFY(QFile::link(m_home + QStringLiteral("/.config/real-gcloud"), m_home + QStringLiteral("/.config/gcloud")));
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/projects")));
    QVERIFY(QDir().mkpath(m_workspace + QStringLiteral("/.git/hooks")));
    QFile config(m_workspace + QStringLiteral("/.git/config"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.close();
    QVERIFY(QDir().mkpath(m_workspace + QStringLiteral("/src")));
    m_ownNamespace = geteuid() == 0 && unshare(CLONE_NEWNS) == 0
        && mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
}

void TestSandboxPlan::tier1MountsParentsFirstAndMasksLast()
{
    const Result<SandboxPlan> plan = SandboxPlan::build(input(1, m_workspace, m_home));
    QVERIFY2(plan, plan ? "" : qPrintable(plan.error().toString()));
    const QList<SandboxPlan::Mount> &mounts = plan.value().mounts();
    const qsizetype root = indexOf(mounts, QStringLiteral("ro"), QStringLiteral("/"));
    const qsizetype tmp = indexOf(mounts, QStringLiteral("tmpfs"), QStringLiteral("/tmp"));
    const qsizetype ws = indexOf(mounts, QStringLiteral("rw"), m_workspace);
    const qsizetype hooks = indexOf(mounts, QStringLiteral("ro"), m_workspace + QStringLiteral("/.git/hooks"));
    const qsizetype ssh = indexOf(mounts, QStringLiteral("mask"), m_home + QStringLiteral("/.ssh"));
    QVERIFY(root == 0);
    QVERIFY(tmp > root && ws > root && hooks > ws && ssh > hooks);
    bool masking = false;
    for (const SandboxPlan::Mount &mount : mounts) {
        masking = masking || mount.kind == QLatin1String("mask");
        QVERIFY2(!masking || mount.kind == QLatin1String("mask"), qPrintable(mount.target));
    }
    // /tmp is private in tier 1, so not bound from the host.
    QCOMPARE(indexOf(mounts, QStringLiteral("rw"), QStringLiteral("/tmp")), -1);
}

void TestSandboxPlan::readOnlyPathsArePinnedUpToTheWorkspace()
{
    const Result<SandboxPlan> plan = SandboxPlan::build(input(1, m_workspace, m_home));
    QVERIFY(plan);
    // .git becomes a mount point (cannot be renamed), the workspace itself already is.
    QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("rw"), m_workspace + QStringLiteral("/.git")) > 0);
    QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("ro"), m_workspace + QStringLiteral("/.git/config")) > 0);
}

void TestSandboxPlan::deniedSymlinksAreResolved()
{
    const Result<SandboxPlan> plan = SandboxPlan::build(input(1, m_workspace, m_home));
    QVERIFY(plan);
    QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("mask"), m_home + QStringLiteral("/.config/real-gcloud"))
            > 0);
    QCOMPARE(indexOf(plan.value().mounts(), QStringLiteral("mask"), m_home + QStringLiteral("/.config/gcloud")), -1);
    // Paths that do not exist are not masked, but Landlock carves them out: nothing
    // readable contains them, so a store created while the command runs stays unreadable.
    QCOMPARE(indexOf(plan.value().mounts(), QStringLiteral("mask"), m_home + QStringLiteral("/.aws")), -1);
    for (int tier : { 1, 2 }) {
        const Result<SandboxPlan> tierPlan = SandboxPlan::build(input(tier, m_workspace, m_home));
        QVERIFY(tierPlan);
        for (const QString &path : tierPlan.value().landlockReadable() + tierPlan.value().landlockWritable())
            QVERIFY2(!Policy::isInside(m_home + QStringLiteral("/.aws"), path), qPrintable(path));
    }
}

void TestSandboxPlan::deniedPathsAreMaskedUnderEveryMount()
{
    if (!m_ownNamespace)
        QSKIP("needs root for a private mount namespace");
    const QString alias = m_root.path() + QStringLiteral("/alias");
    QVERIFY(QDir().mkpath(alias));
    QCOMPARE(
        mount(QFile::encodeName(m_home).constData(), QFile::encodeName(alias).constData(), nullptr, MS_BIND, nullptr),
        0);
    const Result<SandboxPlan> plan = SandboxPlan::build(input(1, m_workspace, m_home));
    umount2(QFile::encodeName(alias).constData(), MNT_DETACH);
    QVERIFY(plan);
    QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("mask"), m_home + QStringLiteral("/.ssh")) > 0);
    QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("mask"),
                    QFileInfo(alias).canonicalFilePath() + QStringLiteral("/.ssh"))
            > 0);
}

void TestSandboxPlan::hostExecutionChannelsAreMaskedUnlessExposed()
{
    QLocalServer service;
    QVERIFY(service.listen(QStringLiteral("/run/plan-test-%1.sock").arg(QRandomGenerator::global()->bounded(1000000))));
    SandboxPlan::Input in = input(1, m_workspace, m_home);
    Result<SandboxPlan> plan = SandboxPlan::build(in);
    QVERIFY(plan);
    QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("mask"), service.fullServerName()) > 0);
    in.exposeHostExecution = true;
    plan = SandboxPlan::build(in);
    QVERIFY(plan);
    QCOMPARE(indexOf(plan.value().mounts(), QStringLiteral("mask"), service.fullServerName()), -1);
}

void TestSandboxPlan::tier2CarvesGrantsAroundDeniedPathsAndGuardsReadOnlyOnes()
{
    SandboxPlan::Input in = input(2, m_workspace, m_home);
    in.policy.readable = { m_home };
    const Result<SandboxPlan> plan = SandboxPlan::build(in);
    QVERIFY2(plan, plan ? "" : qPrintable(plan.error().toString()));
    const QStringList readable = plan.value().landlockReadable();
    const QStringList writable = plan.value().landlockWritable();
    QVERIFY(!readable.contains(m_home)); // it contains a denied path: split instead
    QVERIFY(readable.contains(m_home + QStringLiteral("/projects")));
    QVERIFY(!readable.contains(m_home + QStringLiteral("/.ssh")));
    QVERIFY(!writable.contains(m_home + QStringLiteral("/.ssh")));
    const QByteArray listingOnly = QByteArray("lldir\0", 6) + QFile::encodeName(m_home) + QByteArray(1, '\0');
    QVERIFY(plan.value().serialize().contains(listingOnly));
    // The workspace is granted whole (new files in the repository root); its read-only
    // paths are guarded and restored by sandbox-init instead.
    QVERIFY(writable.contains(m_workspace));
    const QByteArray serialized = plan.value().serialize();
    const QByteArray guardGit = QByteArray("guardgit\0", 9) + QFile::encodeName(m_workspace) + QByteArray(1, '\0');
    const QByteArray guardHooks = QByteArray("guardro\0", 8) + QFile::encodeName(m_workspace)
        + QByteArrayLiteral("/.git/hooks") + QByteArray(1, '\0');
    QVERIFY(serialized.contains(guardGit));
    QVERIFY(serialized.contains(guardHooks));
    // The write gate refuses (and reports) every write beneath a denied path.
    const QByteArray guardDenied
        = QByteArray("guarddeny\0", 10) + QFile::encodeName(m_home) + QByteArrayLiteral("/.ssh") + QByteArray(1, '\0');
    QVERIFY(serialized.contains(guardDenied));
    QVERIFY(plan.value().mounts().isEmpty());
}

void TestSandboxPlan::unixSocketsRefusedOrSupervised()
{
    SandboxPlan::Input in = input(2, m_workspace, m_home);
    QVERIFY(SandboxPlan::build(in).value().serialize().contains(QByteArray("unix\0deny\0", 10)));
    in.exposeHostExecution = true;
    QVERIFY(SandboxPlan::build(in).value().serialize().contains(QByteArray("unix\0allow\0", 11)));
    in.exposeHostExecution = false;
    in.policy.network = Policy::NetworkMode::Allowlist;
    in.proxySocket = QStringLiteral("/tmp/proxy.sock");
    // The proxy needs a unix socket: sandbox-init supervises every connect().
    QVERIFY(SandboxPlan::build(in).value().serialize().contains(QByteArray("unix\0proxy\0", 11)));
    // Tier 1 refuses them in every network mode (its proxy bridge lives in pid 1).
    in.tier = 1;
    QVERIFY(SandboxPlan::build(in).value().serialize().contains(QByteArray("unix\0deny\0", 10)));
    in.policy.network = Policy::NetworkMode::Full;
    QVERIFY(SandboxPlan::build(in).value().serialize().contains(QByteArray("unix\0deny\0", 10)));
}

void TestSandboxPlan::environmentIsMinimalAndProxyVariablesWin_data()
{
    QTest::addColumn<int>("tier");
    QTest::newRow("namespaces") << 1;
    QTest::newRow("landlock-seccomp") << 2;
}

void TestSandboxPlan::environmentIsMinimalAndProxyVariablesWin()
{
    QFETCH(int, tier);
    SandboxPlan::Input in = input(tier, m_workspace, m_home);
    in.hostEnvironment = QProcessEnvironment();
    in.hostEnvironment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    in.hostEnvironment.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("leak"));
    in.hostEnvironment.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/run/bus"));
    in.request.env.insert(QStringLiteral("MY_VAR"), QStringLiteral("mine"));
    in.request.env.insert(QStringLiteral("HTTP_PROXY"), QStringLiteral("http://elsewhere:1"));
    in.policy.network = Policy::NetworkMode::Allowlist;
    in.proxySocket = QStringLiteral("/tmp/proxy-dir/c1.sock");
    const QStringList env = SandboxPlan::build(in).value().environment();
    QVERIFY(env.contains(QStringLiteral("PATH=/usr/bin:/bin")));
    QVERIFY(env.contains(QStringLiteral("HOME=") + m_home));
    QVERIFY(env.contains(QStringLiteral("MY_VAR=mine")));
    QVERIFY(env.contains(QStringLiteral("NO_PROXY=")));
    for (const QString &entry : env) {
        QVERIFY2(!entry.startsWith(QLatin1String("AWS_")), qPrintable(entry));
        QVERIFY2(!entry.startsWith(QLatin1String("DBUS_")), qPrintable(entry));
        QVERIFY2(!entry.contains(QLatin1String("elsewhere")), qPrintable(entry));
    }
    if (tier == 1) {
        QVERIFY(env.contains(QStringLiteral("HTTP_PROXY=http://127.0.0.1:3128")));
        QVERIFY(env.contains(QStringLiteral("https_proxy=http://127.0.0.1:3128")));
        QVERIFY(env.contains(QStringLiteral("ALL_PROXY=socks5h://127.0.0.1:3128")));
        QVERIFY(env.contains(QStringLiteral("npm_config_https_proxy=http://127.0.0.1:3128")));
        QVERIFY(env.contains(QStringLiteral("PIP_PROXY=http://127.0.0.1:3128")));
    } else {
        QVERIFY(env.contains(QStringLiteral("ALL_PROXY=socks5h://localhost/tmp/proxy-dir/c1.sock")));
        QVERIFY(env.contains(QStringLiteral("SANDBOX_PROXY_SOCKET=/tmp/proxy-dir/c1.sock")));
    }
}

void TestSandboxPlan::badPathsAreNamed()
{
    SandboxPlan::Input in = input(1, m_workspace, m_home);
    in.policy.denied.append(QStringLiteral("not/absolute"));
    const Result<SandboxPlan> plan = SandboxPlan::build(in);
    QVERIFY(!plan);
    QVERIFY2(plan.error().where.startsWith(QStringLiteral("policy.filesystem.denied[")),
             qPrintable(plan.error().where));
    in = input(1, m_workspace + QStringLiteral("/missing"), m_home);
    QCOMPARE(SandboxPlan::build(in).error().where, QStringLiteral("spawn.cwd"));
    in = input(1, m_workspace, m_home);
    in.request.argv = { QString() };
    QCOMPARE(SandboxPlan::build(in).error().where, QStringLiteral("spawn.argv"));
}

void TestSandboxPlan::workspaceInsideAHiddenPathIsRefused_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<QString>("hidden");
    QTest::addColumn<QString>("why");
    QTest::newRow("t1 denied") << 1 << QStringLiteral("denied") << QStringLiteral("denied path");
    QTest::newRow("t2 denied") << 2 << QStringLiteral("denied") << QStringLiteral("denied path");
    QTest::newRow("t1 runtime dir") << 1 << QStringLiteral("runtime") << QStringLiteral("run things on the host");
}

void TestSandboxPlan::workspaceInsideAHiddenPathIsRefused()
{
    QFETCH(int, tier);
    QFETCH(QString, hidden);
    QFETCH(QString, why);
    const QString outer = m_home + QStringLiteral("/hidden-") + hidden;
    const QString workspace = outer + QStringLiteral("/project");
    QVERIFY(QDir().mkpath(workspace));
    SandboxPlan::Input in = input(tier, workspace, m_home);
    in.policy.writable = { QStringLiteral("${workspace}") };
    if (hidden == QLatin1String("denied"))
        in.policy.denied.append(outer);
    else
        in.hostEnvironment.insert(QStringLiteral("XDG_RUNTIME_DIR"), outer);
    const Result<SandboxPlan> plan = SandboxPlan::build(in);
    QVERIFY(!plan.ok());
    QCOMPARE(plan.error().where, QStringLiteral("spawn.cwd"));
    QVERIFY2(plan.error().message.contains(why) && plan.error().message.contains(outer),
             qPrintable(plan.error().message));
    // Beside the hidden path, the same workspace is fine.
    in.request.cwd = m_workspace;
    QVERIFY(SandboxPlan::build(in).ok());
}

// A command started in a sub-folder of its workspace: ${workspace} is the workspace, the
// command starts in the sub-folder, and a cwd that only seems inside (a symbolic link
// leading out, a denied folder inside the workspace) is refused.
void TestSandboxPlan::theRequestsWorkspaceNotItsCwdIsTheWorkspace()
{
    const QString sub = m_workspace + QStringLiteral("/src");
    QVERIFY(QDir().mkpath(sub));
    for (int tier : { 1, 2 }) {
        SandboxPlan::Input in = input(tier, sub, m_home);
        in.policy.writable = { QStringLiteral("${workspace}") };
        in.request.workspace = m_workspace;
        const Result<SandboxPlan> plan = SandboxPlan::build(in);
        QVERIFY2(plan.ok(), qPrintable(plan.ok() ? QString() : plan.error().toString()));
        QCOMPARE(plan.value().workspace(), m_workspace);
        QCOMPARE(plan.value().cwd(), sub);
        QVERIFY(
            plan.value().serialize().contains(QByteArray(QByteArray("\0cwd\0", 5) + QFile::encodeName(sub) + '\0')));
        if (tier == 1)
            QVERIFY(indexOf(plan.value().mounts(), QStringLiteral("rw"), m_workspace) >= 0);
        else
            QVERIFY(plan.value().landlockWritable().contains(m_workspace));
    }
    const QString link = m_workspace + QStringLiteral("/to-home");
    QVERIFY(QFile::link(m_home, link));
    SandboxPlan::Input out = input(2, link, m_home);
    out.request.workspace = m_workspace;
    Result<SandboxPlan> refused = SandboxPlan::build(out);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().where, QStringLiteral("spawn.cwd"));
    QVERIFY2(refused.error().message.contains(QStringLiteral("not inside the workspace")),
             qPrintable(refused.error().message));
    out.request.cwd = sub;
    out.policy.denied.append(QStringLiteral("${workspace}/src"));
    refused = SandboxPlan::build(out);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.contains(QStringLiteral("denied path")), qPrintable(refused.error().message));
}

QTEST_GUILESS_MAIN(TestSandboxPlan)
#include "tst_sandboxplan.moc"
