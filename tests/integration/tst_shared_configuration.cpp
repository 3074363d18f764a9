// One user, one configuration: sandboxctl (embedded), sandboxd and sandbox-studio read and
// write the same settings, selection, policy and packs state in the user's shared
// location, and the per-program files of an earlier version are taken over once, with
// conflicts reported and every differing copy kept.
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

struct Outcome
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QString binary(const QString &name)
{
    return QCoreApplication::applicationDirPath() + QLatin1Char('/') + name;
}

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
    QProcess process;
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(m_root->filePath(QStringLiteral("work")));
    process.start(binary(QStringLiteral("sandboxctl")), args);
    if (!process.waitForStarted())
        return {};
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return { -2, process.readAllStandardOutput(), process.readAllStandardError() };
    }
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
             process.readAllStandardError() };
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
        const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
        return QJsonDocument::fromJson(status.out)
            .object()
            .value(QStringLiteral("server"))
            .toObject()
            .value(QStringLiteral("pid"))
            .toInteger();
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
    stopOwner();

    const Outcome again = ctl({ QStringLiteral("--embedded"), QStringLiteral("status") });
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(!again.err.contains("Configuration") && !again.out.contains("Configuration"), again.err.constData());
}

QTEST_GUILESS_MAIN(TestSharedConfiguration)
#include "tst_shared_configuration.moc"
