// The escape-suite cases that apply to a container, run through `sandboxctl run` against
// a sandboxd with the Power Pack's Docker backend active on a real Docker-compatible
// runtime (Podman's service, started by test.sh or tests/integration/podman-runtime.sh).
// The probe is the suite's own escape-probe, linked statically so it runs in the image.
// Under the allowlist network mode a real HTTP server on the host's loopback is the
// allowed upstream (by name: localhost), a second one is not allowed, and a listener on
// every host address watches for anything that gets around the proxy.
#include "DaemonRig.h"
#include "UpstreamServer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkDatagram>
#include <QNetworkInterface>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QUdpSocket>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");
const QByteArray secret = "escape-suite-secret";

enum Expect { Blocked, NoSecret, Refused, Empty, Ran, Says };
enum AllowlistExpect { Reaches, Forbidden, NoConnection, Fails, Lists };

using sandbox::test::binary;
using sandbox::test::Outcome;
using sandbox::test::writeFile;

} // namespace

class TestDockerEscape final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void escape_data();
    void escape();
    void writeGateRefusalsAreReported();
    void filesystemClaimSaysWhatTheWriteGateRefuses();
    void containerHasItsOwnNetworkNamespace();
    void allowlist_data();
    void allowlist();
    void proxySocketFolderHoldsOnlyTheSocket();
    void domainRulesAreTheWarmContainersKey();
    void aCommandThatEndsItsSandboxInitGetsNoListenerOfItsOwn();

private:
    Outcome ctl(const QStringList &args, const QByteArray &input = {});
    QString expand(const QString &text) const;
    int hostGit(const QString &directory, const QStringList &args, QByteArray *out = nullptr) const;
    bool hostCheck(const QString &check, QString &why) const;
    void setNetwork(const QString &mode, const QStringList &allowedDomains);
    bool somethingGotAround(QString &why);

    sandbox::test::DockerRuntime m_runtime;
    sandbox::test::DaemonRig m_rig;
    QString m_marker; // a host file only the host's git running a planted command would make
    bool m_git = false; // the host has git, and so has the test image
    QString m_abstractName;
    int m_abstractListener = -1;
    sandbox::test::UpstreamServer m_allowed;
    sandbox::test::UpstreamServer m_other;
    QTcpServer m_open; // every host address, IPv4 and IPv6
    QUdpSocket m_udp; // every host address
    QString m_hostAddress;
    QString m_hostAddress6;
    QString m_policyNetwork;
};

void TestDockerEscape::initTestCase()
{
    SANDBOX_DOCKER_RUNTIME_OR_SKIP(m_runtime);
    QVERIFY(m_rig.create());
    // A fake home with credential files, denied by the policy, inside the workspace (the
    // only host folder the container sees), a repository and the static probe.
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/home/.ssh/id_ed25519"), secret));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/home/.aws/credentials"), secret));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/config"), "[core]\n"));
    QVERIFY(QDir().mkpath(m_rig.workspace() + QStringLiteral("/.git/hooks")));
    // A git directory with the other control files, a submodule's and a worktree's.
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/HEAD"), "ref: refs/heads/main\n"));
    QVERIFY(QDir().mkpath(m_rig.workspace() + QStringLiteral("/.git/objects")));
    QVERIFY(QDir().mkpath(m_rig.workspace() + QStringLiteral("/.git/refs/heads")));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/commondir"), ".\n"));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/info/attributes"), "\n"));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/modules/x/HEAD"), "ref: refs/heads/main\n"));
    QVERIFY(QDir().mkpath(m_rig.workspace() + QStringLiteral("/.git/modules/x/objects")));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/modules/x/config"), "[core]\n"));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/worktrees/w/HEAD"), "ref: refs/heads/main\n"));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/worktrees/w/commondir"), "../..\n"));
    QVERIFY(writeFile(m_rig.workspace() + QStringLiteral("/.git/worktrees/w/gitdir"), "/nowhere/.git\n"));
    QVERIFY(QDir().mkpath(m_rig.workspace() + QStringLiteral("/src")));
    QVERIFY(QFile::link(m_rig.workspace() + QStringLiteral("/home/.ssh/id_ed25519"),
                        m_rig.workspace() + QStringLiteral("/src/link-to-ssh")));
    // A file of the host outside the workspace, hard-linked into it (a local git clone
    // hard-links its objects so).
    QVERIFY(writeFile(m_rig.filePath(QStringLiteral("outside.txt")), "original\n"));
    QVERIFY(::link(QFile::encodeName(m_rig.filePath(QStringLiteral("outside.txt"))).constData(),
                   QFile::encodeName(m_rig.workspace() + QStringLiteral("/linked.txt")).constData())
            == 0);
    m_marker = m_rig.filePath(QStringLiteral("planted-code-ran"));
    // A repository the user made deeper in the workspace, with a commit.
    m_git = !QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty();
    if (m_git) {
        const QString project = m_rig.workspace() + QStringLiteral("/proj");
        QVERIFY(QDir().mkpath(project));
        QCOMPARE(hostGit(project, { QStringLiteral("init"), QStringLiteral("-q") }), 0);
        QVERIFY(writeFile(project + QStringLiteral("/f"), "first\n"));
        QCOMPARE(hostGit(project, { QStringLiteral("add"), QStringLiteral("f") }), 0);
        QCOMPARE(hostGit(project, { QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("first") }), 0);
        // A hook the user left inert (not executable): git ignores it until someone makes it so.
        QVERIFY(writeFile(project + QStringLiteral("/.git/hooks/post-checkout"),
                          "#!/bin/sh\ntouch " + m_marker.toUtf8() + "\n"));
        QVERIFY(QFile::setPermissions(project + QStringLiteral("/.git/hooks/post-checkout"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    }
    QVERIFY(QFile::copy(binary(QStringLiteral("escape-probe-static")),
                        m_rig.workspace() + QStringLiteral("/escape-probe")));
    QVERIFY(QFile::setPermissions(m_rig.workspace() + QStringLiteral("/escape-probe"),
                                  QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));

    // An abstract unix socket listening on the host's network namespace.
    m_abstractName = QStringLiteral("sandbox-escape-%1").arg(getpid());
    m_abstractListener = socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(m_abstractListener >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = m_abstractName.toLatin1();
    memcpy(address.sun_path + 1, name.constData(), size_t(name.size()));
    const auto length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(name.size()));
    QVERIFY(bind(m_abstractListener, reinterpret_cast<sockaddr *>(&address), length) == 0);
    QVERIFY(listen(m_abstractListener, 4) == 0);

    QVERIFY(m_allowed.start());
    QVERIFY(m_other.start());
    QVERIFY(m_open.listen(QHostAddress::Any, 0));
    QVERIFY(m_udp.bind(QHostAddress::Any, 0));
    for (const QHostAddress &candidate : QNetworkInterface::allAddresses()) {
        if (candidate.isLoopback() || candidate.isLinkLocal())
            continue;
        if (candidate.protocol() == QAbstractSocket::IPv4Protocol && m_hostAddress.isEmpty())
            m_hostAddress = candidate.toString();
        if (candidate.protocol() == QAbstractSocket::IPv6Protocol && m_hostAddress6.isEmpty())
            m_hostAddress6 = candidate.toString();
    }
    if (m_hostAddress.isEmpty())
        m_hostAddress = QStringLiteral("127.0.0.1");
    if (m_hostAddress6.isEmpty())
        m_hostAddress6 = QStringLiteral("::1");
    QVERIFY(QDir().mkpath(m_rig.filePath(QStringLiteral("tmp"))));

    QProcessEnvironment env = m_rig.environment();
    env.insert(QStringLiteral("TMPDIR"), m_rig.filePath(QStringLiteral("tmp")));
    // The engine's filtering proxy keeps its sockets in its runtime directory, run/ in the
    // state directory without XDG_RUNTIME_DIR, where the test can look.
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    // The engine's home is the fake one, whose git configuration it keeps read-only.
    env.insert(QStringLiteral("HOME"), m_rig.workspace() + QStringLiteral("/home"));
    for (const char *variable : { "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL" })
        env.remove(QString::fromLatin1(variable));
    m_rig.start(env);
    if (QTest::currentTestFailed())
        return;

    sandbox::test::activateDocker(m_rig, QStringLiteral(SANDBOX_POWER_PACK_DIR), m_runtime);
    if (QTest::currentTestFailed())
        return;

    const Outcome shown = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QJsonObject policy = QJsonDocument::fromJson(shown.out).object();
    QJsonObject filesystem = policy.value(QStringLiteral("filesystem")).toObject();
    QJsonArray denied = filesystem.value(QStringLiteral("denied")).toArray();
    denied.append(QStringLiteral("${workspace}/home/.ssh"));
    denied.append(QStringLiteral("${workspace}/home/.aws"));
    filesystem.insert(QStringLiteral("denied"), denied);
    policy.insert(QStringLiteral("filesystem"), filesystem);
    const Outcome policySet
        = ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson());
    QVERIFY2(policySet.exitCode == 0, policySet.err.constData());
}

void TestDockerEscape::cleanupTestCase()
{
    m_rig.stop();
    if (m_abstractListener >= 0)
        close(m_abstractListener);
    m_rig.destroy();
}

Outcome TestDockerEscape::ctl(const QStringList &args, const QByteArray &input)
{
    return m_rig.ctl(args, input, 120000);
}

QString TestDockerEscape::expand(const QString &text) const
{
    QString result = text;
    result.replace(QStringLiteral("{probe}"), m_rig.workspace() + QStringLiteral("/escape-probe"));
    result.replace(QStringLiteral("{ws}"), m_rig.workspace());
    result.replace(QStringLiteral("{home}"), m_rig.workspace() + QStringLiteral("/home"));
    result.replace(QStringLiteral("{marker}"), m_marker);
    result.replace(QStringLiteral("{root}"), m_rig.path());
    result.replace(QStringLiteral("{runtime}"), m_runtime.socket);
    result.replace(QStringLiteral("{abstract}"), m_abstractName);
    result.replace(QStringLiteral("{port}"), QString::number(m_allowed.port()));
    result.replace(QStringLiteral("{port2}"), QString::number(m_other.port()));
    result.replace(QStringLiteral("{openport}"), QString::number(m_open.serverPort()));
    result.replace(QStringLiteral("{udpport}"), QString::number(m_udp.localPort()));
    result.replace(QStringLiteral("{host}"), m_hostAddress);
    result.replace(QStringLiteral("{host6}"), m_hostAddress6);
    return result;
}

int TestDockerEscape::hostGit(const QString &directory, const QStringList &args, QByteArray *out) const
{
    QProcess git;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_rig.path());
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    for (const char *name : { "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME" })
        env.insert(QString::fromLatin1(name), QStringLiteral("Host"));
    for (const char *name : { "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL" })
        env.insert(QString::fromLatin1(name), QStringLiteral("host@example.org"));
    git.setProcessEnvironment(env);
    git.start(QStringLiteral("git"), QStringList{ QStringLiteral("-C"), directory } + args);
    if (!git.waitForFinished(60000))
        return -1;
    if (out)
        *out = git.readAllStandardOutput();
    return git.exitStatus() == QProcess::NormalExit ? git.exitCode() : -1;
}

// What must hold on the host after a row (empty: nothing more):
//   nofile:PATH              PATH was never made
//   content:PATH:TEXT        PATH holds TEXT
//   no-repository:DIR        no .git and no HEAD were made in DIR, and the host's git, run
//                            there and in the repository proj, runs nothing planted
//   git-runs-nothing:DIR     the host's git, run in DIR, runs nothing planted
//   git-log:DIR:SUBJECT      the repository DIR has a commit with this subject
bool TestDockerEscape::hostCheck(const QString &rawCheck, QString &why) const
{
    const QString check = expand(rawCheck);
    if (check.isEmpty())
        return true;
    const QString kind = check.section(QLatin1Char(':'), 0, 0);
    const QString path = check.section(QLatin1Char(':'), 1, 1);
    const QString rest = check.section(QLatin1Char(':'), 2);
    if (kind == QLatin1String("nofile")) {
        why = path + QStringLiteral(" was made");
        struct stat st = {};
        return ::lstat(QFile::encodeName(path).constData(), &st) != 0;
    }
    if (kind == QLatin1String("notexec")) {
        const QFile::Permissions mode = QFile::permissions(path);
        why = path + QStringLiteral(" was made executable");
        const bool inert = !(mode & (QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        return inert;
    }
    if (kind == QLatin1String("content")) {
        QFile file(path);
        const QByteArray content = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        why = path + QStringLiteral(" holds: ") + QString::fromUtf8(content);
        return content == rest.toUtf8();
    }
    if (kind == QLatin1String("no-repository") || kind == QLatin1String("git-runs-nothing")) {
        const bool repository = kind == QLatin1String("no-repository");
        struct stat st = {};
        const bool dotGit
            = repository && ::lstat(QFile::encodeName(path + QStringLiteral("/.git")).constData(), &st) == 0;
        const bool head
            = repository && ::lstat(QFile::encodeName(path + QStringLiteral("/HEAD")).constData(), &st) == 0;
        if (QFileInfo(path).isDir()) {
            hostGit(path, { QStringLiteral("status"), QStringLiteral("--short") });
            hostGit(path, { QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral(".") });
        }
        hostGit(m_rig.workspace() + QStringLiteral("/proj"), { QStringLiteral("status"), QStringLiteral("--short") });
        const bool ran = QFile::exists(m_marker);
        QFile::remove(m_marker);
        why = QStringLiteral("in %1: .git made=%2, HEAD made=%3, host git ran planted code=%4")
                  .arg(path)
                  .arg(dotGit)
                  .arg(head)
                  .arg(ran);
        return !dotGit && !head && !ran;
    }
    if (kind == QLatin1String("git-log")) {
        QByteArray log;
        hostGit(path, { QStringLiteral("log"), QStringLiteral("--all"), QStringLiteral("--format=%s") }, &log);
        why = QStringLiteral("the commits in %1: %2").arg(path, QString::fromUtf8(log));
        return log.split('\n').contains(rest.toUtf8());
    }
    why = QStringLiteral("unknown check ") + check;
    return false;
}

void TestDockerEscape::setNetwork(const QString &mode, const QStringList &allowedDomains)
{
    const QString wanted = mode + QLatin1Char(' ') + allowedDomains.join(QLatin1Char(','));
    if (m_policyNetwork == wanted)
        return;
    const Outcome shown = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QJsonObject policy = QJsonDocument::fromJson(shown.out).object();
    QVERIFY2(!policy.isEmpty(), shown.err.constData());
    policy.insert(QStringLiteral("network"),
                  QJsonObject{ { QStringLiteral("mode"), mode },
                               { QStringLiteral("allowedDomains"), QJsonArray::fromStringList(allowedDomains) },
                               { QStringLiteral("deniedDomains"), QJsonArray() } });
    const Outcome set
        = ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson());
    QVERIFY2(set.exitCode == 0, set.err.constData());
    m_policyNetwork = wanted;
}

bool TestDockerEscape::somethingGotAround(QString &why)
{
    if (m_other.connections() != 0) {
        why = QStringLiteral("the server that is not allowed was reached");
        return true;
    }
    // What arrived is taken away, so every row reports only its own.
    bool around = false;
    m_open.waitForNewConnection(0);
    while (QTcpSocket *connection = m_open.nextPendingConnection()) {
        delete connection;
        why = QStringLiteral("a connection reached a host address");
        around = true;
    }
    while (m_udp.hasPendingDatagrams()) {
        m_udp.receiveDatagram();
        why = QStringLiteral("a datagram reached the host");
        around = true;
    }
    return around;
}

void TestDockerEscape::escape_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<int>("expect");
    QTest::addColumn<QString>("check"); // what must hold on the host afterwards (hostCheck)
    QTest::addColumn<QByteArray>("needle"); // Says: what the command prints
    auto sh = [](const char *script) {
        return QStringList{ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QString::fromLatin1(script) };
    };
    auto probe = [](std::initializer_list<const char *> args) {
        QStringList argv{ QStringLiteral("{probe}") };
        for (const char *arg : args)
            argv.append(QString::fromLatin1(arg));
        return argv;
    };
    auto row = [](const char *name, const QStringList &argv, Expect expect, const QString &check = {},
                  const QByteArray &needle = {}) { QTest::newRow(name) << argv << int(expect) << check << needle; };

    // --- denied paths
    row("read ssh key", sh("cat {home}/.ssh/id_ed25519"), NoSecret);
    row("read aws credentials", sh("cat {home}/.aws/credentials"), NoSecret);
    row("read through a symlink in the workspace", sh("cat {ws}/src/link-to-ssh"), NoSecret);
    row("read through a new symlink", sh("ln -s {home}/.ssh/id_ed25519 {ws}/src/l; cat {ws}/src/l; rm -f {ws}/src/l"),
        NoSecret);
    row("read through a new hardlink", sh("ln {home}/.ssh/id_ed25519 {ws}/src/h; cat {ws}/src/h; rm -f {ws}/src/h"),
        NoSecret);
    row("read through /proc/self/root", sh("cat /proc/self/root{home}/.ssh/id_ed25519"), NoSecret);
    row("read through /proc/1/root", sh("cat /proc/1/root{home}/.ssh/id_ed25519"), NoSecret);
    row("read through /proc/self/cwd", sh("cd {home} && cat /proc/self/cwd/.ssh/id_ed25519 .aws/credentials"),
        NoSecret);
    row("list the denied folder", sh("ls -A {home}/.ssh; ls -A {home}/.aws"), Empty);

    // --- writes outside the workspace and to the repository's executable parts
    row("write the root filesystem", sh("echo x > /owned"), Refused);
    row("write /etc", sh("echo x > /etc/owned"), Refused);
    row("write /usr", sh("mkdir -p /usr/local/bin && echo x > /usr/local/bin/owned"), Refused);
    row("write .git/hooks", sh("echo x > {ws}/.git/hooks/pre-commit"), Refused,
        QStringLiteral("nofile:{ws}/.git/hooks/pre-commit"));
    row("write .git/config", sh("echo '[core]' >> {ws}/.git/config"), Refused);
    row("replace .git/config", sh("rm -f {ws}/.git/config"), Refused);
    row("write .git/commondir", sh("echo ../elsewhere > {ws}/.git/commondir"), Refused);
    row("replace .git/commondir", sh("rm -f {ws}/.git/commondir"), Refused);
    row("write .git/info/attributes", sh("echo '* filter=owned' >> {ws}/.git/info/attributes"), Refused);
    row("add to .git/info", sh("echo x > {ws}/.git/info/sparse-checkout"), Refused,
        QStringLiteral("nofile:{ws}/.git/info/sparse-checkout"));
    row("write a submodule's config", sh("echo '[core]' >> {ws}/.git/modules/x/config"), Refused);
    row("write a worktree's gitdir", sh("echo /elsewhere/.git > {ws}/.git/worktrees/w/gitdir"), Refused);
    row("write a worktree's commondir", sh("echo ../elsewhere > {ws}/.git/worktrees/w/commondir"), Refused);

    // --- refused at the write by sandbox-init's write gate, which every command runs under:
    // never made, so neither the host's git nor another command ever sees it
    row("plant hooks in a submodule's git directory that had none",
        sh("mkdir -p {ws}/.git/modules/x/hooks && printf '#!/bin/sh\\ntouch {marker}\\n' > "
           "{ws}/.git/modules/x/hooks/post-checkout"),
        Refused, QStringLiteral("nofile:{ws}/.git/modules/x/hooks"));
    row("plant a commondir in a submodule's git directory", sh("echo /elsewhere > {ws}/.git/modules/x/commondir"),
        Refused, QStringLiteral("nofile:{ws}/.git/modules/x/commondir"));
    row("plant a new submodule's config",
        sh("mkdir -p {ws}/.git/modules/sub && printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > "
           "{ws}/.git/modules/sub/config"),
        Refused, QStringLiteral("nofile:{ws}/.git/modules/sub"));
    row("plant config.worktree", sh("printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/.git/config.worktree"),
        Refused, QStringLiteral("nofile:{ws}/.git/config.worktree"));
    row("plant commondir, looked for while the command runs",
        sh("echo /elsewhere > {ws}/.git/modules/x/commondir; echo x > {ws}/.git/hooks/pre-push; "
           "test ! -e {ws}/.git/modules/x/commondir && test ! -e {ws}/.git/hooks/pre-push && echo NOT-PLANTED"),
        Says, {}, "NOT-PLANTED");
    row("a .git file pointing elsewhere in a sub-folder",
        sh("mkdir -p {ws}/sub2 && echo 'gitdir: {ws}/.git' > {ws}/sub2/.git"), Ran,
        QStringLiteral("no-repository:{ws}/sub2"));
    row("a symbolic link named .git in a sub-folder", sh("mkdir -p {ws}/sub3 && ln -s {ws}/.git {ws}/sub3/.git"), Ran,
        QStringLiteral("no-repository:{ws}/sub3"));
    row("a bare repository made in the workspace",
        sh("mkdir -p {ws}/bare/objects {ws}/bare/refs && "
           "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/bare/config && "
           "echo 'ref: refs/heads/main' > {ws}/bare/HEAD"),
        Ran, QStringLiteral("no-repository:{ws}/bare"));
    row("a bare repository built in .git/objects and moved out",
        sh("d={ws}/.git/objects/evil && mkdir -p $d/objects $d/refs && "
           "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > $d/config && "
           "echo 'ref: refs/heads/main' > $d/HEAD; mv $d {ws}/moved"),
        Ran, QStringLiteral("no-repository:{ws}/moved"));
    // The engine's home is {home}, inside the workspace: git's configuration of the user there
    // is read by the host's git in every repository (neither exists yet).
    row("plant the user's ~/.gitconfig", sh("printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {home}/.gitconfig"),
        Refused, QStringLiteral("nofile:{home}/.gitconfig"));
    row("plant the user's ~/.config/git/config",
        sh("mkdir -p {home}/.config/git && echo x > {home}/.config/git/config"), Refused,
        QStringLiteral("nofile:{home}/.config/git"));
    row("write through a hard link made on the host", sh("echo changed > {ws}/linked.txt"), Refused,
        QStringLiteral("content:{root}/outside.txt:original\n"));
    if (m_git) {
        // chmod is judged too: an inert hook stays inert, by path and through a descriptor.
        row("make an inert hook executable", sh("chmod +x {ws}/proj/.git/hooks/post-checkout"), Refused,
            QStringLiteral("notexec:{ws}/proj/.git/hooks/post-checkout"));
        row("make an inert hook executable relative to its directory",
            sh("cd {ws}/proj/.git/hooks && chmod 700 post-checkout"), Refused,
            QStringLiteral("notexec:{ws}/proj/.git/hooks/post-checkout"));
        row("git init a nested repository with an fsmonitor and stage it",
            sh("mkdir -p {ws}/nested && cd {ws}/nested && git init -q; "
               "printf '[core]\\n\\tfsmonitor = touch {marker}\\n\\tworktree = /\\n' >> .git/config; "
               "echo x > f; git add f; git -c user.name=n -c user.email=n@n commit -qm n; "
               "cd {ws}/proj && git add ../nested; exit 0"),
            Ran, QStringLiteral("no-repository:{ws}/nested"));
        row("the config and hooks of a repository deeper in the workspace",
            sh("printf '[core]\\n\\tfsmonitor = touch {marker}\\n' >> {ws}/proj/.git/config; "
               "mkdir -p {ws}/proj/.git/hooks && printf '#!/bin/sh\\ntouch {marker}\\n' > "
               "{ws}/proj/.git/hooks/post-checkout && chmod +x {ws}/proj/.git/hooks/post-checkout"),
            Refused, QStringLiteral("git-runs-nothing:{ws}/proj"));
        row("hard-link a nested repository's config and write through the link",
            sh("ln {ws}/proj/.git/config {ws}/cfg; printf '[core]\\n\\tfsmonitor = touch {marker}\\n' >> {ws}/cfg"),
            Ran, QStringLiteral("git-runs-nothing:{ws}/proj"));
        row("rename a file over a nested repository's config",
            sh("printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/c; mv -f {ws}/c {ws}/proj/.git/config"),
            Refused, QStringLiteral("git-runs-nothing:{ws}/proj"));
        row("git config core.fsmonitor in a nested repository",
            QStringList{ QStringLiteral("git"), QStringLiteral("-C"), QStringLiteral("{ws}/proj"),
                         QStringLiteral("config"), QStringLiteral("core.fsmonitor"), QStringLiteral("touch {marker}") },
            Refused, QStringLiteral("git-runs-nothing:{ws}/proj"));
        // --- ordinary work in a repository goes on
        row("git add, commit, branch and stash work",
            sh("export GIT_AUTHOR_NAME=c GIT_AUTHOR_EMAIL=c@c GIT_COMMITTER_NAME=c GIT_COMMITTER_EMAIL=c@c; "
               "cd {ws}/proj && echo more >> f && git add f && git commit -qm inside && git branch inside-branch && "
               "echo wip >> f && git stash -q && git stash list | grep -q . && git stash pop -q && "
               "git checkout -q inside-branch && git status --short && echo WORKED"),
            Says, QStringLiteral("git-log:{ws}/proj:inside"), "WORKED");
    }

    // --- kernel attack surface closed by dropping every capability and by sandbox-init's
    // seccomp deny list, which Podman's default profile would allow (tracing another command,
    // namespaces, the kernel keyring)
    for (const char *name : { "mount", "setns", "chroot", "bpf", "kexec", "modules", "open_by_handle_at", "raw_socket",
                              "ptrace", "process_vm", "io_uring", "keyctl", "unshare", "clone_newuser" })
        row(name, probe({ name }), Blocked);
    row("limit sandbox-init", probe({ "wedge_parent", "1" }), Blocked);

    // --- network none
    row("tcp out", probe({ "connect_tcp", "1.1.1.1", "443" }), Blocked);
    row("tcp to the host's address", probe({ "connect_tcp", "10.0.2.2", "22" }), Blocked);
    row("only loopback", sh("ls /sys/class/net"), Empty);

    // --- host execution
    row("runtime socket", probe({ "connect_unix", "{runtime}" }), Blocked);
    row("docker socket", probe({ "connect_unix", "/var/run/docker.sock" }), Blocked);
    row("abstract socket on the host", probe({ "connect_unix", "@{abstract}" }), Blocked);
    row("session bus", sh("echo \"$DBUS_SESSION_BUS_ADDRESS\"; ls /run/user 2>/dev/null"), Empty);

    // --- capabilities
    row("capabilities", sh("grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status | grep -v '0000000000000000'"),
        Empty);
}

void TestDockerEscape::escape()
{
    QFETCH(QStringList, argv);
    QFETCH(int, expect);
    QFETCH(QString, check);
    QFETCH(QByteArray, needle);
    QStringList expanded;
    for (const QString &arg : std::as_const(argv))
        expanded.append(expand(arg));
    const Outcome outcome = ctl(QStringList{ QStringLiteral("run"), QStringLiteral("--") } + expanded);
    const QByteArray shown
        = "exit " + QByteArray::number(outcome.exitCode) + "\nout: " + outcome.out + "\nerr: " + outcome.err;
    QVERIFY2(!outcome.out.contains(secret) && !outcome.err.contains(secret), shown.constData());
    switch (Expect(expect)) {
    case Blocked:
        QVERIFY2(outcome.exitCode == 0 && outcome.out.contains("BLOCKED") && !outcome.out.contains("ESCAPED"),
                 shown.constData());
        break;
    case NoSecret:
        break;
    case Refused:
        QVERIFY2(outcome.exitCode != 0, shown.constData());
        break;
    case Empty:
        if (QTest::currentDataTag() == QByteArrayLiteral("only loopback"))
            QCOMPARE(outcome.out.trimmed(), QByteArray("lo"));
        else
            QVERIFY2(outcome.out.trimmed().isEmpty(), shown.constData());
        break;
    case Ran:
        break;
    case Says:
        QVERIFY2(outcome.exitCode == 0 && outcome.out.contains(needle), shown.constData());
        break;
    }
    QString why;
    QVERIFY2(hostCheck(check, why), qPrintable(why + QLatin1Char('\n') + QString::fromUtf8(shown)));
    QCOMPARE(QFile(m_rig.workspace() + QStringLiteral("/.git/config")).size(), qint64(7));
    QCOMPARE(QFile(m_rig.workspace() + QStringLiteral("/.git/commondir")).size(), qint64(2));
    QCOMPARE(QFile(m_rig.workspace() + QStringLiteral("/.git/info/attributes")).size(), qint64(1));
    QCOMPARE(QFile(m_rig.workspace() + QStringLiteral("/.git/modules/x/config")).size(), qint64(7));
    QCOMPARE(QFile(m_rig.workspace() + QStringLiteral("/.git/worktrees/w/gitdir")).size(), qint64(14));
    QCOMPARE(QFile(m_rig.workspace() + QStringLiteral("/.git/worktrees/w/commondir")).size(), qint64(6));
}

void TestDockerEscape::writeGateRefusalsAreReported()
{
    const Outcome refused
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                expand(QStringLiteral("echo x > {ws}/.git/hooks/post-merge")) });
    QVERIFY2(refused.exitCode != 0 && refused.err.contains("ermission denied"), refused.err.constData());
    const Outcome events = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(events.exitCode, 0);
    QJsonArray all = QJsonDocument::fromJson(events.out).array();
    if (all.isEmpty()) {
        for (const QByteArray &line : events.out.split('\n')) {
            if (!line.trimmed().isEmpty())
                all.append(QJsonDocument::fromJson(line).object());
        }
    }
    QJsonObject found;
    for (const QJsonValue &value : std::as_const(all)) {
        if (value.toObject().value(QStringLiteral("what")).toString().contains(QLatin1String("/.git/hooks/post-merge")))
            found = value.toObject();
    }
    QVERIFY2(!found.isEmpty(), events.out.constData());
    QCOMPARE(found.value(QStringLiteral("kind")).toString(), QStringLiteral("path"));
    QVERIFY2(found.value(QStringLiteral("rule")).toString().contains(QLatin1String("write gate")),
             qPrintable(found.value(QStringLiteral("rule")).toString()));
    QCOMPARE(found.value(QStringLiteral("ref")).toString(), dockerRef);
    QVERIFY(found.value(QStringLiteral("processId")).toInteger() > 0);
    QVERIFY2(found.value(QStringLiteral("command")).toString().startsWith(QLatin1String("/bin/sh -c")),
             qPrintable(found.value(QStringLiteral("command")).toString()));

    // A write beneath a denied folder (covered by an empty read-only one) is refused by the
    // gate too, and the refusal names the denied path.
    const Outcome denied = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                 QStringLiteral("-c"), expand(QStringLiteral("echo x > {home}/.ssh/planted")) });
    QVERIFY2(denied.exitCode != 0 && denied.err.contains("ermission denied"), denied.err.constData());
    const Outcome after = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QVERIFY2(after.out.contains(expand(QStringLiteral("{home}/.ssh/planted")).toUtf8()), after.out.constData());
    QVERIFY2(after.out.contains(expand(QStringLiteral("{home}/.ssh is denied by the policy")).toUtf8()),
             after.out.constData());
}

void TestDockerEscape::filesystemClaimSaysWhatTheWriteGateRefuses()
{
    const Outcome described = ctl({ QStringLiteral("describe"), dockerRef, QStringLiteral("--json") });
    QVERIFY2(described.exitCode == 0, described.err.constData());
    const QString claim = sandbox::test::claimOf(described.out, QStringLiteral("filesystem"));
    for (const char *said :
         { "Every command runs under sandbox-init's write gate, as in the auto backend",
           "no command creates or changes a file that makes the host's git run code, in any repository, existing or "
           "new, at any depth",
           "no file with other hard links is written, while git add, commit, branch and stash work" })
        QVERIFY2(claim.contains(QLatin1String(said)), described.out.constData());
    QVERIFY2(!claim.contains(QLatin1String("Nothing else of a repository is protected")), described.out.constData());
    const QString confinement = sandbox::test::claimOf(described.out, QStringLiteral("confinement"));
    QVERIFY2(confinement.contains(QLatin1String("sandbox-init's seccomp deny list")), described.out.constData());
}

void TestDockerEscape::containerHasItsOwnNetworkNamespace()
{
    char host[64] = {};
    QVERIFY(readlink("/proc/self/ns/net", host, sizeof host - 1) > 0);
    const Outcome inside = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("readlink"),
                                 QStringLiteral("/proc/self/ns/net") });
    QCOMPARE(inside.exitCode, 0);
    QVERIFY2(inside.out.trimmed().startsWith("net:["), inside.out.constData());
    QVERIFY2(inside.out.trimmed() != QByteArray(host), host);
}

void TestDockerEscape::allowlist_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<int>("expect");
    QTest::addColumn<QByteArray>("needle");
    auto sh = [](const char *script) {
        return QStringList{ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QString::fromLatin1(script) };
    };
    auto probe = [](std::initializer_list<const char *> args) {
        QStringList argv{ QStringLiteral("{probe}") };
        for (const char *arg : args)
            argv.append(QString::fromLatin1(arg));
        return argv;
    };
    auto row = [](const char *name, const QStringList &argv, AllowlistExpect expect, const QByteArray &needle = {}) {
        QTest::newRow(name) << argv << int(expect) << needle;
    };

    // --- the allowed name, through the proxy the environment names
    row("allowed name through the proxy", sh("wget -q -O - http://localhost:{port}/allowed"), Reaches,
        "upstream-ok\nGET /allowed");
    row("allowed name after trying to signal the bridge",
        sh("kill -TERM 1; kill -INT 1; kill -KILL 1; wget -q -O - http://localhost:{port}/again"), Reaches,
        "upstream-ok\nGET /again");
    row("the request cannot point tools elsewhere", sh("echo \"$HTTP_PROXY $HTTPS_PROXY $ALL_PROXY [$NO_PROXY]\""),
        Lists, "http://127.0.0.1:3128 http://127.0.0.1:3128 socks5h://127.0.0.1:3128 []");
    row("a tunnel to the allowed name, the client half-closing after its request",
        sh("printf 'CONNECT localhost:{port} HTTP/1.1\\r\\nHost: localhost:{port}\\r\\n\\r\\n"
           "GET /tunnel HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n' | nc -w 5 127.0.0.1 3128"),
        Reaches, "upstream-ok\nGET /tunnel");

    // --- what the list does not name is refused by the proxy
    row("other port of the allowed name", sh("wget -q -O - http://localhost:{port2}/"), Forbidden);
    row("the allowed server by its address", sh("wget -q -O - http://127.0.0.1:{port}/"), Forbidden);
    row("a name not in the list", sh("wget -q -O - http://example.com/"), Forbidden);
    row("tunnel to a host not in the list",
        sh("printf 'CONNECT 127.0.0.1:{port2} HTTP/1.1\\r\\nHost: 127.0.0.1:{port2}\\r\\n\\r\\n' "
           "| nc -w 5 127.0.0.1 3128"),
        NoConnection, "not in the policy's allowed domains");
    row("tunnel to the host's address",
        sh("printf 'CONNECT {host}:{openport} HTTP/1.1\\r\\nHost: {host}\\r\\n\\r\\n' | nc -w 5 127.0.0.1 3128"),
        NoConnection, "not in the policy's allowed domains");

    // --- nothing gets around the proxy
    row("direct tcp to the allowed server", probe({ "connect_tcp", "127.0.0.1", "{port}" }), NoConnection, "BLOCKED");
    row("direct tcp to the host's address", probe({ "connect_tcp", "{host}", "{openport}" }), NoConnection, "BLOCKED");
    row("direct tcp out", probe({ "connect_tcp", "1.1.1.1", "443" }), NoConnection, "BLOCKED");
    row("direct ipv6 to the host's address", sh("nc -w 3 {host6} {openport} </dev/null && echo CONNECTED"), Fails);
    row("direct ipv6 to the host's loopback", sh("nc -w 3 ::1 {port} </dev/null && echo CONNECTED"), Fails);
    row("udp to the host", probe({ "send_udp", "{host}", "{udpport}" }), NoConnection);
    row("dns to the host", sh("nslookup -timeout=2 localhost {host}"), Fails);
    row("dns to a public resolver", sh("nslookup -timeout=2 example.com 1.1.1.1"), Fails);
    row("dns through the system resolver", sh("nslookup -timeout=2 example.com"), Fails);
    row("no interface but loopback", sh("ls /sys/class/net"), Lists, "lo");
    // The proxy bridge is the container's pid 1, outside the commands' filters: neither its
    // memory nor its descriptors open for writing, by name, as the working directory or
    // through a descriptor held on its /proc directory.
    row("the proxy bridge's memory and descriptors stay closed",
        sh("n=0; exec 8</proc/1 && for f in mem fd/0 fd/1 fd/2 fd/3; do (exec 9<>/proc/self/fd/8/$f) 2>/dev/null "
           "&& n=$((n+1)); (exec 9<>/proc/1/$f) 2>/dev/null && n=$((n+1)); done; cd /proc/1 && (exec 9<>mem) "
           "2>/dev/null && n=$((n+1)); echo opened-$n"),
        Lists, "opened-0");
    // Read from /proc: sandbox-init's deny list refuses raw sockets, netlink's (ip's) included.
    row("no route", sh("tail -n +2 /proc/net/route; grep -v ' lo$' /proc/net/ipv6_route; true"), Lists, "");
}

void TestDockerEscape::allowlist()
{
    QFETCH(QStringList, argv);
    QFETCH(int, expect);
    QFETCH(QByteArray, needle);
    setNetwork(QStringLiteral("allowlist"), { QStringLiteral("localhost:%1").arg(m_allowed.port()) });
    QStringList expanded;
    for (const QString &arg : std::as_const(argv))
        expanded.append(expand(arg));
    const int allowedBefore = m_allowed.connections();
    const Outcome outcome = ctl(QStringList{ QStringLiteral("run"), QStringLiteral("--") } + expanded);
    const QByteArray shown
        = "exit " + QByteArray::number(outcome.exitCode) + "\nout: " + outcome.out + "\nerr: " + outcome.err;
    QString why;
    QVERIFY2(!somethingGotAround(why), qPrintable(why + QLatin1Char('\n') + QString::fromUtf8(shown)));
    switch (AllowlistExpect(expect)) {
    case Reaches:
        QVERIFY2(outcome.exitCode == 0 && outcome.out.contains(needle), shown.constData());
        QVERIFY(m_allowed.connections() > allowedBefore);
        break;
    case Forbidden:
        QVERIFY2(outcome.exitCode != 0 && outcome.err.contains("403"), shown.constData());
        QCOMPARE(m_allowed.connections(), allowedBefore);
        break;
    case NoConnection:
        QVERIFY2(!outcome.out.contains("ESCAPED") && !outcome.out.contains("200 Connection"), shown.constData());
        QVERIFY2(outcome.out.contains(needle), shown.constData());
        QCOMPARE(m_allowed.connections(), allowedBefore);
        break;
    case Fails:
        QVERIFY2(outcome.exitCode != 0 && !outcome.out.contains("CONNECTED"), shown.constData());
        QCOMPARE(m_allowed.connections(), allowedBefore);
        break;
    case Lists:
        QVERIFY2(outcome.exitCode == 0, shown.constData());
        QCOMPARE(outcome.out.trimmed(), needle);
        break;
    }
}

void TestDockerEscape::proxySocketFolderHoldsOnlyTheSocket()
{
    setNetwork(QStringLiteral("allowlist"), { QStringLiteral("localhost:%1").arg(m_allowed.port()) });
    auto bridgeContent = [] {
        QFile program(binary(QStringLiteral("sandbox-init")));
        return program.open(QIODevice::ReadOnly) ? program.readAll() : QByteArray();
    };
    const QByteArray bridgeBefore = bridgeContent();
    QVERIFY(!bridgeBefore.isEmpty());
    const Outcome listed = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("ls"),
                                 QStringLiteral("-A"), QStringLiteral("/run/sandbox-studio/proxy") });
    QCOMPARE(listed.exitCode, 0);
    QCOMPARE(listed.out.trimmed(), QByteArray("proxy.sock"));
    for (const char *script :
         { "echo x > /run/sandbox-studio/proxy/planted", "mkdir /run/sandbox-studio/proxy/planted",
           "rm -f /run/sandbox-studio/proxy/proxy.sock", "mv /run/sandbox-studio/proxy/proxy.sock /tmp/moved",
           "ln -s / /run/sandbox-studio/proxy/root", "echo x >> /run/sandbox-studio/sandbox-init",
           "rm -f /run/sandbox-studio/sandbox-init" }) {
        const Outcome tried = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                    QStringLiteral("-c"), QString::fromLatin1(script) });
        QVERIFY2(tried.exitCode != 0, script);
    }
    // On the host: every channel folder of the engine's proxy holds its socket alone, and
    // the bridge program is unchanged.
    QDir runtime(m_rig.filePath(QStringLiteral("state/run")));
    QVERIFY(QDir(m_rig.filePath(QStringLiteral("tmp"))).entryList({ QStringLiteral("*proxy*") }).isEmpty());
    const QStringList proxies = runtime.entryList({ QStringLiteral("proxy-*") }, QDir::Dirs);
    QCOMPARE(proxies.size(), 1);
    QDir proxy(runtime.filePath(proxies.first()));
    const QStringList channels = proxy.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    QVERIFY(!channels.isEmpty());
    for (const QString &channel : channels) {
        const QFileInfo info(proxy.filePath(channel));
        QVERIFY2(info.isDir(), qPrintable(info.filePath()));
        QCOMPARE(QDir(info.filePath()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
                 QStringList{ QStringLiteral("proxy.sock") });
        QCOMPARE(info.permissions() & (QFile::ReadOther | QFile::WriteOther | QFile::ReadGroup | QFile::WriteGroup),
                 QFile::Permissions());
    }
    const Outcome still
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                expand(QStringLiteral("wget -q -O - http://localhost:{port}/still")) });
    QVERIFY2(still.exitCode == 0 && still.out.contains("GET /still"), still.err.constData());
    QVERIFY(bridgeContent() == bridgeBefore);
}

void TestDockerEscape::domainRulesAreTheWarmContainersKey()
{
    // The same workspace under other rules: the other server is allowed now and the first
    // one is not, though a warm container of the first rules exists.
    setNetwork(QStringLiteral("allowlist"), { QStringLiteral("localhost:%1").arg(m_allowed.port()) });
    const Outcome first
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                expand(QStringLiteral("wget -q -O - http://localhost:{port}/")) });
    QVERIFY2(first.exitCode == 0, first.err.constData());
    setNetwork(QStringLiteral("allowlist"), { QStringLiteral("localhost:%1").arg(m_other.port()) });
    const int allowedBefore = m_allowed.connections();
    const Outcome refused
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                expand(QStringLiteral("wget -q -O - http://localhost:{port}/")) });
    QVERIFY2(refused.exitCode != 0 && refused.err.contains("403"), refused.err.constData());
    QCOMPARE(m_allowed.connections(), allowedBefore);
    const Outcome reached
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                expand(QStringLiteral("wget -q -O - http://localhost:{port2}/other")) });
    QVERIFY2(reached.exitCode == 0 && reached.out.contains("GET /other"), reached.err.constData());
    QVERIFY(m_other.connections() > 0);
    // Network none again: no proxy, no interface.
    setNetwork(QStringLiteral("none"), {});
    const Outcome none
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                expand(QStringLiteral("echo \"[$HTTP_PROXY]\"; wget -q -O - http://localhost:{port}/")) });
    QVERIFY2(none.exitCode != 0 && none.out.trimmed() == "[]", none.out.constData());
    QCOMPARE(m_allowed.connections(), allowedBefore);
}

void TestDockerEscape::aCommandThatEndsItsSandboxInitGetsNoListenerOfItsOwn()
{
    // Commands share a container and its pid namespace, so a command can end its own
    // sandbox-init (its parent). A child that outlives it (without the command's environment,
    // in a session of its own) then asks for a seccomp listener of its own, with which it
    // would answer its supervised calls (connect, the write gate) itself: refused.
    setNetwork(QStringLiteral("none"), {});
    const QString report = m_rig.workspace() + QStringLiteral("/own-listener");
    auto leftovers = [&report] {
        int count = 0;
        for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            QFile cmdline(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
            if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(QFile::encodeName(report)))
                ++count;
        }
        return count;
    };
    // The backend removes the container as soon as sandbox-init is gone, and the child with it:
    // a child removed before its attempt reported nothing and proves nothing, so the probe runs
    // again (at most three times) until an attempt is reported.
    QByteArray verdict;
    Outcome ran;
    for (int tries = 0; tries < 3 && verdict.isEmpty(); ++tries) {
        QFile::remove(report);
        ran = ctl({ QStringLiteral("run"), QStringLiteral("--"), m_rig.workspace() + QStringLiteral("/escape-probe"),
                    QStringLiteral("own_listener"), report });
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(report).size() > 0 || leftovers() == 0, 60000);
        QFile file(report);
        if (file.open(QIODevice::ReadOnly))
            verdict = file.readAll();
    }
    QVERIFY2(!verdict.isEmpty(), QByteArray("no attempt was reported in three runs: " + ran.out + ran.err).constData());
    QVERIFY2(verdict.startsWith("BLOCKED") && verdict.contains("Operation not permitted"),
             QByteArray(verdict + ran.out + ran.err).constData());
    // The child stays for two minutes unless its container goes: sandbox-init ended without
    // reporting the command's end, so the backend removed the container, and the child with it.
    QTRY_COMPARE_WITH_TIMEOUT(leftovers(), 0, 60000);
    // The next command runs as usual, in a new container.
    const Outcome next = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") });
    QVERIFY2(next.exitCode == 0, QByteArray(next.out + next.err).constData());
}

QTEST_GUILESS_MAIN(TestDockerEscape)
#include "tst_docker_escape.moc"
