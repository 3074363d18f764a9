// The policy through a real sandboxd: an unreadable or changed policy and store take effect
// on the next command, the engine's files stay read-only, and refusals (proxy, confinement,
// tier 2's supervisors) are followed as events.
#include "DaemonFixture.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using sandbox::test::binary;
using sandbox::test::Outcome;
using sandbox::test::readFile;
using sandbox::test::runProgram;
using sandbox::test::writeFile;

class TestDaemonPolicy final : public QObject, private sandbox::test::DaemonFixture
{
    Q_OBJECT

public:
    TestDaemonPolicy();

private slots:
    void init();
    void cleanup();

    void unreadablePolicyRefusesRunsUntilReplaced();
    void aChangedPolicyOrStoreTakesEffectOnTheNextCommand();
    void theEngineFilesStayReadOnlyWhereAWritablePathReachesThem();
    void gitsUserConfigurationStaysReadOnlyWhereAWritablePathReachesIt();
    void proxyRefusalsAreFollowedAsEvents();
    void confinementRefusalIsAnEvent();
    void tierTwoSupervisorRefusalsAreEvents();
};

TestDaemonPolicy::TestDaemonPolicy()
    : DaemonFixture(QStringLiteral(SANDBOX_TEST_PACK_DIR))
{ }

void TestDaemonPolicy::init()
{
    setUp();
}

void TestDaemonPolicy::cleanup()
{
    tearDown();
}

// A policy.json that cannot be read is never replaced by the defaults behind the user's
// back: runs are refused with what is wrong and how to fix it, status says so, the file is
// kept as it is, and once the user replaces the policy commands run again.
void TestDaemonPolicy::unreadablePolicyRefusesRunsUntilReplaced()
{
    const QString policyPath = m_rig.filePath(QStringLiteral("e/config/policy.json"));
    // The profile's folder holds its socket too: owner-only, as a runtime directory must be.
    QVERIFY(::mkdir(QFile::encodeName(m_rig.filePath(QStringLiteral("e"))).constData(), 0700) == 0);
    QVERIFY(QDir().mkpath(QFileInfo(policyPath).absolutePath()));
    QFile policy(policyPath);
    QVERIFY(policy.open(QIODevice::WriteOnly));
    policy.write("{ \"network\": ");
    policy.close();
    const QString marker = m_rig.filePath(QStringLiteral("work/ran"));
    const QStringList touch{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral(": > ran") };

    const Outcome refused = ctl(touch, {}, QStringLiteral("e"));
    QCOMPARE(refused.exitCode, 125);
    QVERIFY2(refused.err.contains(policyPath.toUtf8()), refused.err.constData());
    QVERIFY2(refused.err.contains("sandboxctl policy set FILE"), refused.err.constData());
    QVERIFY2(refused.err.contains("sandboxctl policy reset"), refused.err.constData());
    QVERIFY(!QFile::exists(marker));

    const Outcome status = ctl({ QStringLiteral("status") }, {}, QStringLiteral("e"));
    QCOMPARE(status.exitCode, 0);
    QVERIFY2(status.out.contains(policyPath.toUtf8()) && status.out.contains("no command runs until it is fixed"),
             status.out.constData());
    QVERIFY(policy.open(QIODevice::ReadOnly));
    QCOMPARE(policy.readAll(), QByteArray("{ \"network\": "));
    policy.close();
    QCOMPARE(QDir(QFileInfo(policyPath).absolutePath()).entryList({ QStringLiteral("policy.json*") }, QDir::Files),
             QStringList{ QStringLiteral("policy.json") });

    const Outcome reset = ctl({ QStringLiteral("policy"), QStringLiteral("reset") }, {}, QStringLiteral("e"));
    QVERIFY2(reset.exitCode == 0, reset.err.constData());
    const Outcome ran = ctl(touch, {}, QStringLiteral("e"));
    QVERIFY2(ran.exitCode == 0, ran.err.constData());
    QVERIFY(QFile::exists(marker));
}

// The engine reuses a command's sandbox plan while nothing it was built from changed: a
// policy set between two commands, and a denied store created between them, hold for
// the very next command.
void TestDaemonPolicy::aChangedPolicyOrStoreTakesEffectOnTheNextCommand()
{
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);
    const QString work = m_rig.filePath(QStringLiteral("work"));
    QFile secret(work + QStringLiteral("/secret.txt"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("s3cret\n");
    secret.close();
    const QStringList readSecret{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"),
                                  QStringLiteral("secret.txt") };
    const QStringList readStore{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"),
                                 QStringLiteral("-c"), QStringLiteral("cat store/key; ls store") };
    // Enough runs for a plan to be built, watched and reused.
    for (int i = 0; i < 4; ++i) {
        const Outcome ran = ctl(readSecret);
        QCOMPARE(ran.exitCode, 0);
        QCOMPARE(ran.out, QByteArray("s3cret\n"));
    }
    QFile policyFile(work + QStringLiteral("/policy.json"));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(
        R"({"filesystem":{"readable":["/"],"writable":["${workspace}","/tmp"],
        "denied":["${workspace}/secret.txt","${workspace}/store"],"readOnly":[]},
        "confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],"deniedDomains":[]},
        "hostExecution":"deny"})");
    policyFile.close();
    QCOMPARE(ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("policy.json") }).exitCode, 0);
    const Outcome denied = ctl(readSecret);
    QVERIFY2(denied.exitCode != 0, denied.out.constData());
    QVERIFY(!denied.out.contains("s3cret"));
    for (int i = 0; i < 4; ++i)
        QVERIFY(!ctl(readStore).out.contains("hidden"));
    QVERIFY(QDir(work).mkpath(QStringLiteral("store")));
    QFile key(work + QStringLiteral("/store/key"));
    QVERIFY(key.open(QIODevice::WriteOnly));
    key.write("hidden\n");
    key.close();
    const Outcome store = ctl(readStore);
    QVERIFY2(!store.out.contains("hidden") && !store.out.contains("key"), store.out.constData());
}

// Ctrl-C or TERM to the sandboxctl that runs a command ends the command in the engine, and
// sandboxctl reports its status, with the run front as with the full program.
void TestDaemonPolicy::theEngineFilesStayReadOnlyWhereAWritablePathReachesThem()
{
    // A policy whose writable path holds the engine's own configuration and state (as a
    // workspace that is the home directory does): a command tries to loosen the policy for
    // the commands after it, plant a pack, and replace what the engine keeps, through the
    // daemon ("d") and with the engine embedded ("e", twice: the second run may be served
    // from a recorded plan).
    startDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(ctl({ QStringLiteral("status") }).out.contains("active backend:  builtin:auto"), 30000);
    const QString work = m_rig.filePath(QStringLiteral("work"));
    QFile policyFile(work + QStringLiteral("/wide.json"));
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write(QStringLiteral(R"({"filesystem":{"readable":["/"],"writable":["%1","/tmp"],"denied":[],
        "readOnly":[]},"confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],
        "deniedDomains":[]},"hostExecution":"deny"})")
                         .arg(m_rig.path())
                         .toUtf8());
    policyFile.close();
    for (const QString &profile : { QStringLiteral("d"), QStringLiteral("e"), QStringLiteral("e") }) {
        const QString config = m_rig.filePath(profile + QStringLiteral("/config"));
        const QString state = m_rig.filePath(profile + QStringLiteral("/state"));
        QVERIFY(QDir().mkpath(config) && QDir().mkpath(state));
        // The embedded engine's runtime directory (its socket's) is owner-only.
        QVERIFY(QFile::setPermissions(m_rig.filePath(profile),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        QCOMPARE(
            ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("wide.json") }, {}, profile).exitCode,
            0);
        QFile stored(config + QStringLiteral("/policy.json"));
        QVERIFY(stored.open(QIODevice::ReadOnly));
        const QByteArray before = stored.readAll();
        QVERIFY(!before.isEmpty());
        stored.close();
        const QString script
            = QStringLiteral("for attempt in 'echo {} > \"$1/policy.json\"' 'mkdir -p \"$1/packs/planted\"' "
                             "'echo x > \"$2/planted\"' 'mv \"$2\" \"$2.moved\"' 'rm -rf \"$1\"'; do "
                             "if sh -c \"$attempt\" sh \"$1\" \"$2\" 2>/dev/null; then echo \"DONE $attempt\"; fi; "
                             "done; echo finished");
        const Outcome ran = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), QStringLiteral("wide.json"),
                                  QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                                  QStringLiteral("sh"), config, state },
                                {}, profile);
        QVERIFY2(ran.exitCode == 0 && ran.out.contains("finished"), QByteArray(ran.out + ran.err).constData());
        QVERIFY2(!ran.out.contains("DONE"), ran.out.constData());
        QFile after(config + QStringLiteral("/policy.json"));
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
        QVERIFY(!QFileInfo::exists(config + QStringLiteral("/packs/planted")));
        QVERIFY(!QFileInfo::exists(state + QStringLiteral("/planted")));
        QVERIFY(QFileInfo(state).isDir() && !QFileInfo::exists(state + QStringLiteral(".moved")));
        // What the policy grants beside them still works (in work/: the root itself gets no new
        // entries directly, as it holds a denied path, the engine's recorded plans).
        const Outcome wrote
            = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), QStringLiteral("wide.json"),
                    QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                    QStringLiteral("echo ok > \"$1/beside\" && cat \"$1/beside\""), QStringLiteral("sh"), work },
                  {}, profile);
        QVERIFY2(wrote.out == "ok\n", QByteArray(wrote.out + wrote.err).constData());
    }
}

void TestDaemonPolicy::gitsUserConfigurationStaysReadOnlyWhereAWritablePathReachesIt()
{
    // A policy that makes the home writable (a command run from $HOME): git's configuration of
    // the user there is read by the host's git in every repository, so a command that wrote
    // core.fsmonitor into it would run its code at the user's next `git status`. The home is
    // set up the way dotfiles often are: ~/.gitconfig a link into a dotfiles folder, including
    // ~/.gitconfig.local; XDG_CONFIG_HOME a folder reached through a link, with no git folder
    // yet; GIT_CONFIG_GLOBAL a link whose file does not exist yet. A second policy names its
    // writable path through a link to the dotfiles folder. In both tiers, through the daemon
    // ("d") and with the engine embedded ("e", twice: the second run may come from a recorded plan).
    const QString home = m_rig.filePath(QStringLiteral("home"));
    const QString dotfiles = home + QStringLiteral("/dotfiles");
    const QByteArray configured = "[user]\n\tname = The User\n[include]\n\tpath = ~/.gitconfig.local\n";
    const QByteArray local = "[user]\n\temail = user@example.org\n";
    QVERIFY(QDir().mkpath(dotfiles + QStringLiteral("/cfg")) && QDir().mkpath(dotfiles + QStringLiteral("/evil/git")));
    QVERIFY(writeFile(dotfiles + QStringLiteral("/gitconfig"), configured));
    QVERIFY(writeFile(home + QStringLiteral("/.gitconfig.local"), local));
    QVERIFY(QFile::link(QStringLiteral("dotfiles/gitconfig"), home + QStringLiteral("/.gitconfig")));
    QVERIFY(QFile::link(QStringLiteral("cfg"), dotfiles + QStringLiteral("/config")));
    QVERIFY(QFile::link(QStringLiteral("missing-global"), dotfiles + QStringLiteral("/global")));
    QVERIFY(QFile::link(QStringLiteral("dotfiles"), home + QStringLiteral("/wl")));
    const auto environmentOf = [&](const QString &profile) {
        QProcessEnvironment env = environment(profile);
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dotfiles + QStringLiteral("/config"));
        env.insert(QStringLiteral("GIT_CONFIG_GLOBAL"), dotfiles + QStringLiteral("/global"));
        return env;
    };
    m_rig.clearLog();
    m_rig.start(environmentOf(QStringLiteral("d")));
    const auto run = [&](const QStringList &args, const QString &profile) {
        return runProgram(binary(QStringLiteral("sandboxctl")),
                          QStringList{ QStringLiteral("--socket"),
                                       profile == QLatin1String("d")
                                           ? m_rig.socket()
                                           : m_rig.filePath(profile + QStringLiteral("/engine.sock")) }
                              + args,
                          home, {}, 60000, environmentOf(profile));
    };
    QTRY_VERIFY_WITH_TIMEOUT(run({ QStringLiteral("status") }, QStringLiteral("d")).out.contains("active backend"),
                             30000);
    const auto writePolicy = [&](const QString &name, const QString &writable) {
        const QString path = m_rig.filePath(QStringLiteral("work/") + name);
        writeFile(path,
                  QStringLiteral(R"({"filesystem":{"readable":["/"],"writable":["%1","/tmp"],"denied":[],
        "readOnly":[]},"confinement":{"processes":"isolated"},"network":{"mode":"none","allowedDomains":[],
        "deniedDomains":[]},"hostExecution":"deny"})")
                      .arg(writable)
                      .toUtf8());
        return path;
    };
    const QString homeWritable = writePolicy(QStringLiteral("home-writable.json"), home);
    const QString linkWritable = writePolicy(QStringLiteral("link-writable.json"), home + QStringLiteral("/wl"));
    const QString plant = QStringLiteral("printf \"[core]\\n\\tfsmonitor = touch planted\\n\"");
    const auto attempts = [&](const QStringList &tries, const QString &ordinary) -> QString {
        QString script = QStringLiteral("for attempt in");
        for (const QString &attempt : tries)
            script += QStringLiteral(" '") + attempt + QLatin1Char('\'');
        return script
            + QStringLiteral("; do if sh -c \"$attempt\" 2>/dev/null; then echo \"DONE $attempt\"; fi; done; ")
            + ordinary + QStringLiteral(" && echo finished");
    };
    const QString fromHome = attempts(
        { plant + QStringLiteral(" >> ~/.gitconfig"), QStringLiteral("rm ~/.gitconfig"),
          QStringLiteral("mv ~/.gitconfig ~/.gitconfig.old"), QStringLiteral("ln -sf /dev/null ~/.gitconfig"),
          plant + QStringLiteral(" > ~/dotfiles/gitconfig"), plant + QStringLiteral(" >> ~/.gitconfig.local"),
          QStringLiteral("mkdir -p ~/.config/git"), QStringLiteral("mkdir ~/dotfiles/config/git"),
          QStringLiteral("mkdir ~/dotfiles/cfg/git"), QStringLiteral("rm ~/dotfiles/config"),
          QStringLiteral("mv ~/dotfiles/config ~/dotfiles/config.old"), QStringLiteral("rmdir ~/dotfiles/cfg"),
          QStringLiteral("ln -sfn evil ~/dotfiles/config"), plant + QStringLiteral(" > ~/dotfiles/global"),
          plant + QStringLiteral(" > ~/dotfiles/missing-global"), QStringLiteral("rm ~/dotfiles/global") },
        QStringLiteral("echo ordinary > ~/notes.txt"));
    const QString throughLink
        = attempts({ plant + QStringLiteral(" >> ~/wl/gitconfig"), plant + QStringLiteral(" > ~/wl/missing-global"),
                     QStringLiteral("mkdir ~/wl/cfg/git") },
                   QStringLiteral("echo ordinary > ~/wl/notes.txt"));
    for (const QString &tier : { QStringLiteral("strongest"), QStringLiteral("landlock-seccomp") }) {
        for (const QString &profile : { QStringLiteral("d"), QStringLiteral("e"), QStringLiteral("e") }) {
            QVERIFY(QDir().mkpath(m_rig.filePath(profile + QStringLiteral("/config")))
                    && QDir().mkpath(m_rig.filePath(profile + QStringLiteral("/state"))));
            QVERIFY(QFile::setPermissions(m_rig.filePath(profile),
                                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
            const Outcome set = run({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                                      QStringLiteral("tier=") + tier },
                                    profile);
            QVERIFY2(set.exitCode == 0, QByteArray(set.out + set.err).constData());
            for (const auto &[policy, script] :
                 { std::pair{ homeWritable, fromHome }, std::pair{ linkWritable, throughLink } }) {
                const Outcome ran = run({ QStringLiteral("run"), QStringLiteral("--policy"), policy,
                                          QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script },
                                        profile);
                const QByteArray context = (tier + QLatin1Char('/') + profile + QLatin1Char(' ') + policy).toUtf8()
                    + ": " + ran.out + ran.err;
                QVERIFY2(ran.exitCode == 0 && ran.out.contains("finished"), context.constData());
                QVERIFY2(!ran.out.contains("DONE"), context.constData());
            }
            QCOMPARE(QFileInfo(home + QStringLiteral("/.gitconfig")).symLinkTarget(),
                     dotfiles + QStringLiteral("/gitconfig"));
            QCOMPARE(readFile(dotfiles + QStringLiteral("/gitconfig")), configured);
            QCOMPARE(readFile(home + QStringLiteral("/.gitconfig.local")), local);
            QCOMPARE(QFileInfo(dotfiles + QStringLiteral("/config")).symLinkTarget(),
                     dotfiles + QStringLiteral("/cfg"));
            QVERIFY(QFileInfo(dotfiles + QStringLiteral("/cfg")).isDir());
            for (const char *absent :
                 { "/.config/git", "/dotfiles/cfg/git", "/dotfiles/missing-global", "/.gitconfig.old" })
                QVERIFY2(!QFileInfo::exists(home + QLatin1String(absent)), absent);
        }
    }
}

namespace {

// The refusals of `kind` among JSON lines (`events --follow --json`) or a JSON array.
QList<QJsonObject> refusalsOf(const QByteArray &output, const QString &kind)
{
    QList<QJsonObject> found;
    QJsonArray all;
    if (const QJsonDocument document = QJsonDocument::fromJson(output); document.isArray()) {
        all = document.array();
    } else {
        for (const QByteArray &line : output.split('\n')) {
            if (!line.trimmed().isEmpty())
                all.append(QJsonDocument::fromJson(line).object());
        }
    }
    for (const QJsonValue &value : std::as_const(all)) {
        if (value.toObject().value(QStringLiteral("kind")).toString() == kind)
            found.append(value.toObject());
    }
    return found;
}

} // namespace

void TestDaemonPolicy::proxyRefusalsAreFollowedAsEvents()
{
    // A local HTTP server the policy names, reached through the engine's filtering proxy;
    // a second loopback address the policy does not name is refused there.
    QTcpServer upstream;
    QVERIFY(upstream.listen(QHostAddress::LocalHost));
    connect(&upstream, &QTcpServer::newConnection, &upstream, [&upstream] {
        while (QTcpSocket *socket = upstream.nextPendingConnection()) {
            auto request = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, socket, [socket, request] {
                *request += socket->readAll();
                if (!request->contains("\r\n\r\n"))
                    return;
                socket->write("HTTP/1.0 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nupstream");
                socket->disconnectFromHost();
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
    const QString port = QString::number(upstream.serverPort());
    startDaemon();
    const QString policy = policyWithNetwork(
        QStringLiteral("allow-local.json"),
        QJsonObject{ { QStringLiteral("mode"), QStringLiteral("allowlist") },
                     { QStringLiteral("allowedDomains"), QJsonArray{ QString(QStringLiteral("127.0.0.1:") + port) } },
                     { QStringLiteral("deniedDomains"), QJsonArray{} } });
    QVERIFY(!policy.isEmpty());

    auto follower = startCtl({ QStringLiteral("events"), QStringLiteral("--follow"), QStringLiteral("--json") });
    QByteArray followed;
    connect(follower.get(), &QProcess::readyReadStandardOutput, follower.get(),
            [&] { followed += follower->readAllStandardOutput(); });
    auto run = startCtl({ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                          QStringLiteral("sh"), QStringLiteral("-c"),
                          QStringLiteral("curl -sS --max-time 20 http://127.0.0.1:%1/ok; echo; "
                                         "curl -sS --max-time 20 http://127.0.0.2:%1/refused")
                              .arg(port) });
    QTRY_VERIFY_WITH_TIMEOUT(run->state() == QProcess::NotRunning, 60000);
    const QByteArray out = run->readAllStandardOutput();
    QVERIFY2(out.contains("upstream"), out.constData());
    QVERIFY2(out.contains("sandbox proxy:"), out.constData());

    // The follower sees the one refusal as it happens, tied to the command and its backend.
    QTRY_VERIFY_WITH_TIMEOUT(!refusalsOf(followed, QStringLiteral("network")).isEmpty(), 30000);
    const QList<QJsonObject> seen = refusalsOf(followed, QStringLiteral("network"));
    QCOMPARE(seen.size(), 1);
    const QJsonObject refusal = seen.constFirst();
    QCOMPARE(refusal.value(QStringLiteral("what")).toString(), QStringLiteral("127.0.0.2:") + port);
    QVERIFY2(refusal.value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("network: 127.0.0.2:")),
             qPrintable(refusal.value(QStringLiteral("rule")).toString()));
    QVERIFY(refusal.value(QStringLiteral("processId")).toInteger() > 0);
    QVERIFY2(refusal.value(QStringLiteral("command")).toString().startsWith(QStringLiteral("sh -c 'curl")),
             qPrintable(refusal.value(QStringLiteral("command")).toString()));
    QCOMPARE(refusal.value(QStringLiteral("ref")).toString(), QStringLiteral("builtin:auto"));
    QVERIFY(!refusal.value(QStringLiteral("backendName")).toString().isEmpty());

    // The recent history has it too, as JSON and as text.
    const Outcome listed = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(listed.exitCode, 0);
    const QList<QJsonObject> recent = refusalsOf(listed.out, QStringLiteral("network"));
    QCOMPARE(recent.size(), 1);
    QCOMPARE(recent.constFirst(), refusal);
    const Outcome text = ctl({ QStringLiteral("events") });
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains(QByteArray(QByteArray("127.0.0.2:") + port.toUtf8())), text.out.constData());
    QVERIFY2(text.out.contains("RULE"), text.out.constData());

    follower->terminate();
    QTRY_VERIFY_WITH_TIMEOUT(follower->state() == QProcess::NotRunning, 30000);
    QCOMPARE(follower->exitCode(), 0);
}

void TestDaemonPolicy::confinementRefusalIsAnEvent()
{
    startDaemon();
    const Outcome none = ctl({ QStringLiteral("events") });
    QCOMPARE(none.exitCode, 0);
    QVERIFY2(none.out.contains("No refusals yet."), none.out.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), QStringLiteral("atom-pack:test-secrets:partial") });
    QVERIFY2(activated.exitCode == 0, activated.err.constData());
    const QString policy = policyWithNetwork(
        QStringLiteral("allowlist.json"),
        QJsonObject{ { QStringLiteral("mode"), QStringLiteral("allowlist") },
                     { QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("example.org") } },
                     { QStringLiteral("deniedDomains"), QJsonArray{} } });
    const Outcome refused = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                                  QStringLiteral("touch"), QStringLiteral("never") });
    QCOMPARE(refused.exitCode, 125);
    QVERIFY2(refused.err.contains("does not enforce the allowed domains"), refused.err.constData());
    QVERIFY(!QFileInfo::exists(m_rig.filePath(QStringLiteral("work/never"))));

    const Outcome listed = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(listed.exitCode, 0);
    const QList<QJsonObject> engine = refusalsOf(listed.out, QStringLiteral("engine"));
    QCOMPARE(engine.size(), 1);
    const QJsonObject refusal = engine.constFirst();
    QVERIFY2(refusal.value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("confinement: ")),
             qPrintable(refusal.value(QStringLiteral("rule")).toString()));
    QVERIFY(refusal.value(QStringLiteral("rule")).toString().contains(QStringLiteral("allowedDomains")));
    QCOMPARE(refusal.value(QStringLiteral("command")).toString(), QStringLiteral("touch never"));
    QCOMPARE(refusal.value(QStringLiteral("backendName")).toString(), QStringLiteral("Partial test backend"));
    QVERIFY(!refusal.contains(QStringLiteral("processId"))); // nothing ever ran
    const Outcome text = ctl({ QStringLiteral("events") });
    QVERIFY2(text.out.contains("Partial test backend") && text.out.contains("touch never"), text.out.constData());

    // Bad usage changes nothing and says what is wrong.
    const Outcome extra = ctl({ QStringLiteral("events"), QStringLiteral("now") });
    QCOMPARE(extra.exitCode, 2);
    QVERIFY2(extra.err.contains("unexpected argument \"now\""), extra.err.constData());
}

void TestDaemonPolicy::tierTwoSupervisorRefusalsAreEvents()
{
    // Tier 2 has no mount namespace: sandbox-init's supervisors refuse unix sockets other
    // than the proxy's (here the engine's own socket) and metadata changes outside the
    // writable paths, and say so.
    startDaemon();
    const Outcome tier = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                               QStringLiteral("tier=landlock-seccomp") });
    QVERIFY2(tier.exitCode == 0, tier.err.constData());
    const QString policy = policyWithNetwork(
        QStringLiteral("allowlist-tier2.json"),
        QJsonObject{ { QStringLiteral("mode"), QStringLiteral("allowlist") },
                     { QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("example.org") } },
                     { QStringLiteral("deniedDomains"), QJsonArray{} } });
    // A file outside the writable paths, "changed" to the mode it already has: refused
    // (and harmless had it not been).
    const QString target = QStringLiteral("/etc/hostname");
    const QFileDevice::Permissions before = QFileInfo(target).permissions();
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                              QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("curl -sS --max-time 10 --unix-socket %1 http://engine/; "
                                             "chmod \"$(stat -c %a %2)\" %2 || echo chmod-refused; echo done")
                                  .arg(m_rig.socket(), target) });
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("chmod-refused") && run.out.contains("done"), run.out.constData());
    QCOMPARE(int(QFileInfo(target).permissions()), int(before));

    const Outcome listed = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(listed.exitCode, 0);
    // Other sockets the tools try on their own (glibc asks nscd, for one) are refused and
    // reported too; the engine's socket is reported once, and so is the chmod.
    const auto naming = [&listed](const QString &kind, const QString &what) {
        QList<QJsonObject> found;
        for (const QJsonObject &refusal : refusalsOf(listed.out, kind)) {
            if (refusal.value(QStringLiteral("what")).toString() == what)
                found.append(refusal);
        }
        return found;
    };
    const QList<QJsonObject> sockets = naming(QStringLiteral("host-socket"), m_rig.socket());
    QVERIFY2(sockets.size() == 1, listed.out.constData());
    QVERIFY(sockets.constFirst().value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("host sockets: ")));
    QVERIFY(sockets.constFirst().value(QStringLiteral("processId")).toInteger() > 0);
    const QList<QJsonObject> paths = naming(QStringLiteral("path"), target);
    QVERIFY2(paths.size() == 1, listed.out.constData());
    QVERIFY(paths.constFirst().value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("filesystem: ")));
    QCOMPARE(paths.constFirst().value(QStringLiteral("processId")),
             sockets.constFirst().value(QStringLiteral("processId")));

    // With host execution allowed the engine's socket is reachable from tier 2; the engine
    // itself refuses the sandboxed client, and that is a refusal too.
    QJsonObject open = QJsonDocument::fromJson(
                           ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                           .object();
    open.insert(QStringLiteral("hostExecution"), QStringLiteral("allow"));
    const QString hostExec = m_rig.filePath(QStringLiteral("work/hostexec.json"));
    QFile hostExecFile(hostExec);
    QVERIFY(hostExecFile.open(QIODevice::WriteOnly));
    hostExecFile.write(QJsonDocument(open).toJson());
    hostExecFile.close();
    const Outcome inside = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), hostExec, QStringLiteral("--"),
                                 binary(QStringLiteral("sandboxctl")), QStringLiteral("--socket"), m_rig.socket(),
                                 QStringLiteral("backends") });
    QVERIFY2(inside.err.contains("commands running in a sandbox cannot use the engine"), inside.err.constData());
    const Outcome after = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    bool peerRefused = false;
    for (const QJsonObject &refusal : refusalsOf(after.out, QStringLiteral("engine"))) {
        peerRefused = peerRefused
            || refusal.value(QStringLiteral("rule"))
                   .toString()
                   .startsWith(QStringLiteral("engine: commands running in a sandbox cannot use the engine"));
    }
    QVERIFY2(peerRefused, after.out.constData());
}

QTEST_GUILESS_MAIN(TestDaemonPolicy)
#include "tst_daemon_policy.moc"
