// The Power Pack's E2B backend against the local E2B (tests/e2b/local-e2b-server.mjs, which
// the official SDK checks in e2b_sdk_check), through the real sandboxd and sandboxctl: the
// key set with sandboxctl secret set, activation, commands (output, exit status, stdin,
// concurrency, kill, timeout), a refused key, the key nowhere but the API's header, a
// server that vanishes mid-command, the allowlist refused, and the sandboxes killed when
// the engine moves to another backend; the write-back brings a remote commit home but no
// file that makes this computer's git run code. With the local E2B's test controls: a
// sandbox that expired is replaced once, a kill the sandbox ignores ends within its bound,
// a cut-off download brings nothing back, no sandbox outlives its use, a revoked key makes
// the backend unavailable, and only what a command changed is reported.
#include "DaemonRig.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

#include <memory>

namespace {

const QString e2bRef = QStringLiteral("atom-pack:power-pack:e2b");
const QString autoRef = QStringLiteral("builtin:auto");

using sandbox::test::binary;
using sandbox::test::Outcome;

} // namespace

class TestE2b final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void commandsRunInOneSandbox();
    void killAndTimeoutEndTheCommand();
    void refusedKeyIsAnAvailabilityReason();
    void keyAppearsNowhere();
    void workspaceRoundTrip();
    void workspaceWriteBackKeepsRepositoryControlFiles();
    void workspaceNoneUploadsNothing();
    void vanishingServerEndsTheCommandWithAClearError();
    void allowlistIsRefusedAndFullNetworkGetsItsOwnSandbox();
    void hotSwitchKeepsEachCommandOnItsLauncherAndKillsTheSandboxes();
    void expiredSandboxIsReplacedOnceAndSaysSo();
    void ignoredKillEndsTheCommandWithinItsBound();
    void cutOffDownloadBringsNothingBack();
    void noSandboxOutlivesItsUse();
    void revokedKeyMakesTheBackendUnavailable();
    void writeBackReportsOnlyWhatTheCommandChanged();
    void refreshesOnlyAsNeededAndReportsAFailedOne();
    void followsTheSdkOnEndpointsAndOlderEnvd();

private:
    void startServer();
    void startDaemon();
    void stopDaemon();
    Outcome ctl(const QStringList &args, const QByteArray &input = {}, int timeoutMs = 60000);
    // The engine's id of a running process (sandboxctl ps), 0 when none runs.
    qint64 runningProcessId();
    std::unique_ptr<QProcess> startCtl(const QStringList &args);
    Outcome run(const QString &script, const QByteArray &input = {});
    void installAndConfigure(const QByteArray &key);
    void installAndActivate();
    QString activeKind();
    QJsonArray serverSandboxes();
    QJsonObject serverCall(const QByteArray &method, const QString &path, const QJsonObject &body = {});
    void control(const QJsonObject &controls);
    QJsonObject availabilityOfE2b();
    bool writeFile(const QString &relative, const QByteArray &data);
    QByteArray readFile(const QString &relative);

    QString m_node;
    QByteArray m_key;
    sandbox::test::DaemonRig m_rig;
    QString m_url;
    std::unique_ptr<QProcess> m_server;
    QList<Outcome> m_outcomes;
};

void TestE2b::initTestCase()
{
    m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
    QVERIFY2(!m_node.isEmpty(), "node is needed for the local E2B (installer/install-deps.sh test)");
    QVERIFY2(QFileInfo(QStringLiteral(SANDBOX_POWER_PACK_DIR "/pack.json")).isFile(), SANDBOX_POWER_PACK_DIR);
}

void TestE2b::init()
{
    m_key = "e2b_" + QByteArray::number(QRandomGenerator::global()->generate64(), 36)
        + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    QVERIFY(m_rig.create());
    m_outcomes.clear();
    startServer();
    startDaemon();
}

void TestE2b::cleanup()
{
    const bool crashed = m_rig.daemon() && m_rig.daemon()->state() == QProcess::NotRunning
        && m_rig.daemon()->exitStatus() == QProcess::CrashExit;
    m_rig.stop();
    if (m_server && m_server->state() != QProcess::NotRunning) {
        m_server->terminate();
        if (!m_server->waitForFinished(10000))
            m_server->kill();
        m_server->waitForFinished(5000);
    }
    m_server.reset();
    m_rig.destroy();
    QVERIFY2(!crashed, QByteArray("sandboxd crashed; its log:\n" + m_rig.log()).constData());
}

void TestE2b::startServer()
{
    m_server = std::make_unique<QProcess>();
    QVERIFY(QDir().mkpath(m_rig.filePath(QStringLiteral("e2b"))));
    m_server->start(m_node,
                    { QStringLiteral(SANDBOX_LOCAL_E2B), QStringLiteral("--exit-with-stdin"), QStringLiteral("--key"),
                      QString::fromLatin1(m_key), QStringLiteral("--root"), m_rig.filePath(QStringLiteral("e2b")) });
    QVERIFY(m_server->waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_server->canReadLine(), 20000);
    const QByteArray line = m_server->readLine().trimmed();
    QVERIFY2(line.startsWith("listening on http://127.0.0.1:"), line.constData());
    m_url = QString::fromLatin1(line.mid(int(qstrlen("listening on "))));
}

void TestE2b::startDaemon()
{
    m_rig.start(m_rig.environment(), true);
}

void TestE2b::stopDaemon()
{
    m_rig.stop();
}

Outcome TestE2b::ctl(const QStringList &args, const QByteArray &input, int timeoutMs)
{
    const Outcome outcome = m_rig.ctl(args, input, timeoutMs);
    m_outcomes.append(outcome);
    return outcome;
}

std::unique_ptr<QProcess> TestE2b::startCtl(const QStringList &args)
{
    return m_rig.startCtl(args);
}

Outcome TestE2b::run(const QString &script, const QByteArray &input)
{
    return ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), script },
               input);
}

QString TestE2b::activeKind()
{
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    return QJsonDocument::fromJson(status.out)
        .object()
        .value(QStringLiteral("active"))
        .toString()
        .section(QLatin1Char(':'), -1);
}

QJsonArray TestE2b::serverSandboxes()
{
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(m_url + QStringLiteral("/sandboxes")));
    request.setRawHeader("X-API-Key", m_key);
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QJsonArray sandboxes = QJsonDocument::fromJson(reply->readAll()).array();
    delete reply;
    return sandboxes;
}

QJsonObject TestE2b::serverCall(const QByteArray &method, const QString &path, const QJsonObject &body)
{
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(m_url + path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply
        = network.sendCustomRequest(request, method, method == "GET" ? QByteArray() : QJsonDocument(body).toJson());
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
    delete reply;
    return answer;
}

void TestE2b::control(const QJsonObject &controls)
{
    const QJsonObject now = serverCall("POST", QStringLiteral("/_local/controls"), controls);
    for (auto it = controls.begin(); it != controls.end(); ++it)
        QCOMPARE(now.value(it.key()), it.value());
}

qint64 TestE2b::runningProcessId()
{
    qint64 id = 0;
    for (const QJsonValue &value :
         QJsonDocument::fromJson(ctl({ QStringLiteral("ps"), QStringLiteral("--json") }).out).array()) {
        if (value.toObject().value(QStringLiteral("state")).toString() == QLatin1String("running"))
            id = value.toObject().value(QStringLiteral("id")).toInteger();
    }
    return id;
}

QJsonObject TestE2b::availabilityOfE2b()
{
    const Outcome listed = ctl({ QStringLiteral("backends"), QStringLiteral("--json") });
    for (const QJsonValue &value : QJsonDocument::fromJson(listed.out).array()) {
        const QJsonObject backend = value.toObject();
        if (backend.value(QStringLiteral("ref")).toString() == e2bRef)
            return backend.value(QStringLiteral("availability")).toObject();
    }
    return {};
}

bool TestE2b::writeFile(const QString &relative, const QByteArray &data)
{
    const QString path = QDir(m_rig.workspace()).filePath(relative);
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QByteArray TestE2b::readFile(const QString &relative)
{
    QFile file(QDir(m_rig.workspace()).filePath(relative));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(missing)");
}

void TestE2b::installAndConfigure(const QByteArray &key)
{
    const Outcome installed
        = ctl({ QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) });
    QVERIFY2(installed.exitCode == 0, installed.err.constData());
    QVERIFY(installed.out.contains(e2bRef.toUtf8()));
    const Outcome set
        = ctl({ QStringLiteral("settings"), QStringLiteral("set"), e2bRef, QStringLiteral("apiUrl=") + m_url,
                QStringLiteral("sandboxUrl=") + m_url, QStringLiteral("timeoutSeconds=120") });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome secret
        = ctl({ QStringLiteral("secret"), QStringLiteral("set"), e2bRef, QStringLiteral("apiKey") }, key + '\n');
    QVERIFY2(secret.exitCode == 0, secret.err.constData());
}

void TestE2b::installAndActivate()
{
    installAndConfigure(m_key);
    const Outcome activated = ctl({ QStringLiteral("activate"), e2bRef });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
}

void TestE2b::commandsRunInOneSandbox()
{
    installAndActivate();
    QCOMPARE(activeKind(), QStringLiteral("e2b"));
    // prepare() created the sandbox the activation keeps, without internet access.
    QCOMPARE(serverSandboxes().size(), 1);
    QCOMPARE(serverSandboxes().first().toObject().value(QStringLiteral("allowInternetAccess")).toBool(), false);

    const Outcome mixed = run(QStringLiteral("echo out; echo err >&2; exit 3"));
    QCOMPARE(mixed.exitCode, 3);
    QCOMPARE(mixed.out, QByteArray("out\n"));
    QVERIFY(mixed.err.contains("err\n"));
    // The command starts in the sandbox's copy of the workspace under its home, not in the host's.
    const Outcome where = run(QStringLiteral("pwd; echo $HOME"));
    QVERIFY2(where.exitCode == 0, where.err.constData());
    const QList<QByteArray> lines = where.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines.at(0).startsWith(QByteArray(lines.at(1) + "/workspaces/")), where.out.constData());
    QVERIFY(!where.out.contains(m_rig.workspace().toUtf8()));
    // stdin streams through SendInput, and its close reaches the command.
    QByteArray input;
    for (int i = 0; i < 2000; ++i)
        input += "line " + QByteArray::number(i) + '\n';
    const Outcome counted
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("wc"), QStringLiteral("-l") }, input);
    QCOMPARE(counted.exitCode, 0);
    QCOMPARE(counted.out.trimmed(), QByteArray("2000"));
    const Outcome echoed = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat") }, "through stdin");
    QCOMPARE(echoed.out, QByteArray("through stdin"));
    // A missing program: the command fails, the backend stays.
    const Outcome missing = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/no/such/program") });
    QVERIFY(missing.exitCode != 0);
    QVERIFY2(missing.err.contains("/no/such/program"), missing.err.constData());

    // Concurrent commands share the one sandbox: the first ends only when the second ran.
    auto waiting
        = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                     QStringLiteral("echo waiting; while [ ! -e flag ]; do sleep 0.05; done; echo seen") });
    QTRY_VERIFY_WITH_TIMEOUT(waiting->canReadLine(), 20000);
    QCOMPARE(waiting->readLine(), QByteArray("waiting\n"));
    QCOMPARE(run(QStringLiteral("touch flag")).exitCode, 0);
    QVERIFY(waiting->waitForFinished(20000));
    QCOMPARE(waiting->exitCode(), 0);
    QCOMPARE(waiting->readAll(), QByteArray("seen\n"));
    QCOMPARE(serverSandboxes().size(), 1);

    const Outcome ps = ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    QVERIFY2(ps.exitCode == 0, ps.err.constData());
    const QJsonArray listed = QJsonDocument::fromJson(ps.out).array();
    QVERIFY(!listed.isEmpty());
    for (const QJsonValue &value : listed)
        QCOMPARE(value.toObject().value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1),
                 QStringLiteral("e2b"));
}

void TestE2b::killAndTimeoutEndTheCommand()
{
    installAndActivate();
    const Outcome timedOut
        = ctl({ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("1"), QStringLiteral("--"),
                QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("sleep 30; echo never") });
    QVERIFY2(timedOut.exitCode == 128 + 9, timedOut.err.constData());
    QVERIFY(timedOut.err.contains("timed out"));
    QVERIFY(!timedOut.out.contains("never"));

    auto running = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo started; sleep 30; echo never") });
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 20000);
    const qint64 id = runningProcessId();
    QVERIFY(id > 0);
    QCOMPARE(ctl({ QStringLiteral("kill"), QString::number(id) }).exitCode, 0);
    QVERIFY(running->waitForFinished(20000));
    QCOMPARE(running->exitCode(), 128 + 9);
    QVERIFY(!running->readAll().contains("never"));
    // The sandbox's process list is empty again: the kill reached the command.
    QCOMPARE(run(QStringLiteral("true")).exitCode, 0);
}

void TestE2b::refusedKeyIsAnAvailabilityReason()
{
    installAndConfigure("e2b_not-the-key");
    const Outcome refused = ctl({ QStringLiteral("activate"), e2bRef });
    QVERIFY(refused.exitCode != 0);
    const QByteArray all = refused.out + refused.err;
    QVERIFY2(all.contains("The API key was refused"), all.constData());
    QCOMPARE(activeKind(), QStringLiteral("auto"));
    QVERIFY(serverSandboxes().isEmpty());
    QVERIFY(m_rig.daemon()->state() == QProcess::Running);

    // Plain HTTP to a host that is not loopback is refused before anything is sent.
    const Outcome remote = ctl(
        { QStringLiteral("settings"), QStringLiteral("set"), e2bRef, QStringLiteral("apiUrl=http://api.e2b.example") });
    const Outcome activated = ctl({ QStringLiteral("activate"), e2bRef });
    const QByteArray why = remote.out + remote.err + activated.out + activated.err;
    QVERIFY(remote.exitCode != 0 || activated.exitCode != 0);
    QVERIFY2(why.contains("plain HTTP"), why.constData());
}

void TestE2b::workspaceRoundTrip()
{
    installAndActivate();
    auto write = [this](const QString &relative, const QByteArray &data) {
        const QString path = QDir(m_rig.workspace()).filePath(relative);
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
    };
    auto read = [this](const QString &relative) {
        QFile file(QDir(m_rig.workspace()).filePath(relative));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(missing)");
    };
    QVERIFY(write(QStringLiteral("a.txt"), "from the host\n"));
    QVERIFY(write(QStringLiteral("secret/key"), "do not upload me"));
    QVERIFY(write(QStringLiteral("gone.txt"), "deleted in the sandbox\n"));
    QVERIFY(QDir(m_rig.workspace()).mkpath(QStringLiteral(".git/hooks")));
    const QString outside = m_rig.filePath(QStringLiteral("outside"));
    QVERIFY(QDir().mkpath(outside));
    QVERIFY(QFile::link(outside, QDir(m_rig.workspace()).filePath(QStringLiteral("out"))));

    const Outcome shown = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QJsonObject policy = QJsonDocument::fromJson(shown.out).object();
    QJsonObject filesystem = policy.value(QStringLiteral("filesystem")).toObject();
    QJsonArray denied = filesystem.value(QStringLiteral("denied")).toArray();
    denied.append(QStringLiteral("${workspace}/secret"));
    filesystem.insert(QStringLiteral("denied"), denied);
    policy.insert(QStringLiteral("filesystem"), filesystem);
    QCOMPARE(
        ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson())
            .exitCode,
        0);

    // The workspace is there, without its denied folder; the changes come back.
    const Outcome changed = run(QStringLiteral(
        "cat a.txt; ls secret 2>/dev/null | wc -l; echo changed > a.txt; mkdir -p sub && echo new > sub/new.txt; "
        "rm gone.txt; mkdir -p secret && echo planted > secret/planted; echo hook > .git/hooks/pre-commit; "
        "rm out && mkdir out && echo escaped > out/file"));
    QVERIFY2(changed.exitCode == 0, changed.err.constData());
    QCOMPARE(changed.out, QByteArray("from the host\n0\n"));
    QCOMPARE(read(QStringLiteral("a.txt")), QByteArray("changed\n"));
    QCOMPARE(read(QStringLiteral("sub/new.txt")), QByteArray("new\n"));
    // Deleted files stay; nothing lands in a denied or read-only path or through a link.
    QCOMPARE(read(QStringLiteral("gone.txt")), QByteArray("deleted in the sandbox\n"));
    QVERIFY(!QFileInfo::exists(QDir(m_rig.workspace()).filePath(QStringLiteral("secret/planted"))));
    QVERIFY(!QFileInfo::exists(QDir(m_rig.workspace()).filePath(QStringLiteral(".git/hooks/pre-commit"))));
    QVERIFY(QDir(outside).isEmpty());
    QVERIFY(QFileInfo(QDir(m_rig.workspace()).filePath(QStringLiteral("out"))).isSymLink());
    QVERIFY2(changed.err.contains("not brought back"), changed.err.constData());
    QVERIFY2(changed.err.contains(".git/hooks/pre-commit"), changed.err.constData());

    // A file that changes on the host while the command runs is kept; the sandbox's is beside it.
    auto running = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo sandbox > a.txt; echo ready; sleep 2") });
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 20000);
    QVERIFY(write(QStringLiteral("a.txt"), "edited on the host meanwhile\n"));
    QVERIFY(running->waitForFinished(30000));
    QCOMPARE(running->exitCode(), 0);
    QCOMPARE(read(QStringLiteral("a.txt")), QByteArray("edited on the host meanwhile\n"));
    QCOMPARE(read(QStringLiteral("a.txt.sandbox-conflict")), QByteArray("sandbox\n"));
    QVERIFY(running->readAllStandardError().contains("changed on this computer"));
}

void TestE2b::workspaceWriteBackKeepsRepositoryControlFiles()
{
    installAndActivate();
    auto git = [this](const QStringList &args) {
        QProcess process;
        process.setWorkingDirectory(m_rig.workspace());
        process.start(QStringLiteral("git"),
                      QStringList{ QStringLiteral("-c"), QStringLiteral("user.name=Host"), QStringLiteral("-c"),
                                   QStringLiteral("user.email=host@example.org") }
                          + args);
        process.waitForFinished(30000);
        return process.exitCode() == 0 ? process.readAllStandardOutput() : QByteArray("(git failed)");
    };
    auto exists = [this](const QString &relative) {
        const QFileInfo info(QDir(m_rig.workspace()).filePath(relative));
        return info.exists() || info.isSymLink();
    };
    {
        QFile file(QDir(m_rig.workspace()).filePath(QStringLiteral("a.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("host\n") == 5);
    }
    QVERIFY(git({ QStringLiteral("init"), QStringLiteral("-q") }) != "(git failed)");
    QVERIFY(git({ QStringLiteral("add"), QStringLiteral("a.txt") }) != "(git failed)");
    QVERIFY(git({ QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("host commit") })
            != "(git failed)");

    // A commit made in the sandbox, then every way of making this computer's git run code.
    const Outcome planted = run(QStringLiteral(
        "echo remote > remote.txt && git add remote.txt && "
        "git -c user.name=Remote -c user.email=remote@example.org commit -q -m 'remote commit' && "
        "mkdir -p shared/hooks && echo 'touch /tmp/owned' > shared/hooks/post-checkout && "
        "echo ../shared > .git/commondir && "
        "mkdir -p .git/modules/x && printf '[core]\\n\\tfsmonitor = touch /tmp/owned\\n' > .git/modules/x/config && "
        "mkdir -p sub/.git/objects sub/.git/refs && echo 'ref: refs/heads/main' > sub/.git/HEAD && "
        "printf '[core]\\n\\tfsmonitor = touch /tmp/owned\\n' > sub/.git/config && "
        "mkdir -p gl && echo 'gitdir: ../shared' > gl/.git && "
        "git init -q --bare bare && echo object | git --git-dir=bare hash-object -w --stdin >/dev/null"));
    QVERIFY2(planted.exitCode == 0, planted.err.constData());

    QCOMPARE(git({ QStringLiteral("log"), QStringLiteral("--format=%s") }), QByteArray("remote commit\nhost commit\n"));
    QCOMPARE(git({ QStringLiteral("show"), QStringLiteral("HEAD:remote.txt") }), QByteArray("remote\n"));
    QCOMPARE(git({ QStringLiteral("status"), QStringLiteral("--porcelain"), QStringLiteral("--untracked-files=no") }),
             QByteArray());
    for (const char *path : { ".git/commondir", ".git/modules", "sub/.git", "gl/.git", "bare/HEAD", "bare/config",
                              "bare/objects", "bare/refs" })
        QVERIFY2(!exists(QString::fromLatin1(path)), path);
    for (const char *path : { ".git/commondir", ".git/modules/x/config", "sub/.git/config", "sub/.git/HEAD", "gl/.git",
                              "bare/HEAD", "bare/config" })
        QVERIFY2(planted.err.contains(QByteArray(QByteArray("not brought back: ") + path)), planted.err.constData());

    const Outcome described = ctl({ QStringLiteral("describe"), e2bRef, QStringLiteral("--json") });
    QVERIFY2(described.exitCode == 0, described.err.constData());
    const QString claim = sandbox::test::claimOf(described.out, QStringLiteral("filesystem"));
    QVERIFY2(claim.contains(QLatin1String(
                 "No control file of a repository (what makes git run code) comes back: inside a git directory that "
                 "exists here only what git writes during ordinary work")),
             described.out.constData());
}

void TestE2b::workspaceNoneUploadsNothing()
{
    installAndConfigure(m_key);
    QCOMPARE(
        ctl({ QStringLiteral("settings"), QStringLiteral("set"), e2bRef, QStringLiteral("workspace=none") }).exitCode,
        0);
    QCOMPARE(ctl({ QStringLiteral("activate"), e2bRef }).exitCode, 0);
    QFile file(QDir(m_rig.workspace()).filePath(QStringLiteral("host.txt")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("host");
    file.close();
    const Outcome where = run(QStringLiteral("pwd; echo $HOME; ls host.txt; echo made > made.txt"));
    const QList<QByteArray> lines = where.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines.at(0), lines.at(1));
    QVERIFY(where.exitCode == 0);
    QVERIFY(where.err.contains("host.txt"));
    QVERIFY(!QFileInfo::exists(QDir(m_rig.workspace()).filePath(QStringLiteral("made.txt"))));
}

void TestE2b::keyAppearsNowhere()
{
    installAndActivate();
    QCOMPARE(run(QStringLiteral("echo hello")).out, QByteArray("hello\n"));
    const Outcome env = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("env") });
    QCOMPARE(env.exitCode, 0);
    ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    ctl({ QStringLiteral("settings"), QStringLiteral("get"), e2bRef, QStringLiteral("--json") });
    ctl({ QStringLiteral("describe"), e2bRef });
    ctl({ QStringLiteral("backends"), QStringLiteral("--json") });
    stopDaemon();
    for (const Outcome &outcome : std::as_const(m_outcomes)) {
        QVERIFY2(!outcome.out.contains(m_key), outcome.out.constData());
        QVERIFY2(!outcome.err.contains(m_key), outcome.err.constData());
    }
    QVERIFY(!m_rig.log().isEmpty());
    QVERIFY(!m_rig.log().contains(m_key));
    int files = 0;
    QDirIterator it(m_rig.path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        ++files;
        QVERIFY2(!file.readAll().contains(m_key), qPrintable(file.fileName()));
    }
    QVERIFY(files > 0);
}

void TestE2b::vanishingServerEndsTheCommandWithAClearError()
{
    installAndActivate();
    auto running = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo started; sleep 3; echo never") });
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 20000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    m_server->kill();
    QVERIFY(m_server->waitForFinished(10000));
    QVERIFY(running->waitForFinished(30000));
    QVERIFY(running->exitCode() != 0);
    const QByteArray err = running->readAllStandardError();
    QVERIFY2(err.contains("the E2B command was lost"), err.constData());
    // The engine stays on its backend; the next command fails clearly, nothing hangs.
    QCOMPARE(activeKind(), QStringLiteral("e2b"));
    const Outcome after = run(QStringLiteral("true"));
    QVERIFY(after.exitCode != 0 && after.exitCode != -2);
    QVERIFY2(after.err.contains("did not answer") || after.err.contains("lost") || after.err.contains("refused"),
             after.err.constData());
}

void TestE2b::allowlistIsRefusedAndFullNetworkGetsItsOwnSandbox()
{
    installAndActivate();
    const Outcome shown = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QJsonObject policy = QJsonDocument::fromJson(shown.out).object();
    QJsonObject network = policy.value(QStringLiteral("network")).toObject();
    network.insert(QStringLiteral("mode"), QStringLiteral("allowlist"));
    network.insert(QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("example.com") });
    policy.insert(QStringLiteral("network"), network);
    const Outcome set
        = ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson());
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome refused = run(QStringLiteral("echo ran"));
    QVERIFY(refused.exitCode != 0);
    QVERIFY(!refused.out.contains("ran"));
    QVERIFY2(refused.err.contains("cannot enforce"), refused.err.constData());

    network.insert(QStringLiteral("mode"), QStringLiteral("full"));
    network.insert(QStringLiteral("allowedDomains"), QJsonArray());
    policy.insert(QStringLiteral("network"), network);
    QCOMPARE(
        ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson())
            .exitCode,
        0);
    QCOMPARE(run(QStringLiteral("echo ran")).out, QByteArray("ran\n"));
    const QJsonArray sandboxes = serverSandboxes();
    QCOMPARE(sandboxes.size(), 2);
    int withInternet = 0;
    for (const QJsonValue &sandbox : sandboxes)
        withInternet += sandbox.toObject().value(QStringLiteral("allowInternetAccess")).toBool() ? 1 : 0;
    QCOMPARE(withInternet, 1);
}

void TestE2b::hotSwitchKeepsEachCommandOnItsLauncherAndKillsTheSandboxes()
{
    QCOMPARE(ctl({ QStringLiteral("activate"), autoRef }).exitCode, 0);
    auto underAuto = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                QStringLiteral("-c"), QStringLiteral("pwd; exec sleep 600") });
    QTRY_VERIFY_WITH_TIMEOUT(underAuto->canReadLine(), 20000);
    QCOMPARE(underAuto->readLine().trimmed(), m_rig.workspace().toUtf8());

    installAndActivate();
    auto underE2b = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                               QStringLiteral("-c"), QStringLiteral("pwd; exec sleep 600") });
    QTRY_VERIFY_WITH_TIMEOUT(underE2b->canReadLine(), 20000);
    QVERIFY(underE2b->readLine().trimmed() != m_rig.workspace().toUtf8());

    QCOMPARE(ctl({ QStringLiteral("activate"), autoRef }).exitCode, 0);
    const Outcome ps = ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    QStringList owners;
    for (const QJsonValue &value : QJsonDocument::fromJson(ps.out).array()) {
        const QJsonObject p = value.toObject();
        if (p.value(QStringLiteral("state")).toString() == QLatin1String("running"))
            owners.append(p.value(QStringLiteral("owner")).toString().section(QLatin1Char(':'), -1));
    }
    QCOMPARE(owners, (QStringList{ QStringLiteral("auto"), QStringLiteral("e2b") }));
    QCOMPARE(underE2b->state(), QProcess::Running);
    // The E2B launcher is retired once its last command ends: its sandboxes are killed.
    QVERIFY(!serverSandboxes().isEmpty());
    for (auto *process : { underAuto.get(), underE2b.get() }) {
        process->kill();
        process->waitForFinished(20000);
    }
    QTRY_VERIFY_WITH_TIMEOUT(serverSandboxes().isEmpty(), 30000);
}

void TestE2b::expiredSandboxIsReplacedOnceAndSaysSo()
{
    installAndActivate();
    QVERIFY(writeFile(QStringLiteral("a.txt"), "from the host\n"));
    QCOMPARE(run(QStringLiteral("cat a.txt")).out, QByteArray("from the host\n"));
    const QString first = serverSandboxes().first().toObject().value(QStringLiteral("sandboxID")).toString();
    // E2B ends a sandbox once its timeout passes unused: here after a second.
    control({ { QStringLiteral("timeoutCapSeconds"), 1 } });
    QTRY_VERIFY_WITH_TIMEOUT(serverSandboxes().isEmpty(), 20000);
    control({ { QStringLiteral("timeoutCapSeconds"), QJsonValue::Null } });
    QCOMPARE(serverCall("GET", QStringLiteral("/_local/stats")).value(QStringLiteral("expired")).toInt(), 1);

    // The next command runs in a new sandbox, with the workspace uploaded again, and says so once.
    const Outcome after = run(QStringLiteral("cat a.txt; echo changed > a.txt"));
    QVERIFY2(after.exitCode == 0, after.err.constData());
    QCOMPARE(after.out, QByteArray("from the host\n"));
    QCOMPARE(after.err.count("had ended"), 1);
    QVERIFY2(after.err.contains(first.toUtf8()), after.err.constData());
    QCOMPARE(readFile(QStringLiteral("a.txt")), QByteArray("changed\n"));
    const QJsonArray now = serverSandboxes();
    QCOMPARE(now.size(), 1);
    QVERIFY(now.first().toObject().value(QStringLiteral("sandboxID")).toString() != first);
    const Outcome again = run(QStringLiteral("true"));
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(!again.err.contains("had ended"), again.err.constData());
    // The engine's log has it too.
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.log().contains(QByteArray("The E2B sandbox " + first.toUtf8() + " had ended")),
                             10000);
}

void TestE2b::ignoredKillEndsTheCommandWithinItsBound()
{
    installAndActivate();
    // The sandbox acknowledges signals and ignores them; keepalives keep the stream busy.
    control({ { QStringLiteral("ignoreSignals"), true }, { QStringLiteral("keepaliveMs"), 200 } });
    const Outcome timedOut
        = ctl({ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("1"), QStringLiteral("--"),
                QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("sleep 60; echo never") },
              {}, 30000);
    QVERIFY2(timedOut.exitCode == 128 + 9, timedOut.err.constData());
    QVERIFY2(timedOut.err.contains("did not end the command within 5 s of the kill"), timedOut.err.constData());
    QVERIFY(!timedOut.out.contains("never"));

    auto running = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                              QStringLiteral("-c"), QStringLiteral("echo started; sleep 60; echo never") });
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 20000);
    const qint64 id = runningProcessId();
    QVERIFY(id > 0);
    QCOMPARE(ctl({ QStringLiteral("kill"), QString::number(id) }).exitCode, 0);
    QVERIFY(running->waitForFinished(20000));
    QCOMPARE(running->exitCode(), 128 + 9);
    QVERIFY(running->readAllStandardError().contains("did not end the command within 5 s of the kill"));
    // The engine no longer lists it as running.
    for (const QJsonValue &value :
         QJsonDocument::fromJson(ctl({ QStringLiteral("ps"), QStringLiteral("--json") }).out).array())
        QVERIFY(value.toObject().value(QStringLiteral("state")).toString() != QLatin1String("running"));
}

void TestE2b::cutOffDownloadBringsNothingBack()
{
    installAndActivate();
    QVERIFY(writeFile(QStringLiteral("a.txt"), "from the host\n"));
    for (int i = 0; i < 20; ++i)
        QVERIFY(writeFile(QStringLiteral("more/%1.txt").arg(i), QByteArray(700, 'x')));
    // The archive of the sandbox's copy stops after a few members, without its end.
    control({ { QStringLiteral("truncateDownloadAfterBytes"), 6144 } });
    const Outcome cut = run(QStringLiteral("echo changed > a.txt; echo new > zz-new.txt; echo ran"));
    QCOMPARE(cut.out, QByteArray("ran\n"));
    QVERIFY2(cut.exitCode != 0, cut.err.constData());
    QVERIFY2(cut.err.contains("nothing of the workspace was brought back"), cut.err.constData());
    QVERIFY2(cut.err.contains("exited with status 0"), cut.err.constData());
    QCOMPARE(readFile(QStringLiteral("a.txt")), QByteArray("from the host\n"));
    QCOMPARE(readFile(QStringLiteral("zz-new.txt")), QByteArray("(missing)"));

    control({ { QStringLiteral("truncateDownloadAfterBytes"), QJsonValue::Null } });
    const Outcome whole = run(QStringLiteral("echo changed > a.txt"));
    QVERIFY2(whole.exitCode == 0, whole.err.constData());
    QCOMPARE(readFile(QStringLiteral("a.txt")), QByteArray("changed\n"));
}

void TestE2b::noSandboxOutlivesItsUse()
{
    installAndActivate();
    const auto stat = [this](const char *name) {
        return serverCall("GET", QStringLiteral("/_local/stats")).value(QString::fromLatin1(name)).toInt();
    };
    QCOMPARE(run(QStringLiteral("true")).exitCode, 0);
    // New settings of the active backend: its old sandbox goes.
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), e2bRef, QStringLiteral("timeoutSeconds=100") })
                 .exitCode,
             0);
    QCOMPARE(run(QStringLiteral("true")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(serverSandboxes().size(), 1, 20000);
    QCOMPARE(stat("deleted"), stat("created") - 1);
    // The engine's end deletes the rest.
    stopDaemon();
    QCOMPARE(stat("live"), 0);
    QCOMPARE(stat("deleted"), stat("created"));
    QVERIFY2(stat("created") >= 2, qPrintable(QString::number(stat("created"))));

    // A sandbox that cannot be deleted is named in a warning.
    startDaemon();
    const Outcome activated = ctl({ QStringLiteral("activate"), e2bRef });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
    const QString kept = serverSandboxes().first().toObject().value(QStringLiteral("sandboxID")).toString();
    control({ { QStringLiteral("refuseDelete"), true } });
    QCOMPARE(ctl({ QStringLiteral("activate"), autoRef }).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.log().contains(kept.toUtf8()) && m_rig.log().contains("could not be deleted"),
                             20000);
    control({ { QStringLiteral("refuseDelete"), false } });
}

void TestE2b::revokedKeyMakesTheBackendUnavailable()
{
    installAndActivate();
    QCOMPARE(availabilityOfE2b().value(QStringLiteral("available")).toBool(), true);
    QCOMPARE(run(QStringLiteral("true")).exitCode, 0);
    control({ { QStringLiteral("revokeKey"), true } });
    // The next command's timeout refresh is refused: the backend says so.
    run(QStringLiteral("true"));
    QTRY_VERIFY_WITH_TIMEOUT(!availabilityOfE2b().value(QStringLiteral("available")).toBool(true), 20000);
    QVERIFY2(availabilityOfE2b().value(QStringLiteral("reason")).toString().contains(QLatin1String("refused")),
             qPrintable(availabilityOfE2b().value(QStringLiteral("reason")).toString()));
    const Outcome refused = run(QStringLiteral("echo ran"));
    QVERIFY(refused.exitCode != 0);
    QVERIFY(!refused.out.contains("ran"));
    QVERIFY2(refused.err.contains("The API key was refused"), refused.err.constData());
}

void TestE2b::writeBackReportsOnlyWhatTheCommandChanged()
{
    installAndActivate();
    QVERIFY(writeFile(QStringLiteral("a.txt"), "a\n"));
    QVERIFY(writeFile(QStringLiteral("tool.sh"), "#!/bin/sh\necho tool\n"));
    QVERIFY(writeFile(QStringLiteral("bin/.keep"), ""));
    for (int i = 0; i < 5; ++i)
        QVERIFY(QFile::link(QStringLiteral("../a.txt"),
                            QDir(m_rig.workspace()).filePath(QStringLiteral("bin/l%1").arg(i))));
    // Unchanged links are not news.
    const Outcome quiet = run(QStringLiteral("true"));
    QCOMPARE(quiet.exitCode, 0);
    QVERIFY2(quiet.err.isEmpty(), quiet.err.constData());
    // A link the command made is named (links never come back); an execute bit set comes back.
    const Outcome changed = run(QStringLiteral("chmod +x tool.sh; ln -s a.txt made-link; echo b > b.txt"));
    QVERIFY2(changed.exitCode == 0, changed.err.constData());
    QVERIFY2(changed.err.contains("made-link"), changed.err.constData());
    QVERIFY2(!changed.err.contains("bin/l"), changed.err.constData());
    QVERIFY2(changed.err.count("sandbox: not brought back") == 1, changed.err.constData());
    QVERIFY(QFileInfo(QDir(m_rig.workspace()).filePath(QStringLiteral("tool.sh"))).isExecutable());
    QVERIFY(!QFileInfo(QDir(m_rig.workspace()).filePath(QStringLiteral("made-link"))).exists());
    QCOMPARE(readFile(QStringLiteral("b.txt")), QByteArray("b\n"));
    // A new executable file comes back executable; clearing the bit comes back too.
    QCOMPARE(run(QStringLiteral("printf '#!/bin/sh\\n' > new.sh; chmod +x new.sh; chmod -x tool.sh")).exitCode, 0);
    QVERIFY(QFileInfo(QDir(m_rig.workspace()).filePath(QStringLiteral("new.sh"))).isExecutable());
    QVERIFY(!QFileInfo(QDir(m_rig.workspace()).filePath(QStringLiteral("tool.sh"))).isExecutable());
}

void TestE2b::refreshesOnlyAsNeededAndReportsAFailedOne()
{
    installAndActivate();
    QVERIFY(writeFile(QStringLiteral("a.txt"), "a\n"));
    const auto refreshes = [this] {
        return serverCall("GET", QStringLiteral("/_local/stats")).value(QStringLiteral("refreshes")).toInt();
    };
    QCOMPARE(run(QStringLiteral("true")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(refreshes(), 1, 10000);
    // One refresh per command, when it ends (the upload, command and download are one use).
    for (int i = 0; i < 4; ++i)
        QCOMPARE(run(QStringLiteral("cat a.txt >/dev/null")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(refreshes(), 5, 10000);

    // A refresh E2B refuses is logged, and the next command says so.
    control({ { QStringLiteral("refuseRefresh"), true } });
    QCOMPARE(run(QStringLiteral("true")).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.log().contains("was not extended"), 10000);
    control({ { QStringLiteral("refuseRefresh"), false } });
    const Outcome next = run(QStringLiteral("true"));
    QCOMPARE(next.exitCode, 0);
    QVERIFY2(next.err.contains("E2B did not extend the timeout of the sandbox"), next.err.constData());
    QVERIFY2(next.err.contains("the timeout could not be set"), next.err.constData());
}

void TestE2b::followsTheSdkOnEndpointsAndOlderEnvd()
{
    installAndActivate();
    const auto stat = [this](const char *name) {
        return serverCall("GET", QStringLiteral("/_local/stats")).value(QString::fromLatin1(name)).toInt();
    };
    // The key is checked with the listing the SDK uses.
    QVERIFY(stat("listedV2") >= 1);
    QCOMPARE(stat("listed"), stat("listedV2"));

    // An API without the v2 listing still works; an envd before 0.4.0 gets its user named
    // (Basic auth) and, before 0.5.7, multipart uploads.
    control({ { QStringLiteral("v1Only"), true }, { QStringLiteral("envdVersion"), QStringLiteral("0.3.9") } });
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), e2bRef, QStringLiteral("timeoutSeconds=110") })
                 .exitCode,
             0);
    const Outcome activated = ctl({ QStringLiteral("activate"), e2bRef });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
    QTRY_COMPARE_WITH_TIMEOUT(serverSandboxes().size(), 1, 20000);
    QCOMPARE(serverSandboxes().first().toObject().value(QStringLiteral("envdVersion")).toString(),
             QStringLiteral("0.3.9"));
    QVERIFY(writeFile(QStringLiteral("a.txt"), "host\n"));
    const Outcome old = run(QStringLiteral("cat a.txt; echo sandbox > a.txt"));
    QVERIFY2(old.exitCode == 0, old.err.constData());
    QCOMPARE(old.out, QByteArray("host\n"));
    QCOMPARE(readFile(QStringLiteral("a.txt")), QByteArray("sandbox\n"));
    const Outcome stdinToo = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat") }, "in");
    QCOMPARE(stdinToo.out, QByteArray("in"));
}

QTEST_GUILESS_MAIN(TestE2b)

#include "tst_e2b.moc"
