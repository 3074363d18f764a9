// The escape-suite cases that apply to a container, run through `sandboxctl run` against
// a sandboxd with the Power Pack's Docker backend active on a real Docker-compatible
// runtime (Podman's service, started by test.sh or tests/integration/podman-runtime.sh).
// The probe is the suite's own escape-probe, linked statically so it runs in the image.
#include "ProgramRun.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");
const QByteArray secret = "escape-suite-secret";

enum Expect { Blocked, NoSecret, Refused, Empty };

using sandbox::test::binary;
using sandbox::test::Outcome;

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

} // namespace

class TestDockerEscape final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void escape_data();
    void escape();
    void containerHasItsOwnNetworkNamespace();

private:
    Outcome ctl(const QStringList &args, const QByteArray &input = {});
    QString expand(const QString &text) const;

    QString m_socket;
    QString m_image;
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_workspace;
    QString m_abstractName;
    int m_abstractListener = -1;
    std::unique_ptr<QProcess> m_daemon;
    QByteArray m_daemonLog;
};

void TestDockerEscape::initTestCase()
{
    m_socket = qEnvironmentVariable("SANDBOX_TEST_DOCKER_SOCKET");
    m_image = qEnvironmentVariable("SANDBOX_TEST_DOCKER_IMAGE");
    if (m_socket.isEmpty() || m_image.isEmpty()) {
        if (qEnvironmentVariableIntValue("SANDBOX_REQUIRE_DOCKER"))
            QFAIL("SANDBOX_TEST_DOCKER_SOCKET and SANDBOX_TEST_DOCKER_IMAGE are not set: test.sh starts the runtime");
        QSKIP("No Docker-compatible runtime: run through test.sh, or tests/integration/podman-runtime.sh start DIR");
    }
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    m_workspace = m_root->filePath(QStringLiteral("work"));
    // A fake home with credential files, denied by the policy, inside the workspace (the
    // only host folder the container sees), a repository and the static probe.
    QVERIFY(writeFile(m_workspace + QStringLiteral("/home/.ssh/id_ed25519"), secret));
    QVERIFY(writeFile(m_workspace + QStringLiteral("/home/.aws/credentials"), secret));
    QVERIFY(writeFile(m_workspace + QStringLiteral("/.git/config"), "[core]\n"));
    QVERIFY(QDir().mkpath(m_workspace + QStringLiteral("/.git/hooks")));
    QVERIFY(QDir().mkpath(m_workspace + QStringLiteral("/src")));
    QVERIFY(QFile::link(m_workspace + QStringLiteral("/home/.ssh/id_ed25519"),
                        m_workspace + QStringLiteral("/src/link-to-ssh")));
    QVERIFY(QFile::copy(binary(QStringLiteral("escape-probe-static")), m_workspace + QStringLiteral("/escape-probe")));
    QVERIFY(QFile::setPermissions(m_workspace + QStringLiteral("/escape-probe"),
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

    m_daemon = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    env.remove(QStringLiteral("SANDBOX_PACK_PATH"));
    m_daemon->setProcessEnvironment(env);
    connect(m_daemon.get(), &QProcess::readyReadStandardError, this,
            [this] { m_daemonLog += m_daemon->readAllStandardError(); });
    m_daemon->start(binary(QStringLiteral("sandboxd")),
                    { QStringLiteral("--socket"), m_root->filePath(QStringLiteral("run/engine.sock")) });
    QVERIFY(m_daemon->waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_daemonLog.contains("serving on"), 30000);

    const Outcome installed
        = ctl({ QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) });
    QVERIFY2(installed.exitCode == 0, installed.err.constData());
    const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                              QStringLiteral("endpoint=unix://") + m_socket, QStringLiteral("image=") + m_image });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());

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
    if (m_daemon && m_daemon->state() != QProcess::NotRunning) {
        m_daemon->terminate();
        if (!m_daemon->waitForFinished(30000))
            m_daemon->kill();
        m_daemon->waitForFinished(5000);
    }
    m_daemon.reset();
    if (m_abstractListener >= 0)
        close(m_abstractListener);
    m_root.reset();
}

Outcome TestDockerEscape::ctl(const QStringList &args, const QByteArray &input)
{
    return sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl")),
        QStringList{ QStringLiteral("--socket"), m_root->filePath(QStringLiteral("run/engine.sock")) } + args,
        m_workspace, input, 120000);
}

QString TestDockerEscape::expand(const QString &text) const
{
    QString result = text;
    result.replace(QStringLiteral("{probe}"), m_workspace + QStringLiteral("/escape-probe"));
    result.replace(QStringLiteral("{ws}"), m_workspace);
    result.replace(QStringLiteral("{home}"), m_workspace + QStringLiteral("/home"));
    result.replace(QStringLiteral("{runtime}"), m_socket);
    result.replace(QStringLiteral("{abstract}"), m_abstractName);
    return result;
}

void TestDockerEscape::escape_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<int>("expect");
    QTest::addColumn<QString>("untouched"); // a host path that must not exist afterwards
    auto sh = [](const char *script) {
        return QStringList{ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QString::fromLatin1(script) };
    };
    auto probe = [](std::initializer_list<const char *> args) {
        QStringList argv{ QStringLiteral("{probe}") };
        for (const char *arg : args)
            argv.append(QString::fromLatin1(arg));
        return argv;
    };
    auto row = [](const char *name, const QStringList &argv, Expect expect, const QString &untouched = {}) {
        QTest::newRow(name) << argv << int(expect) << untouched;
    };

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
        QStringLiteral("{ws}/.git/hooks/pre-commit"));
    row("write .git/config", sh("echo '[core]' >> {ws}/.git/config"), Refused);
    row("replace .git/config", sh("rm -f {ws}/.git/config"), Refused);

    // --- kernel attack surface closed by dropping every capability. Tracing another command of
    // the same container, user namespaces and the kernel keyring are left to the runtime's
    // seccomp profile (the confinement claim says so); Podman's default allows them.
    for (const char *name :
         { "mount", "setns", "chroot", "bpf", "kexec", "modules", "open_by_handle_at", "raw_socket" })
        row(name, probe({ name }), Blocked);

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
    QFETCH(QString, untouched);
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
    }
    if (!untouched.isEmpty())
        QVERIFY2(!QFileInfo::exists(expand(untouched)), qPrintable(expand(untouched)));
    QCOMPARE(QFile(m_workspace + QStringLiteral("/.git/config")).size(), qint64(7));
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

QTEST_GUILESS_MAIN(TestDockerEscape)
#include "tst_docker_escape.moc"
