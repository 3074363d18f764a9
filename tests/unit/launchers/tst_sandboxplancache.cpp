// Plans reused between commands: whatever changes (the policy, the workspace, a directory
// the plan read, a symlink on the way, a socket that appears), the next command gets
// exactly the plan a fresh build gives, and the command and its environment are always
// the request's own.
#include "launchers/auto/linux/SandboxPlanCache.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace sandbox;

namespace {

// A unix socket bound at `path` (the file stays after the descriptor is closed).
bool bindSocket(const QString &path)
{
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    if (fd < 0 || size_t(name.size()) >= sizeof address.sun_path)
        return false;
    memcpy(address.sun_path, name.constData(), size_t(name.size()) + 1);
    const bool bound = bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
    close(fd);
    return bound;
}

} // namespace

class TestSandboxPlanCache final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void reusesAPlanForAnyCommandWhileNothingChanged();
    void aChangeThePlanDidNotReadKeepsIt();
    void aChangedPolicyTakesEffectOnTheNextCommand();
    void aStoreCreatedAfterwardsIsMaskedOnTheNextCommand();
    void aRetargetedSymlinkOnTheWayIsSeen();
    void aSocketThatAppearsIsHiddenOnTheNextCommand();
    void aSymlinkLoopIsNeverReused();
    void aBadCommandIsRefusedAsByAFreshBuild();

private:
    SandboxPlan::Input input(const QStringList &argv) const;
    // Plans through `cache` until one is reused (at most four builds: the first is not
    // watched, the second sets up watches, the third runs under them and is kept).
    bool warm(SandboxPlanCache &cache, const SandboxPlan::Input &in);
    // The cache's plan equals a fresh build's, byte for byte.
    static bool sameAsFresh(SandboxPlanCache &cache, const SandboxPlan::Input &in);

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_home;
    QString m_workspace;
};

void TestSandboxPlanCache::init()
{
    // In the build tree, not /var/tmp: a plan lists every directory on the way to a denied
    // path, so another test making or removing an entry in /var/tmp between two builds
    // compared here would make them differ.
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral(QT_TESTCASE_BUILDDIR "/plan-cache-XXXXXX"));
    QVERIFY(m_root->isValid());
    const QString root = QFileInfo(m_root->path()).canonicalFilePath();
    m_home = root + QStringLiteral("/home");
    m_workspace = root + QStringLiteral("/ws");
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/.ssh")));
    QVERIFY(QDir().mkpath(m_workspace + QStringLiteral("/.git/hooks")));
}

SandboxPlan::Input TestSandboxPlanCache::input(const QStringList &argv) const
{
    SandboxPlan::Input in;
    in.policy = Policy::defaults();
    in.request.argv = argv;
    in.request.cwd = m_workspace;
    in.tier = 1;
    in.landlockAbi = 7;
    in.homePath = m_home;
    return in;
}

bool TestSandboxPlanCache::warm(SandboxPlanCache &cache, const SandboxPlan::Input &in)
{
    const int before = cache.reuses();
    for (int i = 0; i < 4 && cache.reuses() == before; ++i) {
        if (!cache.plan(in))
            return false;
    }
    return cache.reuses() > before;
}

bool TestSandboxPlanCache::sameAsFresh(SandboxPlanCache &cache, const SandboxPlan::Input &in)
{
    const Result<SandboxPlan> cached = cache.plan(in);
    const Result<SandboxPlan> fresh = SandboxPlan::build(in);
    if (!cached || !fresh)
        return false;
    return cached.value().serialize() == fresh.value().serialize();
}

void TestSandboxPlanCache::reusesAPlanForAnyCommandWhileNothingChanged()
{
    SandboxPlanCache cache;
    QVERIFY(warm(cache, input({ QStringLiteral("true") })));
    SandboxPlan::Input other = input({ QStringLiteral("/bin/echo"), QStringLiteral("run-1") });
    other.request.env.insert(QStringLiteral("ONLY_THIS_COMMAND"), QStringLiteral("1"));
    const int reuses = cache.reuses();
    const Result<SandboxPlan> plan = cache.plan(other);
    QVERIFY(plan);
    QCOMPARE(cache.reuses(), reuses + 1);
    QCOMPARE(plan.value().serialize(), SandboxPlan::build(other).value().serialize());
    QVERIFY(plan.value().environment().contains(QStringLiteral("ONLY_THIS_COMMAND=1")));
    // The next command does not inherit the previous one's environment.
    const Result<SandboxPlan> next = cache.plan(input({ QStringLiteral("true") }));
    QVERIFY(next);
    QVERIFY(!next.value().environment().contains(QStringLiteral("ONLY_THIS_COMMAND=1")));
}

void TestSandboxPlanCache::aChangeThePlanDidNotReadKeepsIt()
{
    // .git is where the plan looked up hooks and config, nothing else: a new object file
    // there is seen by the watch, read again, and changes nothing.
    SandboxPlanCache cache;
    const SandboxPlan::Input in = input({ QStringLiteral("true") });
    QVERIFY(warm(cache, in));
    QFile object(m_workspace + QStringLiteral("/.git/ORIG_HEAD"));
    QVERIFY(object.open(QIODevice::WriteOnly));
    object.close();
    const int reuses = cache.reuses();
    QVERIFY(sameAsFresh(cache, in));
    QCOMPARE(cache.reuses(), reuses + 1);
}

void TestSandboxPlanCache::aChangedPolicyTakesEffectOnTheNextCommand()
{
    SandboxPlanCache cache;
    SandboxPlan::Input in = input({ QStringLiteral("true") });
    QVERIFY(warm(cache, in));
    QVERIFY(QDir().mkpath(m_workspace + QStringLiteral("/secret")));
    in.policy.denied.append(QStringLiteral("${workspace}/secret"));
    const Result<SandboxPlan> plan = cache.plan(in);
    QVERIFY(plan);
    bool masked = false;
    for (const SandboxPlan::Mount &mount : plan.value().mounts())
        masked = masked
            || (mount.kind == QLatin1String("mask") && mount.target == m_workspace + QStringLiteral("/secret"));
    QVERIFY(masked);
    QVERIFY(sameAsFresh(cache, in));
}

void TestSandboxPlanCache::aStoreCreatedAfterwardsIsMaskedOnTheNextCommand()
{
    SandboxPlanCache cache;
    const SandboxPlan::Input in = input({ QStringLiteral("true") });
    QVERIFY(warm(cache, in));
    const Result<SandboxPlan> before = cache.plan(in);
    QVERIFY(before);
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/.aws")));
    const Result<SandboxPlan> after = cache.plan(in);
    QVERIFY(after);
    QVERIFY(after.value().serialize() != before.value().serialize());
    bool masked = false;
    for (const SandboxPlan::Mount &mount : after.value().mounts())
        masked = masked || (mount.kind == QLatin1String("mask") && mount.target == m_home + QStringLiteral("/.aws"));
    QVERIFY(masked);
    QVERIFY(sameAsFresh(cache, in));
}

void TestSandboxPlanCache::aRetargetedSymlinkOnTheWayIsSeen()
{
    // readable: root/a/data, where a -> b and b -> c (a chain of two links): retargeting
    // the inner link changes what the readable path is.
    const QString root = QFileInfo(m_root->path()).canonicalFilePath();
    for (const char *dir : { "/c/data", "/d/data" })
        QVERIFY(QDir().mkpath(root + QLatin1String(dir)));
    QVERIFY(QFile::link(root + QStringLiteral("/b"), root + QStringLiteral("/a")));
    QVERIFY(QFile::link(root + QStringLiteral("/c"), root + QStringLiteral("/b")));
    SandboxPlan::Input in = input({ QStringLiteral("true") });
    in.policy.readable = { root + QStringLiteral("/a/data") };
    SandboxPlanCache cache;
    QVERIFY(warm(cache, in));
    QVERIFY(cache.plan(in).value().serialize().contains(QFile::encodeName(root + QStringLiteral("/c/data"))));
    QVERIFY(QFile::remove(root + QStringLiteral("/b")));
    QVERIFY(QFile::link(root + QStringLiteral("/d"), root + QStringLiteral("/b")));
    const Result<SandboxPlan> after = cache.plan(in);
    QVERIFY(after);
    QVERIFY(after.value().serialize().contains(QFile::encodeName(root + QStringLiteral("/d/data"))));
    QVERIFY(!after.value().serialize().contains(QFile::encodeName(root + QStringLiteral("/c/data"))));
    QVERIFY(sameAsFresh(cache, in));
}

void TestSandboxPlanCache::aSocketThatAppearsIsHiddenOnTheNextCommand()
{
    // The agent socket the host's environment names does not exist yet when the plan is
    // first built; once it does, the next command must not reach it.
    const QString socketPath = QFileInfo(m_root->path()).canonicalFilePath() + QStringLiteral("/agent/ssh.sock");
    SandboxPlan::Input in = input({ QStringLiteral("true") });
    in.hostEnvironment.insert(QStringLiteral("SSH_AUTH_SOCK"), socketPath);
    SandboxPlanCache cache;
    QVERIFY(warm(cache, in));
    QVERIFY(QDir().mkpath(QFileInfo(socketPath).path()));
    QVERIFY(bindSocket(socketPath));
    const Result<SandboxPlan> after = cache.plan(in);
    QVERIFY(after);
    bool masked = false;
    for (const SandboxPlan::Mount &mount : after.value().mounts())
        masked = masked || (mount.kind == QLatin1String("mask") && mount.target == socketPath);
    QVERIFY(masked);
    QVERIFY(sameAsFresh(cache, in));
}

void TestSandboxPlanCache::aSymlinkLoopIsNeverReused()
{
    // A loop ends every resolver's walk somewhere of its own choosing: what it read
    // cannot be vouched for, so each command gets a fresh plan.
    const QString root = QFileInfo(m_root->path()).canonicalFilePath();
    QVERIFY(QFile::link(root + QStringLiteral("/loop-b"), root + QStringLiteral("/loop-a")));
    QVERIFY(QFile::link(root + QStringLiteral("/loop-a"), root + QStringLiteral("/loop-b")));
    SandboxPlan::Input in = input({ QStringLiteral("true") });
    in.policy.denied.append(root + QStringLiteral("/loop-a/key"));
    SandboxPlanCache cache;
    for (int i = 0; i < 5; ++i)
        QVERIFY(sameAsFresh(cache, in));
    QCOMPARE(cache.reuses(), 0);
}

void TestSandboxPlanCache::aBadCommandIsRefusedAsByAFreshBuild()
{
    SandboxPlanCache cache;
    QVERIFY(warm(cache, input({ QStringLiteral("true") })));
    const SandboxPlan::Input bad = input({ QString() });
    const Result<SandboxPlan> cached = cache.plan(bad);
    const Result<SandboxPlan> fresh = SandboxPlan::build(bad);
    QVERIFY(!cached && !fresh);
    QCOMPARE(cached.error().toString(), fresh.error().toString());
}

QTEST_GUILESS_MAIN(TestSandboxPlanCache)
#include "tst_sandboxplancache.moc"
