// One user, one configuration: sandboxctl (embedded), sandboxd and sandbox-studio read and
// write the same settings, selection, policy and packs state in the user's shared
// location, and the per-program files of an earlier version are taken over once, with
// conflicts reported and every differing copy kept.
#include "ProgramRun.h"

#include <QCoreApplication>
#include <QDateTime>
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

namespace {

using sandbox::test::binary;
using sandbox::test::Outcome;

QByteArray policyAllowing(const QString &domain)
{
    return QStringLiteral(R"({"filesystem":{"readable":["/"],"writable":["${workspace}","/tmp"],"denied":["~/.ssh"],
        "readOnly":[]},"confinement":{"processes":"isolated"},
        "network":{"mode":"allowlist","allowedDomains":["%1"],"deniedDomains":[]},"hostExecution":"deny"})")
        .arg(domain)
        .toUtf8();
}

QStringList allowedDomains(const QByteArray &policyJson)
{
    QStringList domains;
    const QJsonArray array = QJsonDocument::fromJson(policyJson)
                                 .object()
                                 .value(QStringLiteral("network"))
                                 .toObject()
                                 .value(QStringLiteral("allowedDomains"))
                                 .toArray();
    for (const QJsonValue &value : array)
        domains.append(value.toString());
    return domains;
}

} // namespace

class TestSharedConfiguration final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void everyProgramServesOneConfiguration();
    void earlierPerProgramFilesAreMigratedAndConflictsReported();
    void plaintextSecretStorageIsAnExplicitSharedChoice();

private:
    QProcessEnvironment environment() const;
    Outcome ctl(const QStringList &args, const QProcessEnvironment &env);
    Outcome ctl(const QStringList &args) { return ctl(args, environment()); }
    void setPolicy(const QString &domain, const QProcessEnvironment &env, const QStringList &global = {});
    QString config(const QString &path = {}) const { return m_root->filePath(QStringLiteral("home/.config/") + path); }
    QString data(const QString &path = {}) const
    {
        return m_root->filePath(QStringLiteral("home/.local/share/") + path);
    }
    // Starts a program that hosts the engine and waits until sandboxctl reaches it.
    void startOwner(const QString &program, const QStringList &args = {});
    void stopOwner();

    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<QProcess> m_owner;
    QByteArray m_ownerLog;
};

QProcessEnvironment TestSharedConfiguration::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SANDBOX_CONFIG_DIR"));
    env.remove(QStringLiteral("SANDBOX_STATE_DIR"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config());
    env.insert(QStringLiteral("XDG_DATA_HOME"), data());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->filePath(QStringLiteral("run")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("SANDBOX_PACK_PATH"), QStringLiteral(SANDBOX_TEST_PACK_DIR));
    return env;
}

void TestSharedConfiguration::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("work")));
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("run")));
    QVERIFY(QFile::setPermissions(m_root->filePath(QStringLiteral("run")),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
}

void TestSharedConfiguration::cleanup()
{
    if (m_owner && m_owner->state() != QProcess::NotRunning) {
        m_owner->kill();
        m_owner->waitForFinished();
    }
    m_owner.reset();
    m_root.reset();
}

Outcome TestSharedConfiguration::ctl(const QStringList &args, const QProcessEnvironment &env)
{
    return sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), args,
                                     m_root->filePath(QStringLiteral("work")), {}, 60000, env);
}

void TestSharedConfiguration::setPolicy(const QString &domain, const QProcessEnvironment &env,
                                        const QStringList &global)
{
    QFile file(m_root->filePath(QStringLiteral("work/policy.json")));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(policyAllowing(domain));
    file.close();
    const Outcome set
        = ctl(global + QStringList{ QStringLiteral("policy"), QStringLiteral("set"), file.fileName() }, env);
    QVERIFY2(set.exitCode == 0, set.err.constData());
}

void TestSharedConfiguration::startOwner(const QString &program, const QStringList &args)
{
    m_ownerLog.clear();
    m_owner = std::make_unique<QProcess>();
    m_owner->setProcessEnvironment(environment());
    connect(m_owner.get(), &QProcess::readyReadStandardError, this,
            [this] { m_ownerLog += m_owner->readAllStandardError(); });
    m_owner->start(binary(program), args);
    QVERIFY(m_owner->waitForStarted());
    const qint64 pid = m_owner->processId();
    auto servedBy = [this]() {
        return sandbox::test::serverPid(ctl({ QStringLiteral("status"), QStringLiteral("--json") }));
    };
    // A sandboxctl that finds no owner hosts the engine itself: wait for the owner's socket first.
    const QString socket = m_root->filePath(QStringLiteral("run/sandbox-studio/engine.sock"));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(socket) || m_owner->state() == QProcess::NotRunning, 60000);
    QVERIFY2(m_owner->state() == QProcess::Running, m_ownerLog.constData());
    QTRY_COMPARE_WITH_TIMEOUT(servedBy(), pid, 60000);
}

void TestSharedConfiguration::stopOwner()
{
    m_owner->terminate();
    QVERIFY(m_owner->waitForFinished(30000));
    QCOMPARE(m_owner->exitStatus(), QProcess::NormalExit);
    m_owner.reset();
}

void TestSharedConfiguration::everyProgramServesOneConfiguration()
{
    // An agent's embedded sandboxctl chooses a policy ...
    setPolicy(QStringLiteral("chosen-by-ctl.example"), environment(), { QStringLiteral("--embedded") });

    // ... which sandboxd serves; a change made through sandboxd ...
    startOwner(QStringLiteral("sandboxd"));
    if (QTest::currentTestFailed())
        return;
    const Outcome fromDaemon = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QCOMPARE(allowedDomains(fromDaemon.out), QStringList{ QStringLiteral("chosen-by-ctl.example") });
    setPolicy(QStringLiteral("chosen-in-daemon.example"), environment());
    stopOwner();

    // ... is what Studio shows and changes ...
    startOwner(QStringLiteral("sandbox-studio"), { QStringLiteral("--hidden") });
    if (QTest::currentTestFailed())
        return;
    const Outcome fromStudio = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QCOMPARE(allowedDomains(fromStudio.out), QStringList{ QStringLiteral("chosen-in-daemon.example") });
    setPolicy(QStringLiteral("tightened-in-studio.example"), environment());
    stopOwner();

    // ... and what the embedded engine enforces once Studio is closed.
    const Outcome embedded = ctl(
        { QStringLiteral("--embedded"), QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QCOMPARE(allowedDomains(embedded.out), QStringList{ QStringLiteral("tightened-in-studio.example") });

    // One place holds it all; no program kept a copy under its own name.
    QVERIFY(QFileInfo::exists(config(QStringLiteral("sandbox-studio/policy.json"))));
    QVERIFY(QFileInfo::exists(config(QStringLiteral("sandbox-studio/settings.json"))));
    for (const QString &program : { QStringLiteral("sandboxd"), QStringLiteral("sandboxctl") }) {
        QVERIFY2(!QFileInfo::exists(config(program)), qPrintable(program));
        QVERIFY2(!QFileInfo::exists(data(program)), qPrintable(program));
    }
    QVERIFY(!QFileInfo::exists(config(QStringLiteral("sandbox-studio/sandbox-studio/policy.json"))));
}

void TestSharedConfiguration::earlierPerProgramFilesAreMigratedAndConflictsReported()
{
    // What an earlier version left: each program's own files, written by the real code.
    auto legacyEnvironment = [this](const QString &configDir, const QString &stateDir) {
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), configDir);
        env.insert(QStringLiteral("SANDBOX_STATE_DIR"), stateDir);
        return env;
    };
    const QString daemonConfig = config(QStringLiteral("sandboxd"));
    const QString studioConfig = config(QStringLiteral("sandbox-studio/sandbox-studio"));
    const QString ctlConfig = config(QStringLiteral("sandboxctl"));
    setPolicy(QStringLiteral("older-daemon.example"), legacyEnvironment(daemonConfig, data(QStringLiteral("sandboxd"))),
              { QStringLiteral("--embedded") });
    setPolicy(QStringLiteral("newer-studio.example"),
              legacyEnvironment(studioConfig, data(QStringLiteral("sandbox-studio/sandbox-studio"))),
              { QStringLiteral("--embedded") });
    const Outcome select
        = ctl({ QStringLiteral("--embedded"), QStringLiteral("activate"), QStringLiteral("builtin:auto") },
              legacyEnvironment(ctlConfig, data(QStringLiteral("sandboxctl"))));
    QCOMPARE(select.exitCode, 0);
    // Only sandboxctl chose the selection; sandboxd's and Studio's policies differ.
    QVERIFY(QFile::remove(QDir(daemonConfig).filePath(QStringLiteral("settings.json"))));
    QVERIFY(QFile::remove(QDir(studioConfig).filePath(QStringLiteral("settings.json"))));
    QFile::remove(QDir(ctlConfig).filePath(QStringLiteral("policy.json")));
    QFile daemonPolicy(QDir(daemonConfig).filePath(QStringLiteral("policy.json")));
    QVERIFY(daemonPolicy.open(QIODevice::ReadWrite));
    QVERIFY(daemonPolicy.setFileTime(QDateTime::currentDateTime().addDays(-2), QFileDevice::FileModificationTime));
    daemonPolicy.close();
    // A backend's state directory of sandboxd's.
    QVERIFY(QDir().mkpath(data(QStringLiteral("sandboxd/backends/builtin_vm"))));
    QFile marker(data(QStringLiteral("sandboxd/backends/builtin_vm/image.state")));
    QVERIFY(marker.open(QIODevice::WriteOnly));
    marker.write("kept");
    marker.close();
    // ... and sandboxctl's own state of the same backend: a conflict.
    QVERIFY(QDir().mkpath(data(QStringLiteral("sandboxctl/backends/builtin_vm"))));
    QFile other(data(QStringLiteral("sandboxctl/backends/builtin_vm/image.state")));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("other");
    other.close();
    QVERIFY(QDir().mkpath(data(QStringLiteral("sandboxctl/packs/some-pack"))));
    QFile packFile(data(QStringLiteral("sandboxctl/packs/some-pack/pack.json")));
    QVERIFY(packFile.open(QIODevice::WriteOnly));
    packFile.write("{}");
    packFile.close();

    // The first program of the new version takes it over and says what it did.
    startOwner(QStringLiteral("sandboxd"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(m_ownerLog.contains("Configuration conflict in policy.json"), m_ownerLog.constData());
    const QByteArray expectedBackup = config(QStringLiteral("sandbox-studio/policy.json.from-sandboxd")).toUtf8();
    QVERIFY2(m_ownerLog.contains(expectedBackup), m_ownerLog.constData());
    QVERIFY2(
        m_ownerLog.contains(QByteArray("Moved " + QDir(ctlConfig).filePath(QStringLiteral("settings.json")).toUtf8())),
        m_ownerLog.constData());
    const Outcome status = ctl({ QStringLiteral("status") });
    QVERIFY2(status.out.contains("Configuration conflict in policy.json"), status.out.constData());
    QVERIFY2(status.out.contains(expectedBackup), status.out.constData());

    // The newest copy is the one in force; the other is kept, and nothing is migrated twice.
    const Outcome policy = ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") });
    QCOMPARE(allowedDomains(policy.out), QStringList{ QStringLiteral("newer-studio.example") });
    QFile backup(QString::fromUtf8(expectedBackup));
    QVERIFY(backup.open(QIODevice::ReadOnly));
    QCOMPARE(allowedDomains(backup.readAll()), QStringList{ QStringLiteral("older-daemon.example") });
    QVERIFY(QFileInfo::exists(QDir(daemonConfig).filePath(QStringLiteral("policy.json.migrated"))));
    QVERIFY(QFileInfo::exists(QDir(studioConfig).filePath(QStringLiteral("policy.json.migrated"))));
    QVERIFY(!QFileInfo::exists(QDir(daemonConfig).filePath(QStringLiteral("policy.json"))));
    QVERIFY(QFileInfo::exists(config(QStringLiteral("sandbox-studio/settings.json"))));
    QFile moved(data(QStringLiteral("sandbox-studio/backends/builtin_vm/image.state")));
    QVERIFY(moved.open(QIODevice::ReadOnly));
    QCOMPARE(moved.readAll(), QByteArray("kept"));
    QFile keptState(data(QStringLiteral("sandbox-studio/backends/builtin_vm.from-sandboxctl/image.state")));
    QVERIFY(keptState.open(QIODevice::ReadOnly));
    QCOMPARE(keptState.readAll(), QByteArray("other"));
    QVERIFY2(m_ownerLog.contains(QByteArray("has builtin_vm and so did sandboxctl")), m_ownerLog.constData());
    QVERIFY(QFileInfo::exists(data(QStringLiteral("sandbox-studio/packs/some-pack/pack.json"))));
    QVERIFY(!QFileInfo::exists(data(QStringLiteral("sandboxctl/packs"))));
    stopOwner();

    const Outcome again = ctl({ QStringLiteral("--embedded"), QStringLiteral("status") });
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(!again.err.contains("Configuration") && !again.out.contains("Configuration"), again.err.constData());
}

void TestSharedConfiguration::plaintextSecretStorageIsAnExplicitSharedChoice()
{
    const QString keyed = QStringLiteral("atom-pack:test-secrets:keyed");
    const QString choice = config(QStringLiteral("sandbox-studio/secret-storage.json"));
    const QString plaintextFile = config(QStringLiteral("sandbox-studio/secrets.json"));
    auto secretSet = [this, &keyed](const QByteArray &value) {
        QProcess process;
        process.setProcessEnvironment(environment());
        process.start(binary(QStringLiteral("sandboxctl")),
                      { QStringLiteral("--embedded"), QStringLiteral("secret"), QStringLiteral("set"), keyed,
                        QStringLiteral("apiKey") });
        process.write(value + '\n');
        process.closeWriteChannel();
        process.waitForFinished(60000);
        return Outcome{ process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError() };
    };

    const Outcome initial = ctl({ QStringLiteral("secret"), QStringLiteral("storage") });
    QCOMPARE(initial.exitCode, 0);
    QCOMPARE(initial.out, QByteArray("keychain\n"));
    const Outcome bad = ctl({ QStringLiteral("secret"), QStringLiteral("storage"), QStringLiteral("paper") });
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(!QFileInfo::exists(choice));

    // Opting in is said loudly, persisted in the shared configuration ...
    const Outcome allow = ctl({ QStringLiteral("secret"), QStringLiteral("storage"), QStringLiteral("plaintext") });
    QCOMPARE(allow.exitCode, 0);
    QVERIFY2(allow.err.contains("warning: Plaintext secret storage is allowed"), allow.err.constData());
    QVERIFY(QFileInfo::exists(choice));
    const Outcome shown = ctl({ QStringLiteral("secret"), QStringLiteral("storage") });
    QCOMPARE(shown.out, QByteArray("plaintext\n"));
    QVERIFY(shown.err.contains("warning: Plaintext secret storage is allowed"));

    // ... and every engine of this user then stores secrets in the plain file, with the
    // standing warning wherever secrets are shown.
    const QByteArray secret = "plain-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
    const Outcome set = secretSet(secret);
    QCOMPARE(set.exitCode, 0);
    QVERIFY2(set.err.contains("warning: secrets are stored without the OS keychain"), set.err.constData());
    QFile file(plaintextFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains(secret));
    file.close();
    const Outcome get = ctl({ QStringLiteral("--embedded"), QStringLiteral("settings"), QStringLiteral("get"), keyed });
    QVERIFY2(get.out.contains("apiKey = (secret, configured)"), get.out.constData());
    QVERIFY2(get.err.contains("warning: secrets are stored without the OS keychain"), get.err.constData());
    startOwner(QStringLiteral("sandboxd"));
    if (QTest::currentTestFailed())
        return;
    const Outcome status = ctl({ QStringLiteral("status") });
    QVERIFY2(status.out.contains("warning:         Secrets are stored in plain text in"), status.out.constData());
    stopOwner();
    // Studio hosts its engine the same way, and shows the standing warning.
    startOwner(QStringLiteral("sandbox-studio"), { QStringLiteral("--hidden") });
    if (QTest::currentTestFailed())
        return;
    const Outcome studioStatus = ctl({ QStringLiteral("status") });
    QVERIFY2(studioStatus.out.contains("warning:         Secrets are stored in plain text in"),
             studioStatus.out.constData());
    const Outcome studioGet = ctl({ QStringLiteral("settings"), QStringLiteral("get"), keyed });
    QVERIFY2(studioGet.out.contains("apiKey = (secret, configured)"), studioGet.out.constData());
    const Outcome running = ctl({ QStringLiteral("secret"), QStringLiteral("storage"), QStringLiteral("keychain") });
    QCOMPARE(running.exitCode, 0);
    QVERIFY2(running.err.contains(QByteArray("the running engine (pid " + QByteArray::number(m_owner->processId()))),
             running.err.constData());
    stopOwner();

    // Turning it off: the keychain again, the plain file is kept (and said so).
    QVERIFY2(running.err.contains(plaintextFile.toUtf8()), running.err.constData());
    const Outcome after = ctl({ QStringLiteral("--embedded"), QStringLiteral("status") });
    QVERIFY2(!after.out.contains("Secrets are stored in plain text"), after.out.constData());
    QVERIFY(QFileInfo::exists(plaintextFile));

    // A damaged choice file means the keychain, is kept as a backup and is reported.
    QFile damaged(choice);
    QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    damaged.write("{\"version\":1,\"plaintextSecretsAllowed\":\"yes\"}");
    damaged.close();
    const Outcome broken = ctl({ QStringLiteral("--embedded"), QStringLiteral("status") });
    QCOMPARE(broken.exitCode, 0);
    QVERIFY2(broken.out.contains("secret-storage.json"), broken.out.constData());
    QVERIFY2(!broken.out.contains("Secrets are stored in plain text"), broken.out.constData());
}

QTEST_GUILESS_MAIN(TestSharedConfiguration)
#include "tst_shared_configuration.moc"
