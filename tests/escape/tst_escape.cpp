// The escape suite: every promise of the auto backend attacked from inside the sandbox,
// in both tiers. Each case is a shell snippet or an escape-probe subcommand run in the
// sandbox; the test asserts what the user would see (output, status) and what the host
// would see (files unchanged, processes alive, listeners untouched).
#include "EscapeDriver.h"
#include "LauncherRun.h"
#include "UpstreamServer.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QNetworkDatagram>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUdpSocket>

#include <csignal>
#include <fcntl.h>
#include <mqueue.h>
#include <sched.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

using namespace sandbox;
using namespace sandbox::test;

namespace {

enum Expect {
    ProbeBlocked, // escape-probe printed BLOCKED and never ESCAPED
    ProbeKilled, // escape-probe was killed by seccomp (SIGSYS)
    NoSecret, // no credential content in anything the command printed
    Fails, // the command failed, and the needle is absent from its output
    Succeeds, // the command succeeded and printed the needle
    Ran, // the command ran; what counts is the host check
};

// Every secret of this run carries this marker; another run of the suite on the same
// machine (whose home this sandbox may read) has its own.
const QByteArray kSecretMarker = "SECRET-" + QByteArray::number(QRandomGenerator::global()->generate(), 36) + "-";
const QByteArray kInertHook = "#!/bin/sh\ntouch /var/tmp/escape-inert-hook-ran\n";

bool have(const char *tool)
{
    return !QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty();
}

} // namespace

class TestEscape final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void escape_data();
    void escape();

private:
    void addRows(int tier);
    QString expand(const QString &text) const;
    bool hostCheck(const QString &check, QString &why);
    void resetGit();
    bool hostGit(const QStringList &arguments, const QString &directory = {});
    QByteArray victimStatus(const char *field) const;
    void startStoreWriter();
    bool finishStoreWriter();

    EscapeDriver m_driver;
    QTemporaryDir m_home{ QStringLiteral("/var/tmp/escape-home-XXXXXX") };
    QTemporaryDir m_workspace{ QStringLiteral("/var/tmp/escape-ws-XXXXXX") };
    QTemporaryDir m_busDir{ QStringLiteral("/var/tmp/escape-bus-XXXXXX") };
    QString m_alias;
    QString m_probe;
    UpstreamServer m_allowed;
    UpstreamServer m_forbidden;
    QUdpSocket m_udp;
    QProcess m_victim;
    // A host process of the user's with no capabilities (as root: dropped, and none gained on
    // exec), whose /proc directory a tier 2 sandbox-init could open as it is.
    QProcess m_caplessVictim;
    QProcess m_bus;
    QString m_busPath;
    QLocalServer m_runService;
    QLocalServer m_abstractService;
    QLocalServer m_homeAgent; // an agent socket in the home, outside any scanned place
    QLocalServer m_varService; // a service socket outside /run and the home
    QString m_abstractName;
    QByteArray m_gitConfig;
    QByteArray m_nestedConfig;
    QStringList m_hooks;
    QString m_marker;
    QTemporaryDir m_remote{ QStringLiteral("/var/tmp/escape-remote-XXXXXX") };
    // sandboxctl as a user installs it (bin/ and lib/), for the cases that run it inside.
    QTemporaryDir m_installed{ QStringLiteral("/var/tmp/escape-installed-XXXXXX") };
    QString m_installedSandboxctl;
    int m_currentTier = 1;
    QProcess m_storeWriter;
    int m_shmId = -1;
    key_t m_ipcKey = 0;
    int m_msgId = -1;
    int m_semId = -1;
    QString m_mqName;
    QByteArray m_sleep;
    QByteArray m_victimAffinity;
    QMap<int, int> m_casesPerTier;
    int m_allowedConnectionsBefore = 0;
};

void TestEscape::initTestCase()
{
    QVERIFY(m_home.isValid() && m_workspace.isValid() && m_busDir.isValid());
    // The probe runs from the workspace: the build directory may live anywhere, under a
    // /tmp that tier 1 replaces with a private one included.
    const QString built = QCoreApplication::applicationDirPath() + QStringLiteral("/escape-probe");
    QVERIFY2(QFileInfo(built).isExecutable(), qPrintable(built));
    m_probe = m_workspace.filePath(QStringLiteral(".escape-probe"));
    QVERIFY(QFile::copy(built, m_probe));
    QVERIFY(QFile::setPermissions(m_probe, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup));

    // Without a runtime directory, the engine's default rendezvous points used to be in the
    // shared /tmp a tier 2 command can write: the suite checks the default they have now.
    qunsetenv("XDG_RUNTIME_DIR");
    // A home with credentials where the default policy's denied list expects them.
    qputenv("HOME", QFile::encodeName(m_home.path()));
    auto write = [](const QString &path, const QByteArray &content) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
    };
    QVERIFY(write(m_home.filePath(QStringLiteral(".ssh/id_ed25519")), kSecretMarker + "SSH-KEY\n"));
    QVERIFY(write(m_home.filePath(QStringLiteral(".aws/credentials")), kSecretMarker + "AWS-KEY\n"));
    QVERIFY(write(m_home.filePath(QStringLiteral(".gnupg/private-keys-v1.d/k.key")), kSecretMarker + "GPG-KEY\n"));
    QVERIFY(
        write(m_home.filePath(QStringLiteral(".netrc")), "machine x login y password " + kSecretMarker + "NETRC\n"));
    QVERIFY(write(m_home.filePath(QStringLiteral("notes.txt")), "public notes\n"));
    QVERIFY(QFile::setPermissions(m_home.filePath(QStringLiteral("notes.txt")),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    // What the major CLIs, agents and browsers write (resources/policy/credential-stores.txt).
    for (const char *store :
         { ".npmrc", ".pypirc", ".cargo/credentials.toml", ".vault-token", ".terraform.d/credentials.tfrc.json",
           ".config/rclone/rclone.conf", ".pgpass", ".claude/.credentials.json", ".codex/auth.json",
           ".config/github-copilot/apps.json", ".config/gh/hosts.yml", ".kube/config", ".docker/config.json",
           "snap/firefox/common/.mozilla/firefox/p.default/logins.json",
           "snap/chromium/common/chromium/Default/Cookies", ".var/app/org.mozilla.firefox/.mozilla/logins.json",
           ".config/Bitwarden CLI/data.json" })
        QVERIFY(write(m_home.filePath(QString::fromLatin1(store)), kSecretMarker + store + "\n"));

    // The workspace: a repository whose hooks and config must stay read-only.
    QVERIFY(write(m_workspace.filePath(QStringLiteral("existing.txt")), "existing\n"));
    QVERIFY(QDir(m_workspace.path()).mkpath(QStringLiteral("src")));
    QVERIFY(QDir(m_workspace.path()).mkpath(QStringLiteral(".git/hooks")));
    QVERIFY(write(m_workspace.filePath(QStringLiteral(".git/config")), "[core]\n\tbare = false\n"));
    QVERIFY(write(m_workspace.filePath(QStringLiteral(".git/HEAD")), "ref: refs/heads/main\n"));
    QDir(m_workspace.path()).mkpath(QStringLiteral(".git/objects"));
    QDir(m_workspace.path()).mkpath(QStringLiteral(".git/refs/heads"));
    QVERIFY(write(m_workspace.filePath(QStringLiteral(".git/hooks/pre-commit.sample")), "#!/bin/sh\nexit 0\n"));
    m_gitConfig = "[core]\n\tbare = false\n";
    m_marker = QStringLiteral("/var/tmp/escape-pwned-%1").arg(QCoreApplication::applicationPid());
    if (have("git")) {
        // A real repository with a commit and a local remote, so git can work in it.
        QVERIFY(
            hostGit({ QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main") }));
        QVERIFY(hostGit({ QStringLiteral("config"), QStringLiteral("user.name"), QStringLiteral("Escape Suite") }));
        QVERIFY(
            hostGit({ QStringLiteral("config"), QStringLiteral("user.email"), QStringLiteral("escape@example.com") }));
        QVERIFY(hostGit({ QStringLiteral("add"), QStringLiteral("existing.txt") }));
        QVERIFY(hostGit({ QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("initial") }));
        QVERIFY(m_remote.isValid());
        QVERIFY(hostGit({ QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--bare"), m_workspace.path(),
                          m_remote.filePath(QStringLiteral("origin.git")) }));
        QVERIFY(hostGit({ QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("origin"),
                          m_remote.filePath(QStringLiteral("origin.git")) }));
        QFile config(m_workspace.filePath(QStringLiteral(".git/config")));
        QVERIFY(config.open(QIODevice::ReadOnly));
        m_gitConfig = config.readAll();
        // A repository the user cloned inside the workspace (not a submodule).
        const QString nested = m_workspace.filePath(QStringLiteral("vendor/lib"));
        QVERIFY(QDir().mkpath(nested));
        QVERIFY(write(nested + QStringLiteral("/lib.c"), "int lib;\n"));
        QVERIFY(hostGit({ QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main") },
                        nested));
        QVERIFY(hostGit({ QStringLiteral("add"), QStringLiteral("lib.c") }, nested));
        QVERIFY(hostGit({ QStringLiteral("-c"), QStringLiteral("user.name=u"), QStringLiteral("-c"),
                          QStringLiteral("user.email=u@example.com"), QStringLiteral("commit"), QStringLiteral("-qm"),
                          QStringLiteral("lib") },
                        nested));
        // A hook the user left inert (not executable) there: git ignores it until someone
        // makes it so. Tier 1 mounts the workspace root's hooks read-only, not a nested one's.
        QVERIFY(write(nested + QStringLiteral("/.git/hooks/post-checkout"), kInertHook));
        QVERIFY(QFile::setPermissions(nested + QStringLiteral("/.git/hooks/post-checkout"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        QFile nestedConfig(nested + QStringLiteral("/.git/config"));
        QVERIFY(nestedConfig.open(QIODevice::ReadOnly));
        m_nestedConfig = nestedConfig.readAll();
        // A folder of the user's that happens to hold a file named HEAD (no repository).
        QVERIFY(QDir().mkpath(m_workspace.filePath(QStringLiteral("stray"))));
        QVERIFY(write(m_workspace.filePath(QStringLiteral("stray/HEAD")), "ref: refs/heads/main\n"));
    }
    m_hooks = QDir(m_workspace.filePath(QStringLiteral(".git/hooks"))).entryList(QDir::Files);
    QVERIFY(QFile::link(m_home.filePath(QStringLiteral(".ssh/id_ed25519")),
                        m_workspace.filePath(QStringLiteral("link-to-ssh"))));

    // The same home reachable under a second path (a bind mount the user has), made in a
    // mount namespace of this test so the host is untouched.
    if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0
        && mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0) {
        m_alias = m_busDir.filePath(QStringLiteral("home-alias"));
        QDir().mkpath(m_alias);
        if (mount(QFile::encodeName(m_home.path()).constData(), QFile::encodeName(m_alias).constData(), nullptr,
                  MS_BIND, nullptr)
            != 0)
            m_alias.clear();
    }

    // Host-side things a sandbox must not reach.
    QVERIFY(m_allowed.start());
    QVERIFY(m_forbidden.start());
    QVERIFY(m_udp.bind(QHostAddress::LocalHost, 0));
    m_victim.start(QStringLiteral("sleep"), { QStringLiteral("1000") });
    QVERIFY(m_victim.waitForStarted());
    m_victimAffinity = victimStatus("Cpus_allowed_list");
    if (geteuid() == 0) {
        m_caplessVictim.start(QStringLiteral("setpriv"),
                              { QStringLiteral("--securebits"), QStringLiteral("+noroot,+noroot_locked"),
                                QStringLiteral("--inh-caps"), QStringLiteral("-all"), QStringLiteral("--ambient-caps"),
                                QStringLiteral("-all"), QStringLiteral("--bounding-set"), QStringLiteral("-all"),
                                QStringLiteral("sleep"), QStringLiteral("1000") });
    } else {
        m_caplessVictim.start(QStringLiteral("sleep"), { QStringLiteral("1000") });
    }
    QVERIFY(m_caplessVictim.waitForStarted());
    // Host SysV IPC objects and a POSIX message queue a tier 2 sandbox shares the kernel with.
    m_ipcKey = static_cast<key_t>(0x5e000000 + QRandomGenerator::global()->bounded(0xffffff));
    m_shmId = shmget(m_ipcKey, 4096, IPC_CREAT | IPC_EXCL | 0600);
    m_msgId = msgget(m_ipcKey, IPC_CREAT | IPC_EXCL | 0600);
    m_semId = semget(m_ipcKey, 1, IPC_CREAT | IPC_EXCL | 0600);
    QVERIFY(m_shmId >= 0 && m_msgId >= 0 && m_semId >= 0);
    m_mqName = QStringLiteral("/escape-mq-%1").arg(m_ipcKey);
    const mqd_t queue = mq_open(QFile::encodeName(m_mqName).constData(), O_CREAT | O_EXCL | O_RDWR, 0600, nullptr);
    QVERIFY(queue != mqd_t(-1));
    mq_close(queue);
    m_sleep = uniqueSleep();
    m_busPath = m_busDir.filePath(QStringLiteral("bus"));
    if (have("dbus-daemon")) {
        m_bus.start(QStringLiteral("dbus-daemon"),
                    { QStringLiteral("--session"), QStringLiteral("--nofork"),
                      QStringLiteral("--address=unix:path=") + m_busPath });
        QVERIFY(m_bus.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_busPath), 30000);
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + QFile::encodeName(m_busPath));
    }
    const QString runSocket
        = QStringLiteral("/run/escape-service-%1.sock").arg(QRandomGenerator::global()->bounded(1000000));
    QVERIFY(m_runService.listen(runSocket));
    QDir().mkpath(m_home.filePath(QStringLiteral(".local/share/some-agent")));
    QVERIFY(m_homeAgent.listen(m_home.filePath(QStringLiteral(".local/share/some-agent/agent.sock"))));
    QVERIFY(m_varService.listen(m_busDir.filePath(QStringLiteral("service.sock"))));
    m_abstractName = QStringLiteral("sandbox-escape-%1").arg(QRandomGenerator::global()->bounded(1000000));
    m_abstractService.setSocketOptions(QLocalServer::AbstractNamespaceOption);
    QVERIFY(m_abstractService.listen(m_abstractName));

    QString error;
    QVERIFY2(m_driver.prepare(&error), qPrintable(error));
    qInfo("escape suite driver: %s", qPrintable(m_driver.describe()));

    // The cases that run sandboxctl inside the sandbox run it as a user installed it: a copy
    // of the run front, the full program beside it and the project's libraries in lib/ next
    // to bin/ (where the full program looks for them), in a folder the policy reads. The
    // build's own may be under a /tmp the sandbox does not show (tier 1's is private).
    if (!m_driver.sandboxctlPath().isEmpty()) {
        QVERIFY(m_installed.isValid());
        const QString bin = m_installed.filePath(QStringLiteral("bin"));
        const QString lib = m_installed.filePath(QStringLiteral("lib"));
        QVERIFY(QDir().mkpath(bin) && QDir().mkpath(lib));
        const QString builtPrograms = QFileInfo(m_driver.sandboxctlPath()).absolutePath();
        for (const char *program : { "sandboxctl", "sandboxctl-full" })
            QVERIFY(QFile::copy(builtPrograms + QLatin1Char('/') + QLatin1String(program),
                                bin + QLatin1Char('/') + QLatin1String(program)));
        const QDir builtLibraries(builtPrograms + QStringLiteral("/../lib"));
        const QStringList libraries = builtLibraries.entryList({ QStringLiteral("libsandbox-*.so.1") }, QDir::Files);
        QVERIFY2(!libraries.isEmpty(), qPrintable(builtLibraries.path()));
        for (const QString &library : libraries)
            QVERIFY(QFile::copy(builtLibraries.filePath(library), lib + QLatin1Char('/') + library));
        m_installedSandboxctl = bin + QStringLiteral("/sandboxctl");
        // It runs outside the build tree: the full program is found beside it, its
        // libraries relative to it.
        QProcess check;
        check.start(m_installedSandboxctl, { QStringLiteral("--help") });
        QVERIFY(check.waitForFinished(30000));
        QVERIFY2(check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0,
                 check.readAllStandardError().constData());
    }
}

void TestEscape::cleanupTestCase()
{
    for (auto it = m_casesPerTier.begin(); it != m_casesPerTier.end(); ++it)
        qInfo("tier %d: %d escape cases", it.key(), it.value());
    m_victim.kill();
    m_victim.waitForFinished();
    m_caplessVictim.kill();
    m_caplessVictim.waitForFinished();
    m_bus.kill();
    m_bus.waitForFinished();
    shmctl(m_shmId, IPC_RMID, nullptr);
    msgctl(m_msgId, IPC_RMID, nullptr);
    semctl(m_semId, 0, IPC_RMID);
    mq_unlink(QFile::encodeName(m_mqName).constData());
    if (!m_alias.isEmpty())
        umount2(QFile::encodeName(m_alias).constData(), MNT_DETACH);
}

QString TestEscape::expand(const QString &text) const
{
    QString out = text;
    out.replace(QStringLiteral("{probe}"), m_probe);
    out.replace(QStringLiteral("{home}"), m_home.path());
    out.replace(QStringLiteral("{alias}"), m_alias);
    out.replace(QStringLiteral("{ws}"), m_workspace.path());
    out.replace(QStringLiteral("{port}"), QString::number(m_allowed.port()));
    out.replace(QStringLiteral("{port2}"), QString::number(m_forbidden.port()));
    out.replace(QStringLiteral("{udpport}"), QString::number(m_udp.localPort()));
    out.replace(QStringLiteral("{victim}"), QString::number(m_victim.processId()));
    out.replace(QStringLiteral("{capless}"), QString::number(m_caplessVictim.processId()));
    out.replace(QStringLiteral("{bus}"), m_busPath);
    out.replace(QStringLiteral("{runsock}"), m_runService.fullServerName());
    out.replace(QStringLiteral("{homesock}"), m_homeAgent.fullServerName());
    out.replace(QStringLiteral("{varsock}"), m_varService.fullServerName());
    out.replace(QStringLiteral("{enginesock}"), m_driver.engineSocket(m_currentTier));
    out.replace(QStringLiteral("{defaultsock}"), m_driver.defaultEngineSocket(m_currentTier));
    out.replace(QStringLiteral("{sandboxctl}"), m_installedSandboxctl);
    out.replace(QStringLiteral("{abstract}"), QLatin1Char('@') + m_abstractName);
    out.replace(QStringLiteral("{shmid}"), QString::number(m_shmId));
    out.replace(QStringLiteral("{ipckey}"), QString::number(m_ipcKey));
    out.replace(QStringLiteral("{mq}"), m_mqName);
    out.replace(QStringLiteral("{sleep}"), QString::fromLatin1(m_sleep));
    out.replace(QStringLiteral("{marker}"), m_marker);
    return out;
}

void TestEscape::escape_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<int>("expect");
    QTest::addColumn<QByteArray>("needle");
    QTest::addColumn<QString>("check");
    addRows(1);
    addRows(2);
}

void TestEscape::addRows(int tier)
{
    const QString t = tier == 1 ? QStringLiteral("t1 ") : QStringLiteral("t2 ");
    int count = 0;
    auto row = [&](const QByteArray &name, const QString &policy, const QStringList &argv, Expect expect,
                   const QByteArray &needle = {}, const QString &check = {}) {
        QTest::newRow(qPrintable(t + QString::fromLatin1(name)))
            << tier << policy << argv << int(expect) << needle << check;
        ++count;
    };
    const QString def = QStringLiteral("default");
    const QString allow = QStringLiteral("allowlist");
    const QString full = QStringLiteral("full");
    auto sh = [](const char *script) {
        return QStringList{ QStringLiteral("sh"), QStringLiteral("-c"), QString::fromLatin1(script) };
    };
    auto probe = [](std::initializer_list<const char *> args) {
        QStringList argv{ QStringLiteral("{probe}") };
        for (const char *arg : args)
            argv.append(QString::fromLatin1(arg));
        return argv;
    };

    // --- reading credentials
    row("read ssh key", def, sh("cat {home}/.ssh/id_ed25519"), NoSecret);
    row("read aws credentials", def, sh("cat {home}/.aws/credentials"), NoSecret);
    row("read gnupg key", def, sh("cat {home}/.gnupg/private-keys-v1.d/k.key"), NoSecret);
    row("read netrc file", def, sh("cat {home}/.netrc"), NoSecret);
    row("read through a symlink in the workspace", def, sh("cat {ws}/link-to-ssh"), NoSecret);
    row("read through a new symlink", def,
        sh("ln -s {home}/.ssh/id_ed25519 {ws}/src/l; cat {ws}/src/l; rm -f {ws}/src/l"), NoSecret);
    row("read through a new hardlink", def,
        sh("ln {home}/.ssh/id_ed25519 {ws}/src/h; cat {ws}/src/h; rm -f {ws}/src/h"), NoSecret);
    row("read through /proc/self/root", def, sh("cat /proc/self/root{home}/.ssh/id_ed25519"), NoSecret);
    row("read through /proc/1/root", def, sh("cat /proc/1/root{home}/.ssh/id_ed25519"), NoSecret);
    row("read through /proc/self/cwd", def, sh("cd {home} && cat /proc/self/cwd/.ssh/id_ed25519 .aws/credentials"),
        NoSecret);
    row("read through a file descriptor of the directory", def,
        QStringList{
            QStringLiteral("python3"), QStringLiteral("-c"),
            QStringLiteral(
                "import "
                "os\nfd=os.open('{home}/.ssh',os.O_RDONLY)\nprint(open('/proc/self/fd/%d/id_ed25519'%fd).read())") },
        NoSecret);
    if (!m_alias.isEmpty())
        row("read through another mount of the same directory", def,
            sh("cat {alias}/.ssh/id_ed25519 {alias}/.aws/credentials"), NoSecret);
    row("read every credential store", def,
        sh("cat {home}/.npmrc {home}/.pypirc {home}/.cargo/credentials.toml {home}/.vault-token "
           "{home}/.terraform.d/credentials.tfrc.json {home}/.config/rclone/rclone.conf {home}/.pgpass "
           "{home}/.claude/.credentials.json {home}/.codex/auth.json {home}/.config/github-copilot/apps.json "
           "{home}/.config/gh/hosts.yml {home}/.kube/config {home}/.docker/config.json "
           "'{home}/.config/Bitwarden CLI/data.json'"),
        NoSecret);
    row("read snap and flatpak browser profiles", def,
        sh("cat {home}/snap/*/common/.mozilla/firefox/*/logins.json "
           "{home}/snap/chromium/common/chromium/Default/Cookies "
           "{home}/.var/app/*/.mozilla/logins.json; ls -R {home}/snap {home}/.var"),
        NoSecret);
    // The host writes new stores while the command waits (two FIFOs in the workspace
    // order the steps): a store that did not exist at the start is still unreadable.
    for (const char *where : { "new-store", "new-dir" })
        row(QByteArray("read a credential store created while it runs (") + where + ")", QStringLiteral("later"),
            sh("echo > {ws}/.store-ready; cat {ws}/.store-written > /dev/null; cat {home}/.gem/credentials "
               "{home}/.config/glab-cli/config.yml {home}/.aws/later; echo read-attempted"),
            Succeeds, "read-attempted");
    row("grep the whole home", def, sh("grep -r SECRET {home} /proc/self/root{home} 2>/dev/null"), NoSecret);
    row("archive the home", def, sh("tar -cf - {home} 2>/dev/null | tar -xOf - 2>/dev/null"), NoSecret);
    row("find and read key files", def, sh("find {home} / -xdev -name 'id_ed25519' -exec cat {} + 2>/dev/null"),
        NoSecret);

    // --- writing outside the writable paths
    row("write into /etc", def, sh("echo x > /etc/escape-marker"), Fails, {},
        QStringLiteral("nofile:/etc/escape-marker"));
    row("write into the home", def, sh("echo x > {home}/escape-marker"), Fails, {},
        QStringLiteral("nofile:{home}/escape-marker"));
    row("write into /usr", def, sh("touch /usr/escape-marker"), Fails, {}, QStringLiteral("nofile:/usr/escape-marker"));
    row("write next to the workspace", def, sh("touch /var/tmp/escape-marker-outside"), Fails, {},
        QStringLiteral("nofile:/var/tmp/escape-marker-outside"));
    row("write through /proc/self/root", def, sh("echo x > /proc/self/root/etc/escape-marker"), Fails, {},
        QStringLiteral("nofile:/etc/escape-marker"));
    // --- repository files that would make the host's git run code. Tier 1 keeps the
    // existing ones read-only while the command runs; in both tiers whatever it left among
    // them is undone when it ends, and the host's git must run nothing it planted.
    const Expect guarded = tier == 1 ? Fails : Ran;
    const QString gitCheck = QStringLiteral("git-intact");
    row("write a git hook", def,
        sh("echo 'curl evil' > {ws}/.git/hooks/pre-commit && chmod +x {ws}/.git/hooks/pre-commit"), guarded, {},
        gitCheck);
    row("append to git config", def, sh("printf '[core]\\n\\thooksPath = /tmp/h\\n' >> {ws}/.git/config"), guarded, {},
        gitCheck);
    if (have("git")) {
        // chmod is judged too: an inert hook stays inert, by path and through a descriptor.
        row("make an inert hook executable", def, sh("chmod +x {ws}/vendor/lib/.git/hooks/post-checkout"), Fails, {},
            QStringLiteral("hook-inert"));
        row("make an inert hook executable through a descriptor", def,
            QStringList{
                QStringLiteral("python3"), QStringLiteral("-c"),
                QStringLiteral("import os\nfd=os.open('{ws}/vendor/lib/.git/hooks/post-checkout',os.O_RDONLY)\n"
                               "os.fchmod(fd,0o755)") },
            Fails, {}, QStringLiteral("hook-inert"));
        row("make an inert hook executable relative to the hooks directory", def,
            QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                         QStringLiteral("import os\nd=os.open('{ws}/vendor/lib/.git/hooks',os.O_RDONLY)\n"
                                        "os.chmod('post-checkout',0o700,dir_fd=d)") },
            Fails, {}, QStringLiteral("hook-inert"));
    }
    row("replace git config", def,
        sh("rm -f {ws}/.git/config; mv {ws}/.git/config {ws}/.git/c2; echo x > {ws}/.git/config"), guarded, {},
        gitCheck);
    row("move the hooks directory away", def, sh("mv {ws}/.git/hooks {ws}/.git/h2 || mv {ws}/.git {ws}/g2"), guarded,
        {}, gitCheck);
    row("move .git aside and plant a new one", def,
        sh("mv {ws}/.git {ws}/g2; mkdir -p {ws}/.git/hooks && echo evil > {ws}/.git/hooks/pre-commit"), guarded, {},
        gitCheck);
    row("remove the hooks directory", def, sh("rm -rf {ws}/.git/hooks; test ! -e {ws}/.git/hooks"), guarded, {},
        gitCheck);
    row("replace a sample hook", def, sh("echo evil > {ws}/.git/hooks/pre-commit.sample"), guarded, {}, gitCheck);
    // The end is reported once nothing of the sandbox runs: a loop left behind to plant the
    // hook again after the repository is restored must be gone by then.
    row("keep planting a git hook from a loop left behind", def,
        sh("sh -c 'while :; do echo evil > {ws}/.git/hooks/pre-commit && chmod +x {ws}/.git/hooks/pre-commit; "
           "done' </dev/null >/dev/null 2>&1 & echo left"),
        Succeeds, "left", gitCheck);
    if (have("git"))
        row("git config core.hooksPath", def,
            QStringList{ QStringLiteral("git"), QStringLiteral("-C"), QStringLiteral("{ws}"), QStringLiteral("config"),
                         QStringLiteral("core.hooksPath"), QStringLiteral("/tmp/h") },
            guarded, {}, gitCheck);

    if (have("git")) {
        const QString safe = QStringLiteral("git-safe");
        row("plant commondir", def,
            sh("mkdir -p /var/tmp/escape-evil-git/hooks; echo /var/tmp/escape-evil-git > {ws}/.git/commondir"), Ran, {},
            safe);
        row("plant hooks in a new hooks directory", def,
            sh("rm -rf {ws}/.git/hooks; mkdir -p {ws}/.git/hooks && printf '#!/bin/sh\\ntouch {marker}\\n' > "
               "{ws}/.git/hooks/pre-commit && "
               "chmod +x {ws}/.git/hooks/pre-commit; printf '#!/bin/sh\\ntouch {marker}\\n' > "
               "{ws}/.git/hooks/post-commit; chmod +x {ws}/.git/hooks/post-commit"),
            Ran, {}, safe);
        row("plant a submodule's config and hooks", def,
            sh("mkdir -p {ws}/.git/modules/sub/hooks && printf '#!/bin/sh\\ntouch {marker}\\n' > "
               "{ws}/.git/modules/sub/hooks/post-checkout && "
               "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/.git/modules/sub/config"),
            Ran, {}, safe);
        row("plant a worktree", def,
            sh("mkdir -p {ws}/.git/worktrees/w && echo /var/tmp/escape-evil-git > {ws}/.git/worktrees/w/commondir && "
               "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/.git/config.worktree"),
            Ran, {}, safe);
        row("plant attributes", def, sh("echo '* filter=evil' > {ws}/.git/info/attributes"), Ran, {}, safe);
        row("replace .git with a file pointing elsewhere", def,
            sh("mv {ws}/.git {ws}/g2 && echo 'gitdir: /var/tmp/escape-evil-git' > {ws}/.git"), Ran, {}, safe);
        // Refused at the moment of the write, so no other command (nor the host's git)
        // ever sees the plant, and nothing has to be put back.
        row("plant commondir, looked for while the command runs", def,
            sh("echo /var/tmp/escape-evil-git > {ws}/.git/commondir; test ! -e {ws}/.git/commondir && "
               "echo NOT-PLANTED"),
            Succeeds, "NOT-PLANTED", safe);
        row("write a hook through a dangling symbolic link", def,
            sh("ln -s .git/hooks/pre-commit {ws}/innocent; printf '#!/bin/sh\\ntouch {marker}\\n' > {ws}/innocent; "
               "chmod +x {ws}/innocent"),
            Ran, {}, safe);
        row("hard-link .git/config and write through the link", def,
            sh("ln {ws}/.git/config {ws}/cfg; printf '[core]\\n\\tfsmonitor = touch {marker}\\n' >> {ws}/cfg"), Ran, {},
            safe);
        row("rename a file over .git/config", def,
            sh("printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/c; mv -f {ws}/c {ws}/.git/config"), Ran, {},
            safe);
        row("reopen .git/config for writing through /proc/self/fd", def,
            QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                         QStringLiteral("import os\nfd=os.open('{ws}/.git/config',os.O_PATH)\n"
                                        "w=os.open('/proc/self/fd/%d'%fd,os.O_WRONLY|os.O_APPEND)\n"
                                        "os.write(w,b'[core]\\n\\tfsmonitor = touch {marker}\\n')") },
            Ran, {}, safe);
        row("git init a nested repository with an fsmonitor and stage it", def,
            sh("mkdir -p {ws}/nested && cd {ws}/nested && git init -q; "
               "printf '[core]\\n\\tfsmonitor = touch {marker}\\n\\tworktree = /\\n' >> .git/config; "
               "echo x > f; git add f; git commit -qm n; cd {ws} && git add nested; exit 0"),
            Ran, {}, QStringLiteral("no-repository:{ws}/nested"));
        row("a .git file pointing elsewhere in a sub-folder", def,
            sh("mkdir -p {ws}/sub2 && echo 'gitdir: /var/tmp/escape-evil-git' > {ws}/sub2/.git"), Ran, {},
            QStringLiteral("no-repository:{ws}/sub2"));
        row("a symbolic link named .git in a sub-folder", def,
            sh("mkdir -p {ws}/sub3 && ln -s /var/tmp/escape-evil-git {ws}/sub3/.git"), Ran, {},
            QStringLiteral("no-repository:{ws}/sub3"));
        row("a bare repository made in the workspace", def,
            sh("mkdir -p {ws}/bare/objects {ws}/bare/refs && "
               "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {ws}/bare/config && "
               "echo 'ref: refs/heads/main' > {ws}/bare/HEAD"),
            Ran, {}, QStringLiteral("no-repository:{ws}/bare"));
        row("a bare repository built in .git/objects and moved out", def,
            sh("d={ws}/.git/objects/evil && mkdir -p $d/objects $d/refs && "
               "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > $d/config && "
               "echo 'ref: refs/heads/main' > $d/HEAD; mv $d {ws}/moved"),
            Ran, {}, QStringLiteral("no-repository:{ws}/moved"));
        // Git takes a folder with a HEAD and a commondir for a repository, whose config (here
        // the command's) the host's git then reads: git fetch runs its core.sshCommand.
        row("a commondir beside a HEAD the user has, naming a config the command made", def,
            sh("mkdir -p {ws}/common/objects {ws}/common/refs && "
               "printf '[core]\\n\\tsshCommand = touch {marker}\\n' > {ws}/common/config && "
               "echo ../common > {ws}/stray/commondir; exit 0"),
            Ran, {}, QStringLiteral("nofile:{ws}/stray/commondir"));
        row("objects and refs beside a HEAD the user has", def,
            sh("mkdir {ws}/stray/objects; mkdir {ws}/stray/refs; exit 0"), Ran, {},
            QStringLiteral("nofile:{ws}/stray/objects"));
        row("the config of a nested repository made on the host", def,
            sh("printf '[core]\\n\\tfsmonitor = touch {marker}\\n' >> {ws}/vendor/lib/.git/config; "
               "rm -rf {ws}/vendor/lib/.git/hooks; mkdir -p {ws}/vendor/lib/.git/hooks && "
               "printf '#!/bin/sh\\ntouch {marker}\\n' > {ws}/vendor/lib/.git/hooks/post-checkout"),
            Ran, {}, QStringLiteral("git-runs-nothing:{ws}/vendor/lib"));
        row("rebase state the command left is removed when it ends", def,
            sh("cd {ws} && git commit -q --allow-empty -m r1 && "
               "GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -qi HEAD~1 >/dev/null 2>&1; "
               "test -d .git/rebase-merge && echo REBASE-STOPPED"),
            Succeeds, "REBASE-STOPPED", QStringLiteral("nofile:{ws}/.git/rebase-merge"));
    }
    // --- metadata outside the writable paths
    row("chown outside the writable paths", def, sh("chown \"$(id -u):$(id -g)\" {home}/notes.txt"), Fails);
    row("extended attributes outside the writable paths", def,
        QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                     QStringLiteral("import os\nos.setxattr('{home}/notes.txt','user.escape',b'1')") },
        Fails, {}, QStringLiteral("no-xattr:{home}/notes.txt"));
    row("truncate outside the writable paths", def, sh("truncate -s 0 {home}/notes.txt"), Fails, {},
        QStringLiteral("content:{home}/notes.txt:public notes"));
    row("chmod in the workspace works", def,
        sh("chmod +x {ws}/existing.txt && chmod -x {ws}/existing.txt && touch -d 2001-01-01 {ws}/existing.txt && "
           "echo CHMOD-OK"),
        Succeeds, "CHMOD-OK");
    const QString modeKept = QStringLiteral("mode:{home}/notes.txt:644");
    const QString timeKept = QStringLiteral("mtime-after:{home}/notes.txt:1000000000");
    row("chmod outside the writable paths", def, sh("chmod 0777 {home}/notes.txt"), Fails, {}, modeKept);
    row("utimes outside the writable paths", def, sh("touch -d 2001-01-01 {home}/notes.txt"), Fails, {}, timeKept);
    row("chmod through a symlink in the workspace", def,
        sh("ln -s {home}/notes.txt {ws}/src/to-notes; chmod 0777 {ws}/src/to-notes; rc=$?; rm -f {ws}/src/to-notes; "
           "exit $rc"),
        Fails, {}, modeKept);
    row("utimes through a symlink in the workspace", def,
        sh("ln -s {home}/notes.txt {ws}/src/to-notes; touch -d 2001-01-01 {ws}/src/to-notes; rc=$?; "
           "rm -f {ws}/src/to-notes; exit $rc"),
        Fails, {}, timeKept);
    row("chmod relative to a directory descriptor outside", def,
        QStringList{
            QStringLiteral("python3"), QStringLiteral("-c"),
            QStringLiteral("import os\nfd=os.open('{home}',os.O_RDONLY)\nos.chmod('notes.txt',0o777,dir_fd=fd)") },
        Fails, {}, modeKept);
    row("fchmod and futimens on a descriptor of a file outside", def,
        QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                     QStringLiteral("import os\nf=open('{home}/notes.txt')\n"
                                    "try:\n  os.utime(f.fileno(),(978307200,978307200))\nexcept OSError: pass\n"
                                    "os.fchmod(f.fileno(),0o777)") },
        Fails, {}, QStringLiteral("mode-and-mtime:{home}/notes.txt"));
    row("a build script made executable in the workspace runs", def,
        sh("printf '#!/bin/sh\\necho BUILD-OK\\n' > {ws}/src/build.sh && chmod +x {ws}/src/build.sh && "
           "{ws}/src/build.sh; rm -f {ws}/src/build.sh"),
        Succeeds, "BUILD-OK");
    // sandbox-init's copy of a file it opened for the command is closed before the command
    // goes on: executing a script just written never meets "Text file busy".
    row("write, chmod and run a script 100 times in a row", def,
        sh("cd {ws}/src && i=0; while [ $i -lt 100 ]; do printf '#!/bin/sh\\necho ok\\n' > run$i.sh && "
           "chmod +x run$i.sh && ./run$i.sh > /dev/null || exit 1; i=$((i+1)); done; rm -f run*.sh; echo ALL-RAN"),
        Succeeds, "ALL-RAN");
    row("fchmod and futimens in the workspace work", def,
        QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                     QStringLiteral("import os\nf=open('{ws}/existing.txt')\nos.fchmod(f.fileno(),0o600)\n"
                                    "os.utime(f.fileno(),(978307200,978307200))\nst=os.stat('{ws}/existing.txt')\n"
                                    "os.chmod('{ws}/existing.txt',0o644)\n"
                                    "print('FD-OK' if oct(st.st_mode&0o777)=='0o600' and st.st_mtime==978307200 "
                                    "else 'FD-WRONG')") },
        Succeeds, "FD-OK");
    row("make sees mtimes set in the workspace", def,
        sh("cd {ws}/src && printf 'out: in\\n\\tcp in out\\n' > Makefile && echo a > in && make -s && "
           "touch -d 2000-01-01 out && make; rm -f Makefile in out"),
        Succeeds, "cp in out");
    if (tier == 2) {
        row("chown to another owner is refused in the workspace too (claimed)", def,
            sh("chown 54321 {ws}/existing.txt"), Fails);
        // What tar and cp -a do as root: "changing" a file to the owner it has.
        row("chown to the owner a file has succeeds in the workspace", def,
            sh("chown \"$(id -u):$(id -g)\" {ws}/existing.txt && echo CHOWN-SAME-OK"), Succeeds, "CHOWN-SAME-OK");
        row("tar keeps working as root in the workspace", def,
            sh("cd {ws} && mkdir -p tarsrc/d && echo x > tarsrc/d/f && ln -s f tarsrc/d/l && tar -cf t.tar tarsrc && "
               "rm -rf tarsrc && tar -xf t.tar && rm -rf tarsrc t.tar && echo TAR-OK"),
            Succeeds, "TAR-OK");
    }

    // --- syscalls that must be refused
    for (const char *name : { "ptrace", "process_vm", "io_uring", "bpf", "keyctl", "userfaultfd", "perf_event_open",
                              "mount", "unshare", "setns", "clone_newuser", "chroot", "kexec", "modules", "personality",
                              "raw_socket", "tiocsti", "open_by_handle_at" })
        row(name, def, probe({ name }), ProbeBlocked);
    // --- arguments with bits above the low 32 set (the kernel ignores them)
    for (const QString &policy : { def, full, allow }) {
        const QByteArray suffix = QByteArray(" (") + policy.toLatin1() + ")";
        row(QByteArray("wide unix socket to a /run service") + suffix, policy,
            probe({ "connect_unix_wide", "{runsock}" }), ProbeBlocked);
        if (have("dbus-daemon"))
            row(QByteArray("wide unix socket to the session bus") + suffix, policy,
                probe({ "connect_unix_wide", "{bus}" }), ProbeBlocked);
        row(QByteArray("wide packet socket") + suffix, policy, probe({ "wide_packet" }), ProbeBlocked);
        row(QByteArray("vsock") + suffix, policy, probe({ "vsock" }), ProbeBlocked);
    }
    row("wide inet socket to a host listener", def, probe({ "connect_tcp_wide", "127.0.0.1", "{port}" }), ProbeBlocked,
        {}, QStringLiteral("no-tcp"));
    row("wide inet socket around the proxy", allow, probe({ "connect_tcp_wide", "127.0.0.1", "{port2}" }), ProbeBlocked,
        {}, QStringLiteral("port2-untouched"));
    row("wide TIOCSTI", def, probe({ "wide_tiocsti" }), ProbeBlocked);
    row("x32 syscall entry", def, probe({ "x32" }), ProbeKilled);
    row("ia32 int 0x80 entry", def, probe({ "ia32" }), ProbeKilled);
    row("unshare tool", def, sh("unshare -r true || unshare -m true"), Fails);
    row("write a kernel setting", def, sh("echo 1 > /proc/sys/kernel/sysrq || echo 1 > /proc/sys/net/ipv4/ip_forward"),
        Fails);
    row("trigger sysrq", def, sh("echo h > /proc/sysrq-trigger"), Fails);
    row("dump core", def, sh("ulimit -c"), Succeeds, "0");
    row("raise the core limit", def, sh("ulimit -c unlimited"), Fails);
    row("mount tool", def, sh("mount -t tmpfs none /tmp"), Fails);
    row("chroot tool", def, sh("chroot / true"), Fails);

    // --- network none
    row("connect to a host loopback listener", def, probe({ "connect_tcp", "127.0.0.1", "{port}" }), ProbeBlocked, {},
        QStringLiteral("no-tcp"));
    row("connect to the outside", def, probe({ "connect_tcp", "1.1.1.1", "80" }), ProbeBlocked);
    row("udp to a host listener", def, probe({ "send_udp", "127.0.0.1", "{udpport}" }), Succeeds, {},
        QStringLiteral("no-udp"));
    if (have("curl"))
        row("curl a host server", def, sh("curl -sS --max-time 3 http://127.0.0.1:{port}/"), Fails, "upstream-ok",
            QStringLiteral("no-tcp"));
    row("python to a host server", def,
        QStringList{
            QStringLiteral("python3"), QStringLiteral("-c"),
            QStringLiteral(
                "import urllib.request\nprint(urllib.request.urlopen('http://127.0.0.1:{port}/',timeout=3).read())") },
        Fails, "upstream-ok", QStringLiteral("no-tcp"));

    // --- allowed domains
    if (have("curl")) {
        row("allowed server through the proxy", allow, sh("curl -sS --max-time 10 http://127.0.0.1:{port}/allowed"),
            Succeeds, "upstream-ok\nGET /allowed");
        row("other server through the proxy", allow, sh("curl -sSf --max-time 10 http://127.0.0.1:{port2}/"), Fails,
            "upstream-ok", QStringLiteral("port2-untouched"));
        row("around the proxy with --noproxy", allow,
            sh("curl -sS --max-time 3 --noproxy '*' http://127.0.0.1:{port2}/"), Fails, "upstream-ok",
            QStringLiteral("port2-untouched"));
        if (tier == 1) {
            row("tunnel to the allowed server", allow, sh("curl -sS --max-time 10 -p http://127.0.0.1:{port}/tunnel"),
                Succeeds, "upstream-ok\nGET /tunnel");
            row("refusal says why", allow, sh("curl -sS -i --max-time 10 http://127.0.0.1:{port2}/"), Succeeds,
                "X-Sandbox-Refused", QStringLiteral("port2-untouched"));
        }
    }
    row("direct connection around the proxy", allow, probe({ "connect_tcp", "127.0.0.1", "{port2}" }), ProbeBlocked, {},
        QStringLiteral("port2-untouched"));
    row("direct connection to the allowed server", allow, probe({ "connect_tcp", "127.0.0.1", "{port}" }),
        ProbeBlocked);
    row("udp around the proxy", allow, probe({ "send_udp", "127.0.0.1", "{udpport}" }), Succeeds, {},
        QStringLiteral("no-udp"));

    // --- host processes
    row("kill a host process", def, probe({ "kill", "{victim}" }), ProbeBlocked, {}, QStringLiteral("victim-alive"));
    row("limits, priority and affinity of a host process", def, probe({ "other_process", "{victim}" }), ProbeBlocked,
        {}, QStringLiteral("victim-untouched"));
    row("limits and priority of sandbox-init", def, probe({ "other_process", "parent" }), ProbeBlocked);
    row("limits and priority of the command itself", def, probe({ "own_process" }), Succeeds, "OWN-OK");
    row("nice and ulimit work", def, sh("nice -n 3 true && ulimit -n 256 && ulimit -t 100 && echo limits-ok"), Succeeds,
        "limits-ok");
    row("host SysV IPC and message queues", def, probe({ "host_ipc", "{shmid}", "{ipckey}", "{mq}" }), ProbeBlocked, {},
        QStringLiteral("ipc-intact"));
    row("wedge sandbox-init, then leave a detached child", def, probe({ "wedge_parent", "{sleep}" }), Succeeds, "LEFT",
        QStringLiteral("no-process:{sleep}"));
    row("kill every process", def, sh("kill -9 -1; true"), Succeeds, {}, QStringLiteral("victim-alive"));
    // Through a daemon the next command's sandbox-init may already wait for its
    // configuration: neither that channel nor its stdio can be opened for writing.
    row("write into a waiting sandbox-init", def,
        sh("n=0; for p in /proc/[0-9]*; do [ \"$(cat $p/comm 2>/dev/null)\" = sandbox-init ] || continue; "
           "for fd in 0 3 4; do (exec 9>>$p/fd/$fd) 2>/dev/null && n=$((n+1)); done; done; echo opened-$n"),
        Succeeds, "opened-0");
    // Another process's /proc directory reached without naming it (the working directory, a
    // descriptor held on it): the write gate opens nothing there for the command. In tier 1
    // pid 1 is sandbox-init, whose status channel would take a forged exit status; in tier 2
    // a host process's stdin pipe would take a command.
    const QString other = tier == 1 ? QStringLiteral("1") : QStringLiteral("{capless}");
    row("write through another process's /proc directory as the working directory", def,
        sh(qPrintable(QStringLiteral("n=0; cd /proc/%1 && for fd in 0 1 2 3 4 5; do (exec 9>>fd/$fd) 2>/dev/null "
                                     "&& n=$((n+1)); done; echo opened-$n")
                          .arg(other))),
        Succeeds, "opened-0");
    row("write through a descriptor held on another process's /proc directory", def,
        sh(qPrintable(QStringLiteral("n=0; exec 8</proc/%1 && for fd in 0 1 2 3 4 5; do "
                                     "(exec 9>>/proc/self/fd/8/fd/$fd) 2>/dev/null && n=$((n+1)); done; echo opened-$n")
                          .arg(other))),
        Succeeds, "opened-0");
    // FIFO opens waiting for their other end each hold a thread of sandbox-init's: a flood of
    // them is refused beyond a bound, and the write gate keeps answering.
    row("flood the write gate with FIFO opens that wait", def,
        sh("mkfifo flood.fifo && i=0; while [ $i -lt 100 ]; do (exec 9>flood.fifo) 2>/dev/null & i=$((i+1)); done; "
           ": > after-flood && exec 8<>flood.fifo && wait && rm -f flood.fifo after-flood && echo gate-answers"),
        Succeeds, "gate-answers");
    if (tier == 1) {
        row("see a host process", def, sh("test -e /proc/{victim} && echo visible"), Fails, "visible");
        row("count processes", def, sh("ls /proc | grep -c '^[0-9]' | awk '$1 < 10 {print \"few\"}'"), Succeeds, "few");
    } else {
        // Tier 2 says host processes are visible: the claim must be true, not the opposite.
        row("see a host process (claimed visible)", def, sh("test -e /proc/{victim} && echo visible"), Succeeds,
            "visible");
    }

    // --- devices
    row("read /dev/mem", def, sh("head -c 16 /dev/mem > /dev/null"), Fails);
    row("read /dev/kmem and ports", def, sh("head -c 1 /dev/kmem > /dev/null || head -c 1 /dev/port > /dev/null"),
        Fails);
    row("read the disk", def, sh("head -c 16 /dev/vda || head -c 16 /dev/sda"), Fails);
    row("read the kernel log", def, sh("head -c 100 /dev/kmsg"), Fails);
    if (tier == 1)
        row("block devices absent", def, sh("ls /dev | grep -E '^(vd|sd|nvme|mem$|kmem|port)' && echo present"), Fails,
            "present");

    // --- host execution channels
    if (have("dbus-daemon")) {
        row("session bus socket", def, probe({ "connect_unix", "{bus}" }), ProbeBlocked);
        if (have("dbus-send"))
            row("session bus with dbus-send", def,
                sh("DBUS_SESSION_BUS_ADDRESS=unix:path={bus} dbus-send --session --print-reply "
                   "--dest=org.freedesktop.DBus "
                   "/org/freedesktop/DBus org.freedesktop.DBus.ListNames"),
                Fails, "org.freedesktop.DBus");
    }
    // Whatever the path and whatever the network mode.
    for (const QString &policy : { def, full, allow }) {
        const QByteArray suffix = QByteArray(" (") + policy.toLatin1() + ")";
        row(QByteArray("service socket under /run") + suffix, policy, probe({ "connect_unix", "{runsock}" }),
            ProbeBlocked);
        row(QByteArray("agent socket in the home") + suffix, policy, probe({ "connect_unix", "{homesock}" }),
            ProbeBlocked);
        row(QByteArray("service socket under /var/tmp") + suffix, policy, probe({ "connect_unix", "{varsock}" }),
            ProbeBlocked);
        row(QByteArray("abstract unix socket") + suffix, policy, probe({ "connect_unix", "{abstract}" }), ProbeBlocked);
        if (!m_driver.engineSocket(tier).isEmpty())
            row(QByteArray("the engine's own socket") + suffix, policy, probe({ "connect_unix", "{enginesock}" }),
                ProbeBlocked);
    }
    row("socketpair still works", def,
        QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                     QStringLiteral("import socket\na,b=socket.socketpair()\na.send(b'pair')\nprint(b.recv(4))") },
        Succeeds, "pair");
    if (tier == 2) {
        // The engine's rendezvous points are in its runtime directory, which no writable path
        // reaches: a command can neither move another command's proxy channel onto its own
        // path (and reach what only that command's policy allows) nor listen first where the
        // next client looks for the engine.
        row("rename a proxy channel socket", allow,
            sh("s=\"$SANDBOX_PROXY_SOCKET\"; [ -n \"$s\" ] || exit 3; d=\"${s%/*}\"; r=; "
               "case \"$s\" in /tmp/*) r=\"$r in-tmp\";; esac; "
               "mv \"$s\" \"$d/renamed.sock\" 2>/dev/null && r=\"$r renamed\"; "
               "touch \"$d/planted.sock\" 2>/dev/null && r=\"$r planted\"; "
               "echo \"proxy:${r:-HELD}\""),
            Succeeds, "proxy:HELD");
        row("listen on the engine's default socket path", allow,
            QStringList{ QStringLiteral("python3"), QStringLiteral("-c"),
                         QStringLiteral("import os,socket\np='{defaultsock}'\n"
                                        "try:\n os.makedirs(os.path.dirname(p),exist_ok=True)\nexcept OSError:\n pass\n"
                                        "s=socket.socket(socket.AF_UNIX)\n"
                                        "try:\n s.bind(p)\n s.listen(1)\n print('engine-socket:LISTENING')\n"
                                        "except OSError as e:\n print('engine-socket:HELD',e)") },
            Succeeds, "engine-socket:HELD");
    }
    if (tier == 2)
        row("no seccomp listener inside", allow, sh("ls -l /proc/$$/fd /proc/self/fd | grep seccomp"), Fails,
            "seccomp");
    // With host execution allowed the socket is reachable; the engine itself refuses a
    // client that runs in one of its sandboxes.
    if (!m_driver.engineSocket(tier).isEmpty())
        row("the engine refuses a sandboxed client", QStringLiteral("hostexec"),
            sh("{sandboxctl} --socket {enginesock} backends 2>&1"), Fails, "builtin:auto");
    if (!m_driver.engineSocket(tier).isEmpty())
        row("the engine says why it refuses a sandboxed client", QStringLiteral("hostexec"),
            sh("{sandboxctl} --socket {enginesock} backends 2>&1; true"), Succeeds,
            "commands running in a sandbox cannot use the engine");

    // --- what must keep working
    row("sh runs", def, sh("echo works"), Succeeds, "works");
    row("ls and cat run", def, sh("ls / >/dev/null && cat {home}/notes.txt"), Succeeds, "public notes");
    // Ordinary work in the root of a repository (which contains the read-only .git paths).
    row("create in the workspace", def, sh("echo new > {ws}/new.txt && cat {ws}/new.txt"), Succeeds, "new",
        QStringLiteral("file:{ws}/new.txt"));
    row("create, rename and delete in the repository root", def,
        sh("cd {ws} && echo a > made.txt && mv made.txt renamed.txt && mkdir newdir && mv renamed.txt newdir/ && "
           "rm -r newdir && echo ROOT-OK"),
        Succeeds, "ROOT-OK", QStringLiteral("nofile:{ws}/newdir"));
    if (have("cc"))
        row("build a small C program in the repository root", def,
            sh("cd {ws} && printf 'int main(void){return 0;}\\n' > hello.c && cc -o hello hello.c && ./hello && "
               "rm -f hello hello.c && echo BUILD-OK"),
            Succeeds, "BUILD-OK");
    row("caches in the workspace", def,
        sh("cd {ws} && mkdir -p .cache/pip node_modules/.cache && echo c > .cache/pip/entry && "
           "echo n > node_modules/.cache/entry && XDG_CACHE_HOME={ws}/.cache python3 -c 'print(1)' && "
           "rm -rf .cache node_modules && echo CACHE-OK"),
        Succeeds, "CACHE-OK");
    if (have("git")) {
        const QByteArray commit = tier == 1 ? "sandbox commit t1" : "sandbox commit t2";
        row("git add, commit, branch, stash, rebase and fetch in the repository root", def,
            sh(QByteArray("cd {ws} && echo work >> existing.txt && git add existing.txt && git commit -qm '" + commit
                          + "' && git branch -f side && echo more >> existing.txt && git stash -q && git stash pop -q "
                            "&& git commit -qam 'second' && git checkout -q side && git rebase -q main && "
                            "git checkout -q main && git fetch -q origin && git status --short && echo GIT-WORK-OK")
                   .constData()),
            Succeeds, "GIT-WORK-OK", QStringLiteral("git-log:") + QString::fromLatin1(commit));
    }
    row("modify the workspace", def,
        sh("echo more >> {ws}/existing.txt && echo sub > {ws}/src/made.txt && cat {ws}/src/made.txt"), Succeeds, "sub",
        QStringLiteral("file:{ws}/src/made.txt"));
    row("use /tmp", def, sh("echo t > /tmp/escape-tmp-file && cat /tmp/escape-tmp-file && rm /tmp/escape-tmp-file"),
        Succeeds, "t");
    row("devices that programs need", def, sh("echo x > /dev/null && head -c 4 /dev/urandom | wc -c"), Succeeds, "4");
    if (have("git"))
        row("git works", def,
            sh("cd /tmp && rm -rf escape-repo && git init -q escape-repo && git -C escape-repo status --short && echo "
               "git-ok; status=$?; rm -rf escape-repo; exit $status"),
            Succeeds, "git-ok");
    row("python works", def,
        QStringList{ QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("print(6*7)") }, Succeeds, "42");
    m_casesPerTier[tier] = count;
}

bool TestEscape::hostCheck(const QString &rawCheck, QString &why)
{
    const QString check = expand(rawCheck);
    if (check.isEmpty())
        return true;
    if (check.startsWith(QLatin1String("nofile:"))) {
        why = check.mid(7) + QStringLiteral(" was created on the host");
        return !QFile::exists(check.mid(7));
    }
    if (check.startsWith(QLatin1String("file:"))) {
        why = check.mid(5) + QStringLiteral(" is missing on the host");
        return QFile::exists(check.mid(5));
    }
    if (check.startsWith(QLatin1String("no-repository:")) || check.startsWith(QLatin1String("git-runs-nothing:"))) {
        // Nothing the command made is a repository, and the host's git, run there and in
        // the workspace, runs nothing it wrote.
        const QString directory = check.section(QLatin1Char(':'), 1);
        const bool repository = check.startsWith(QLatin1String("no-repository:"));
        struct stat st = {};
        const bool dotGit
            = repository && ::lstat(QFile::encodeName(directory + QStringLiteral("/.git")).constData(), &st) == 0;
        const bool head = repository && QFileInfo::exists(directory + QStringLiteral("/HEAD"));
        hostGit({ QStringLiteral("status"), QStringLiteral("--short") });
        if (QFileInfo(directory).isDir()) {
            hostGit({ QStringLiteral("status"), QStringLiteral("--short") }, directory);
            hostGit({ QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral(".") }, directory);
        }
        const bool ran = QFile::exists(m_marker);
        QFile::remove(m_marker);
        why = QStringLiteral("in %1: .git made=%2, HEAD made=%3, host git ran planted code=%4")
                  .arg(directory)
                  .arg(dotGit)
                  .arg(head)
                  .arg(ran);
        return !dotGit && !head && !ran;
    }
    if (check == QLatin1String("hook-inert")) {
        const QString hook = m_workspace.filePath(QStringLiteral("vendor/lib/.git/hooks/post-checkout"));
        const QFile::Permissions mode = QFile::permissions(hook);
        const bool inert = !(mode & (QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        QFile file(hook);
        const bool same = file.open(QIODevice::ReadOnly) && file.readAll() == kInertHook;
        why = QStringLiteral("the inert hook changed: executable=%1 content kept=%2").arg(!inert).arg(same);
        // Put back for the rows after this one, whatever happened.
        QFile::setPermissions(hook, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        return inert && same;
    }
    if (check == QLatin1String("git-intact")) {
        QFile config(m_workspace.filePath(QStringLiteral(".git/config")));
        const bool configOk = config.open(QIODevice::ReadOnly) && config.readAll() == m_gitConfig;
        const QStringList hooks = QDir(m_workspace.filePath(QStringLiteral(".git/hooks"))).entryList(QDir::Files);
        QFile sample(m_workspace.filePath(QStringLiteral(".git/hooks/pre-commit.sample")));
        const bool sampleOk = sample.open(QIODevice::ReadOnly) && sample.readAll() == "#!/bin/sh\nexit 0\n";
        why = QStringLiteral("git control files changed: config ok=%1 hooks=%2 sample ok=%3")
                  .arg(configOk)
                  .arg(hooks.join(QLatin1Char(',')))
                  .arg(sampleOk);
        const bool notMoved = !QFile::exists(m_workspace.filePath(QStringLiteral("g2")))
            && !QFile::exists(m_workspace.filePath(QStringLiteral(".git/h2")));
        return configOk && sampleOk && notMoved && hooks == m_hooks;
    }
    if (check == QLatin1String("git-safe")) {
        // Tier 2 cannot stop the writes while the command runs: what it left must be gone,
        // and the host's git must run nothing it planted.
        QFile config(m_workspace.filePath(QStringLiteral(".git/config")));
        const bool configOk = config.open(QIODevice::ReadOnly) && config.readAll() == m_gitConfig;
        const QStringList hooks = QDir(m_workspace.filePath(QStringLiteral(".git/hooks"))).entryList(QDir::Files);
        QStringList planted;
        for (const char *name :
             { "commondir", "config.worktree", "modules/sub/config", "modules/sub/hooks/post-checkout",
               "worktrees/w/commondir", "hooks/pre-commit", "hooks/post-commit", "info/attributes" }) {
            if (QFileInfo::exists(m_workspace.filePath(QStringLiteral(".git/") + QString::fromLatin1(name))))
                planted.append(QString::fromLatin1(name));
        }
        const bool isDirectory = QFileInfo(m_workspace.filePath(QStringLiteral(".git"))).isDir();
        if (isDirectory && QFileInfo::exists(m_workspace.filePath(QStringLiteral(".git/HEAD")))) {
            hostGit({ QStringLiteral("status"), QStringLiteral("--short") });
            hostGit({ QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("--allow-empty"),
                      QStringLiteral("-m"), QStringLiteral("host commit") });
        }
        const bool ran = QFile::exists(m_marker);
        why = QStringLiteral("host git ran planted code=%1, config ok=%2, hooks=%3 (were %4), left in .git: %5, "
                             ".git a directory=%6")
                  .arg(ran)
                  .arg(configOk)
                  .arg(hooks.join(QLatin1Char(',')), m_hooks.join(QLatin1Char(',')), planted.join(QLatin1Char(',')))
                  .arg(isDirectory);
        QFile::remove(m_marker);
        return !ran && configOk && hooks == m_hooks && planted.isEmpty() && isDirectory;
    }
    if (check.startsWith(QLatin1String("git-log:"))) {
        QProcess git;
        git.start(QStringLiteral("git"),
                  { QStringLiteral("-C"), m_workspace.path(), QStringLiteral("log"), QStringLiteral("--all"),
                    QStringLiteral("--format=%s") });
        git.waitForFinished();
        const QByteArray log = git.readAllStandardOutput();
        why = QStringLiteral("the host's git log lacks '%1':\n%2").arg(check.mid(8), QString::fromUtf8(log));
        return log.contains(check.mid(8).toUtf8());
    }
    if (check.startsWith(QLatin1String("content:"))) {
        const QString path = check.section(QLatin1Char(':'), 1, 1);
        QFile file(path);
        why = path + QStringLiteral(" was changed");
        return file.open(QIODevice::ReadOnly) && file.readAll().contains(check.section(QLatin1Char(':'), 2).toUtf8());
    }
    if (check.startsWith(QLatin1String("mode:"))) {
        const QString path = check.section(QLatin1Char(':'), 1, 1);
        struct stat st = {};
        why = path + QStringLiteral(" changed its mode");
        return ::stat(QFile::encodeName(path).constData(), &st) == 0
            && QString::number(st.st_mode & 07777, 8) == check.section(QLatin1Char(':'), 2);
    }
    if (check.startsWith(QLatin1String("mtime-after:"))) {
        const QString path = check.section(QLatin1Char(':'), 1, 1);
        struct stat st = {};
        why = path + QStringLiteral(" got an older modification time");
        return ::stat(QFile::encodeName(path).constData(), &st) == 0
            && st.st_mtime > check.section(QLatin1Char(':'), 2).toLongLong();
    }
    if (check.startsWith(QLatin1String("mode-and-mtime:"))) {
        const QString path = check.mid(15);
        QString other;
        const bool ok = hostCheck(QStringLiteral("mode:") + path + QStringLiteral(":644"), why)
            && hostCheck(QStringLiteral("mtime-after:") + path + QStringLiteral(":1000000000"), other);
        why += other;
        return ok;
    }
    if (check.startsWith(QLatin1String("no-xattr:"))) {
        const QByteArray path = QFile::encodeName(check.mid(9));
        char value[8];
        why = check.mid(9) + QStringLiteral(" got an extended attribute");
        return ::getxattr(path.constData(), "user.escape", value, sizeof value) < 0;
    }
    if (check == QLatin1String("victim-alive")) {
        why = QStringLiteral("the host process was killed");
        return m_victim.state() == QProcess::Running && ::kill(static_cast<pid_t>(m_victim.processId()), 0) == 0;
    }
    if (check == QLatin1String("victim-untouched")) {
        const QList<QByteArray> stat = victimStatus("stat").split(' ');
        const QByteArray limits = victimStatus("limits");
        why = QStringLiteral("the host process was changed: nice %1, affinity %2 (was %3), limits:\n%4")
                  .arg(QString::fromLatin1(stat.value(18)), QString::fromLatin1(victimStatus("Cpus_allowed_list")),
                       QString::fromLatin1(m_victimAffinity), QString::fromLatin1(limits));
        return m_victim.state() == QProcess::Running && stat.value(18) == "0" && stat.value(40) == "0"
            && victimStatus("Cpus_allowed_list") == m_victimAffinity
            && limits.contains(QByteArrayLiteral("Max cpu time              unlimited"))
            && !limits.contains(QByteArrayLiteral("Max open files            3 "));
    }
    if (check == QLatin1String("ipc-intact")) {
        shmid_ds shm = {};
        const bool queueThere
            = QFile::exists(QStringLiteral("/dev/mqueue") + m_mqName) || !QFile::exists(QStringLiteral("/dev/mqueue"));
        why = QStringLiteral("a host IPC object was removed");
        return shmctl(m_shmId, IPC_STAT, &shm) == 0 && msgget(m_ipcKey, 0) == m_msgId && queueThere;
    }
    if (check.startsWith(QLatin1String("no-process:"))) {
        why = QStringLiteral("a process the command started outlived the sandbox");
        return processesWith(check.mid(11).toLatin1()) == 0;
    }
    if (check == QLatin1String("no-tcp")) {
        why = QStringLiteral("the host listener was reached");
        return m_allowed.connections() == m_allowedConnectionsBefore;
    }
    if (check == QLatin1String("port2-untouched")) {
        why = QStringLiteral("the forbidden server was reached");
        return m_forbidden.connections() == 0;
    }
    if (check == QLatin1String("no-udp")) {
        // The command has ended: whatever it sent left before this test's own datagram, so
        // once that one is here, every datagram that reached the listener is here too.
        QUdpSocket sender;
        const QByteArray own = "escape-suite-own-datagram";
        if (!sender.bind(QHostAddress::LocalHost, 0)
            || sender.writeDatagram(own, QHostAddress::LocalHost, m_udp.localPort()) != own.size()) {
            why = QStringLiteral("the test could not send its own datagram: ") + sender.errorString();
            return false;
        }
        bool ownArrived = false;
        bool otherArrived = false;
        QDeadlineTimer deadline(30000);
        while (!ownArrived && (m_udp.hasPendingDatagrams() || m_udp.waitForReadyRead(int(deadline.remainingTime())))) {
            while (m_udp.hasPendingDatagrams()) {
                const QNetworkDatagram datagram = m_udp.receiveDatagram();
                if (datagram.data() == own && datagram.senderPort() == sender.localPort())
                    ownArrived = true;
                else
                    otherArrived = true;
            }
        }
        why = ownArrived ? QStringLiteral("a datagram reached the host")
                         : QStringLiteral("the test's own datagram did not reach the listener");
        return ownArrived && !otherArrived;
    }
    why = QStringLiteral("unknown check ") + check;
    return false;
}

void TestEscape::escape()
{
    QFETCH(int, tier);
    QFETCH(QString, policy);
    QFETCH(QStringList, argv);
    QFETCH(int, expect);
    QFETCH(QByteArray, needle);
    QFETCH(QString, check);
    m_currentTier = tier;
    QStringList expanded;
    for (const QString &arg : argv)
        expanded.append(expand(arg));
    m_allowedConnectionsBefore = m_allowed.connections();
    Policy chosen = m_driver.defaultPolicy();
    if (policy == QLatin1String("later"))
        startStoreWriter();
    if (policy == QLatin1String("allowlist"))
        chosen = m_driver.allowlistPolicy(m_allowed.port());
    else if (policy == QLatin1String("full"))
        chosen.network = Policy::NetworkMode::Full;
    else if (policy == QLatin1String("hostexec"))
        chosen.hostExecution = Policy::HostExecution::Allow;
    // A "later" command waits for the store writer, which serves one run only.
    const EscapeDriver::Outcome outcome
        = m_driver.run(tier, chosen, expanded, m_workspace.path(), policy != QLatin1String("later"));
    if (policy == QLatin1String("later"))
        QVERIFY(finishStoreWriter());
    const QByteArray all = outcome.out + outcome.err;
    const QByteArray report
        = "\n--- stdout:\n" + outcome.out + "\n--- stderr:\n" + outcome.err + "\n--- " + outcome.note.toUtf8();
    QVERIFY2(outcome.ran, report.constData());
    // Through the recorded plan whenever the engine records one: no filtering proxy, host
    // execution denied, and nothing on the way changing while the run is set up ("later"
    // creates a credential store while it runs, so the next build reads something new).
    if (m_driver.recorded() && (policy == QLatin1String("default") || policy == QLatin1String("full")))
        QVERIFY2(outcome.path == QLatin1String("recorded"),
                 qPrintable(QStringLiteral("the run front took the %1 path, not the recorded plan%2")
                                .arg(outcome.path, QString::fromUtf8(report))));
    QVERIFY2(!all.contains(kSecretMarker), report.constData());
    switch (Expect(expect)) {
    case ProbeBlocked:
        QVERIFY2(outcome.exitCode == 0 && !outcome.signaled && outcome.out.contains("BLOCKED")
                     && !outcome.out.contains("ESCAPED"),
                 report.constData());
        break;
    case ProbeKilled:
        QVERIFY2(outcome.signaled && outcome.signal == SIGSYS, report.constData());
        QVERIFY2(!outcome.out.contains("ESCAPED"), report.constData());
        break;
    case NoSecret:
        break; // checked above for every case
    case Fails:
        QVERIFY2(outcome.signaled || outcome.exitCode != 0, report.constData());
        if (!needle.isEmpty())
            QVERIFY2(!all.contains(needle), report.constData());
        break;
    case Succeeds:
        QVERIFY2(!outcome.signaled && outcome.exitCode == 0, report.constData());
        QVERIFY2(outcome.out.contains(needle), report.constData());
        break;
    case Ran:
        break;
    }
    QString why;
    QVERIFY2(hostCheck(check, why), qPrintable(why + QString::fromUtf8(report)));
    resetGit();
}

// On the host: waits until the command opened .store-ready, writes new credential stores
// (in a new file and in new directories), then lets the command go on.
void TestEscape::startStoreWriter()
{
    for (const char *fifo : { ".store-ready", ".store-written" }) {
        const QByteArray path = QFile::encodeName(m_workspace.filePath(QString::fromLatin1(fifo)));
        ::unlink(path.constData());
        QVERIFY(::mkfifo(path.constData(), 0600) == 0);
    }
    for (const char *store : { ".gem/credentials", ".config/glab-cli/config.yml", ".aws/later" })
        QFile::remove(m_home.filePath(QString::fromLatin1(store)));
    QDir(m_home.filePath(QStringLiteral(".config/glab-cli"))).removeRecursively();
    QDir(m_home.filePath(QStringLiteral(".gem"))).removeRecursively();
    const QString script = QStringLiteral(
        "cat \"$1/.store-ready\" > /dev/null; mkdir -p \"$2/.gem\" \"$2/.config/glab-cli\"; "
        "echo \"$3\"GEM > \"$2/.gem/credentials\"; echo \"$3\"GLAB > \"$2/.config/glab-cli/config.yml\"; "
        "echo \"$3\"AWS-LATER > \"$2/.aws/later\"; echo go > \"$1/.store-written\"");
    m_storeWriter.start(QStringLiteral("sh"),
                        { QStringLiteral("-c"), script, QStringLiteral("sh"), m_workspace.path(), m_home.path() });
    QVERIFY(m_storeWriter.waitForStarted());
}

bool TestEscape::finishStoreWriter()
{
    const bool finished = m_storeWriter.waitForFinished(30000);
    if (!finished) {
        m_storeWriter.kill();
        m_storeWriter.waitForFinished();
    }
    const bool ok = finished && m_storeWriter.exitCode() == 0
        && QFile::exists(m_home.filePath(QStringLiteral(".gem/credentials")));
    for (const char *fifo : { ".store-ready", ".store-written" })
        QFile::remove(m_workspace.filePath(QString::fromLatin1(fifo)));
    return ok;
}

// A field of the victim's /proc/PID/status, or a whole /proc/PID file ("stat", "limits").
QByteArray TestEscape::victimStatus(const char *field) const
{
    const QString base = QStringLiteral("/proc/%1/").arg(m_victim.processId());
    const QString name = QString::fromLatin1(field);
    if (name == QLatin1String("stat") || name == QLatin1String("limits")) {
        QFile file(base + name);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    QFile status(base + QStringLiteral("status"));
    if (!status.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(QByteArray(QByteArray(field) + ':')))
            return line.mid(qstrlen(field) + 1).trimmed();
    }
    return {};
}

bool TestEscape::hostGit(const QStringList &arguments, const QString &directory)
{
    QProcess git;
    git.setWorkingDirectory(directory.isEmpty() ? m_workspace.path() : directory);
    git.start(QStringLiteral("git"), arguments);
    return git.waitForFinished(30000) && git.exitStatus() == QProcess::NormalExit && git.exitCode() == 0;
}

void TestEscape::resetGit()
{
    // Keep cases independent even if one fails: put the repository back as it was.
    QDir workspace(m_workspace.path());
    if (workspace.exists(QStringLiteral("g2"))) {
        QDir(workspace.filePath(QStringLiteral(".git"))).removeRecursively();
        workspace.rename(QStringLiteral("g2"), QStringLiteral(".git"));
    }
    if (workspace.exists(QStringLiteral(".git/h2"))) {
        QDir(workspace.filePath(QStringLiteral(".git/hooks"))).removeRecursively();
        workspace.rename(QStringLiteral(".git/h2"), QStringLiteral(".git/hooks"));
    }
    workspace.mkpath(QStringLiteral(".git/hooks"));
    QFile::remove(workspace.filePath(QStringLiteral(".git/hooks/pre-commit")));
    QFile::remove(workspace.filePath(QStringLiteral(".git/hooks/post-commit")));
    QFile::remove(workspace.filePath(QStringLiteral(".git/commondir")));
    QFile::remove(workspace.filePath(QStringLiteral(".git/config.worktree")));
    QDir(workspace.filePath(QStringLiteral(".git/modules"))).removeRecursively();
    QDir(workspace.filePath(QStringLiteral(".git/worktrees"))).removeRecursively();
    QFile config(workspace.filePath(QStringLiteral(".git/config")));
    if (config.open(QIODevice::WriteOnly | QIODevice::Truncate))
        config.write(m_gitConfig);
    for (const char *made : { "nested", "sub2", "sub3", "bare", "moved", ".git/objects/evil", ".git/rebase-merge" })
        QDir(workspace.filePath(QString::fromLatin1(made))).removeRecursively();
    for (const char *made : { "innocent", "cfg", "c" })
        QFile::remove(workspace.filePath(QString::fromLatin1(made)));
    if (QFileInfo::exists(workspace.filePath(QStringLiteral(".git/objects")))) {
        hostGit({ QStringLiteral("reset"), QStringLiteral("-q") });
        hostGit({ QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("-f"), QStringLiteral("main") });
    }
    if (QFileInfo::exists(workspace.filePath(QStringLiteral("vendor/lib/.git")))) {
        QFile nested(workspace.filePath(QStringLiteral("vendor/lib/.git/config")));
        if (nested.open(QIODevice::WriteOnly | QIODevice::Truncate))
            nested.write(m_nestedConfig);
        QDir(workspace.filePath(QStringLiteral("vendor/lib/.git/hooks"))).removeRecursively();
        workspace.mkpath(QStringLiteral("vendor/lib/.git/hooks"));
        // The user's inert hook, as the suite set it up.
        QFile inert(workspace.filePath(QStringLiteral("vendor/lib/.git/hooks/post-checkout")));
        if (inert.open(QIODevice::WriteOnly | QIODevice::Truncate))
            inert.write(kInertHook);
        inert.close();
        inert.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    QFile sample(workspace.filePath(QStringLiteral(".git/hooks/pre-commit.sample")));
    if (sample.open(QIODevice::WriteOnly | QIODevice::Truncate))
        sample.write("#!/bin/sh\nexit 0\n");
}

QTEST_GUILESS_MAIN(TestEscape)
#include "tst_escape.moc"
