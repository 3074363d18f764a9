// sandboxctl's run front serving embedded runs from the plan the engine recorded
// (engine/launchers/auto/linux/handoff: PlanRecorder, PlanRecord): taken only while
// everything the plan was built from is unchanged, never writable from inside a sandbox,
// refused when it is not the user's alone or was made for another workspace, kernel or
// tier, and the same run as the full program's; a run given --workspace is the full
// program's.
// Which path served a run is read from SANDBOXCTL_RUN_PATH_REPORT.
#include "ProgramRun.h"
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

using sandbox::Policy;

class TestRecordedPlan : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void aRecordedPlanServesTheSecondRunAlike();
    void ctrlCGoesOnToTheCommandAndASecondKills();
    void theConfinedCommandCannotTouchTheRecords_data();
    void theConfinedCommandCannotTouchTheRecords();
    void aRecordNotTheUsersAloneIsRefused();
    void aWorkspaceHoldingTheEnginesFilesIsRefusedInTier2();
    void anEditedRecordIsRefused();
    void aNewlyDeniedPathIsHonouredAtOnce();
    void aSymlinkSwappedOnTheWayIsSeen();
    void aPolicyFileRenamedOverIsSeen();
    void aRecordFromAnotherWorkspaceIsNotUsed();
    void anotherKernelOrTierIsNotUsed();
    void anotherEnvironmentIsNotUsed();
    void aPackThatAppearsIsTheFullProgramsToLoad();
    void aGivenWorkspaceIsTheFullProgramsToServe();
    void nothingOutlivesAClientKilledWithSigkill_data();
    void nothingOutlivesAClientKilledWithSigkill();

private:
    struct Run
    {
        int status = -1;
        QByteArray out;
        QByteArray err;
        QString path; // which path served it
    };

    Run run(const QStringList &arguments, const QString &cwd, const QProcessEnvironment &extra = {});
    // Whether a run's report says its record was stale only over a directory outside this
    // test's folder (another program's entry coming or going in /var/tmp or /run).
    bool staleElsewhere(const QString &path) const;
    Run sandboxctl(const QString &program, const QStringList &arguments, const QString &cwd,
                   const QProcessEnvironment &extra = {});
    // Runs /bin/true until the next run from `cwd` is served from a recorded plan.
    bool recordFor(const QString &cwd, const QStringList &policyArguments = {});
    QString recordPath(const QString &cwd, const QString &policyArgument = QString()) const;
    QString recordDirectory() const
    {
        return m_root->path() + QStringLiteral("/state/backends/builtin_auto/run-plans");
    }
    QString writePolicy(const Policy &policy, const QString &name);
    bool selectTier(const QString &tier);

    std::unique_ptr<QTemporaryDir> m_private;
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_workspace;
    QString m_report;
};

void TestRecordedPlan::initTestCase()
{
    // Not under /tmp, wherever the checkout is: tier 1 gives the command a private /tmp, so
    // the sandbox would not see the real state directory (and a workspace can hold it, the
    // worst case: everything above it writable), and tier 2's default policy makes /tmp
    // writable as a whole, so it refuses every command while the engine's directories are
    // there. One owner-only folder for the whole run, each test function's in it: every
    // directory above the records is listed in the plan, so an entry appearing there makes a
    // record stale, and this test's own come and go in its folder, not in /var/tmp.
    m_private = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/recorded-plan-XXXXXX"));
    QVERIFY(m_private->isValid());
}

void TestRecordedPlan::init()
{
    m_root = std::make_unique<QTemporaryDir>(m_private->filePath(QStringLiteral("root-XXXXXX")));
    QVERIFY(m_root->isValid());
    for (const char *sub : { "run", "config", "state", "home", "workspace" })
        QVERIFY(QDir().mkpath(m_root->path() + QLatin1Char('/') + QLatin1String(sub)));
    QFile::setPermissions(m_root->path() + QStringLiteral("/run"),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_workspace = m_root->path() + QStringLiteral("/workspace");
    m_report = m_root->path() + QStringLiteral("/home/run-path");
    QFile report(m_report);
    QVERIFY(report.open(QIODevice::WriteOnly)); // made once: only appended to from now on
}

void TestRecordedPlan::cleanup()
{
    m_root.reset();
}

TestRecordedPlan::Run TestRecordedPlan::sandboxctl(const QString &program, const QStringList &arguments,
                                                   const QString &cwd, const QProcessEnvironment &extra)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->path() + QStringLiteral("/run"));
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->path() + QStringLiteral("/config"));
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->path() + QStringLiteral("/state"));
    environment.insert(QStringLiteral("HOME"), m_root->path() + QStringLiteral("/home"));
    environment.insert(QStringLiteral("SANDBOXCTL_RUN_PATH_REPORT"), m_report);
    environment.insert(extra);
    const qint64 reportedBefore = QFileInfo(m_report).size();
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(cwd);
    process.start(QCoreApplication::applicationDirPath() + QLatin1Char('/') + program, arguments);
    process.closeWriteChannel();
    Run result;
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    QFile served(m_report);
    if (served.open(QIODevice::ReadOnly) && served.seek(reportedBefore))
        result.path = QString::fromUtf8(served.readAll()).trimmed();
    return result;
}

TestRecordedPlan::Run TestRecordedPlan::run(const QStringList &arguments, const QString &cwd,
                                            const QProcessEnvironment &extra)
{
    // Another program's directory appearing in /var/tmp (the listed parent of this test's
    // folder) between the run that recorded and this one makes the full program serve it and
    // record again: the command is run again, as recordFor primes again, up to three times.
    Run result = sandboxctl(QStringLiteral("sandboxctl"), arguments, cwd, extra);
    for (int attempt = 1; attempt < 3 && staleElsewhere(result.path); ++attempt)
        result = sandboxctl(QStringLiteral("sandboxctl"), arguments, cwd, extra);
    return result;
}

bool TestRecordedPlan::staleElsewhere(const QString &path) const
{
    for (const QString &prefix : { QStringLiteral("full list "), QStringLiteral("full entry ") }) {
        if (path.startsWith(prefix))
            return !Policy::isInside(path.mid(prefix.size()), m_private->path());
    }
    return false;
}

bool TestRecordedPlan::recordFor(const QString &cwd, const QStringList &policyArguments)
{
    const QStringList arguments = QStringList{ QStringLiteral("run") } + policyArguments
        + QStringList{ QStringLiteral("--"), QStringLiteral("/bin/true") };
    // The first run of an engine probes the kernel (a file this process then wrote is not
    // vouched for); anything else on the machine changing meanwhile costs one more run.
    for (int attempt = 0; attempt < 6; ++attempt) {
        const Run primed = run(arguments, cwd);
        if (primed.status != 0)
            return false;
        if (primed.path == QLatin1String("recorded"))
            return true;
    }
    return false;
}

QString TestRecordedPlan::recordPath(const QString &cwd, const QString &policyArgument) const
{
    const QByteArray key = QByteArray::number(::geteuid()) + '\0' + QFile::encodeName(cwd) + '\0'
        + QFile::encodeName(policyArgument) + '\0';
    return recordDirectory() + QLatin1Char('/')
        + QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex());
}

QString TestRecordedPlan::writePolicy(const Policy &policy, const QString &name)
{
    const QString path = m_root->path() + QStringLiteral("/home/") + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    file.write(QJsonDocument(policy.toJson()).toJson());
    return path;
}

bool TestRecordedPlan::selectTier(const QString &tier)
{
    const Run set = run({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                          QStringLiteral("tier=") + tier },
                        m_workspace);
    const Run activated = run({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }, m_workspace);
    return set.status == 0 && activated.status == 0;
}

void TestRecordedPlan::aRecordedPlanServesTheSecondRunAlike()
{
    const Run first = run({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") }, m_workspace);
    QCOMPARE(first.path, QStringLiteral("full no record"));
    QVERIFY(recordFor(m_workspace));
    // Owner-only, in an owner-only directory.
    struct stat record = {};
    QCOMPARE(::stat(QFile::encodeName(recordPath(m_workspace)).constData(), &record), 0);
    QCOMPARE(record.st_mode & 07777, mode_t(0600));
    QCOMPARE(record.st_uid, ::geteuid());
    struct stat directory = {};
    QCOMPARE(::stat(QFile::encodeName(recordDirectory()).constData(), &directory), 0);
    QCOMPARE(directory.st_mode & 07777, mode_t(0700));

    // The same command, the same answer, whichever path serves it.
    const QStringList command{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("read line; echo \"out $line $(cat /proc/1/comm)\"; echo err >&2; "
                                              "ls ~/.ssh 2>&1 | head -1; exit 7") };
    const Run recorded = run(command, m_workspace);
    QCOMPARE(recorded.path, QStringLiteral("recorded"));
    const Run full = sandboxctl(QStringLiteral("sandboxctl-full"), command, m_workspace);
    QCOMPARE(recorded.status, 7);
    QCOMPARE(recorded.status, full.status);
    QCOMPARE(recorded.out, full.out);
    QCOMPARE(recorded.err, full.err);
    // Killed by a signal, and timed out: the same status and message.
    const QStringList killed{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("kill -KILL $$") };
    QCOMPARE(run(killed, m_workspace).status, 137);
    QCOMPARE(sandboxctl(QStringLiteral("sandboxctl-full"), killed, m_workspace).status, 137);
    const QStringList slow{ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("0.3"),
                            QStringLiteral("--"),  QStringLiteral("sleep"),     QStringLiteral("30") };
    const Run timedOut = run(slow, m_workspace);
    QCOMPARE(timedOut.path, QStringLiteral("recorded"));
    const Run timedOutFull = sandboxctl(QStringLiteral("sandboxctl-full"), slow, m_workspace);
    QCOMPARE(timedOut.status, timedOutFull.status);
    QCOMPARE(timedOut.err, timedOutFull.err);
}

void TestRecordedPlan::ctrlCGoesOnToTheCommandAndASecondKills()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->path() + QStringLiteral("/run"));
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->path() + QStringLiteral("/config"));
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->path() + QStringLiteral("/state"));
    environment.insert(QStringLiteral("HOME"), m_root->path() + QStringLiteral("/home"));
    environment.insert(QStringLiteral("SANDBOXCTL_RUN_PATH_REPORT"), m_report);
    sandbox::test::InterruptedRuns runs;
    QStringList paths;
    // Primed and run again when a directory outside this test's folder changed meanwhile (run()).
    for (int attempt = 0; attempt < 3; ++attempt) {
        QVERIFY(recordFor(m_workspace));
        const qint64 reportedBefore = QFileInfo(m_report).size();
        runs = sandbox::test::interruptRuns(QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"),
                                            { QStringLiteral("run") }, m_workspace, environment);
        QFile served(m_report);
        QVERIFY(served.open(QIODevice::ReadOnly) && served.seek(reportedBefore));
        paths = QString::fromUtf8(served.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (std::none_of(paths.cbegin(), paths.cend(), [this](const QString &path) { return staleElsewhere(path); }))
            break;
    }
    QCOMPARE(paths, QStringList({ QStringLiteral("recorded"), QStringLiteral("recorded") }));
    QVERIFY2(runs.handled.out == "ready\ngot-int\n", QByteArray(runs.handled.out + runs.handled.err).constData());
    QCOMPARE(runs.handled.exitCode, 128 + SIGKILL);
    QVERIFY2(runs.plain.out == "ready\n", QByteArray(runs.plain.out + runs.plain.err).constData());
    QCOMPARE(runs.plain.exitCode, 128 + SIGINT);
}

void TestRecordedPlan::theConfinedCommandCannotTouchTheRecords_data()
{
    QTest::addColumn<QString>("tier");
    // Tier 2 runs nothing from a workspace that holds the state directory
    // (aWorkspaceHoldingTheEnginesFilesIsRefusedInTier2).
    QTest::newRow("namespaces") << QStringLiteral("strongest");
}

void TestRecordedPlan::theConfinedCommandCannotTouchTheRecords()
{
    QFETCH(QString, tier);
    QVERIFY(selectTier(tier));
    // The workspace is the root that holds the state directory: every directory on the
    // way to the records is inside a writable path.
    const QString workspace = m_root->path();
    QVERIFY(recordFor(workspace));
    const QString record = recordPath(workspace);
    QFile original(record);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();
    const QString records = recordDirectory();
    const QString script
        = QStringLiteral(
              "r=%1; n=%2; "
              "echo forged > \"$r/forged\" 2>/dev/null && echo WROTE-NEW; "
              "echo forged > \"$r/$n\" 2>/dev/null && echo WROTE-RECORD; "
              "cat \"$r/$n\" >/dev/null 2>&1 && echo READ-RECORD; "
              "ln \"$r/$n\" ./hardlink 2>/dev/null && echo LINKED; "
              "mv state state.aside 2>/dev/null && echo MOVED-STATE; "
              "mv state/backends state/backends.aside 2>/dev/null && echo MOVED-BACKENDS; "
              "mv state/backends/builtin_auto/run-plans state/x 2>/dev/null && echo MOVED-RECORDS; "
              "rm -rf \"$r\" 2>/dev/null; [ -d \"$r\" ] || echo REMOVED; "
              "mkdir -p fake/backends/builtin_auto/run-plans && chmod 700 fake/backends/builtin_auto/run-plans "
              "&& mv state fake.state 2>/dev/null && mv fake state 2>/dev/null && echo SWAPPED; "
              "echo done")
              .arg(records, QFileInfo(record).fileName());
    const Run attack = run(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script }, workspace);
    QCOMPARE(attack.path, QStringLiteral("recorded"));
    QVERIFY2(attack.out.trimmed() == "done", QByteArray(attack.out + attack.err).constData());
    QFile after(record);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), before);
    QVERIFY(!QFileInfo::exists(records + QStringLiteral("/forged")));
    QVERIFY(QFileInfo(m_root->path() + QStringLiteral("/state/backends/builtin_auto/run-plans")).isDir());
}

void TestRecordedPlan::aWorkspaceHoldingTheEnginesFilesIsRefusedInTier2()
{
    // The engine's files where they are by default, in the home directory, and a command run
    // from there: the home is the workspace, so everything in it is writable. A short path
    // (the daemon's socket is in it), out of every writable path of the default policy.
    QTemporaryDir homeDirectory(m_private->filePath(QStringLiteral("home-XXXXXX")));
    QVERIFY(homeDirectory.isValid());
    const QString home = homeDirectory.path();
    const QString config = home + QStringLiteral("/.config/sandbox-studio");
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("HOME"), home);
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), config);
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), home + QStringLiteral("/.local/share/sandbox-studio"));
    auto select = [&](const QString &tier) {
        return run({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                     QStringLiteral("tier=") + tier },
                   m_workspace, environment)
                   .status
            == 0
            && run({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }, m_workspace, environment).status
            == 0;
    };
    auto snapshot = [&] {
        QStringList files;
        QDirIterator it(config, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            files.append(
                file.fileName() + QLatin1Char('=')
                + QString::fromLatin1((file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray()).toHex()));
        }
        files.sort();
        return files;
    };
    // What the command tries: a policy of its own for the commands after it.
    const QStringList attack{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("echo '{\"filesystem\":{\"writable\":[\"/\"]}}' > "
                                             "%1/policy.json; echo RAN")
                                  .arg(config) };
    auto refused = [&](const Run &result) {
        const QString said = QString::fromUtf8(result.err);
        return result.status != 0 && !result.out.contains("RAN")
            && said.contains(QStringLiteral("writable path ") + home)
            && said.contains(QStringLiteral("engine's directory ") + config)
            && said.contains(QStringLiteral("project folder"));
    };

    QVERIFY(select(QStringLiteral("landlock-seccomp")));
    // What the user reads of tier 2: no private /tmp, and this refusal.
    const Run described = run({ QStringLiteral("describe"), QStringLiteral("builtin:auto") }, m_workspace, environment);
    const QString claims = QString::fromUtf8(described.out).simplified();
    QVERIFY2(described.status == 0 && claims.contains(QStringLiteral("/tmp and /dev/shm are the host's shared ones"))
                 && claims.contains(QStringLiteral("a script in /tmp a host program later runs"))
                 && claims.contains(QStringLiteral("is refused before it runs")),
             described.out.constData());
    const QStringList before = snapshot();
    QVERIFY(!before.isEmpty());
    // Embedded, twice: refused each time, never recorded, so no record serves it either.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const Run embedded = run(attack, home, environment);
        QVERIFY2(refused(embedded), QByteArray(embedded.out + embedded.err).constData());
        QCOMPARE(embedded.path, QStringLiteral("full no record"));
    }
    QVERIFY(!QFileInfo::exists(home + QStringLiteral("/.local/share/sandbox-studio/backends/builtin_auto/run-plans/")
                               + QFileInfo(recordPath(home)).fileName()));
    QCOMPARE(snapshot(), before);

    // Through sandboxd: the same refusal. Without XDG_RUNTIME_DIR, the daemon serves in run/
    // of its state directory (not in the shared /tmp), owner-only, and the run front finds it
    // there.
    QProcess daemon;
    QProcessEnvironment daemonEnvironment = QProcessEnvironment::systemEnvironment();
    daemonEnvironment.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    daemonEnvironment.insert(QStringLiteral("HOME"), home);
    daemonEnvironment.insert(environment);
    QProcessEnvironment clientEnvironment = environment;
    clientEnvironment.insert(QStringLiteral("XDG_RUNTIME_DIR"), QString());
    daemon.setProcessEnvironment(daemonEnvironment);
    daemon.setProcessChannelMode(QProcess::MergedChannels);
    daemon.start(QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxd"), QStringList());
    QVERIFY(daemon.waitForStarted());
    QByteArray log;
    while (!log.contains("serving on") && daemon.state() == QProcess::Running && daemon.waitForReadyRead(30000))
        log += daemon.readAll();
    QVERIFY2(log.contains("serving on"), log.constData());
    const QString runtime = home + QStringLiteral("/.local/share/sandbox-studio/run");
    QVERIFY2(log.contains(QFile::encodeName(runtime + QStringLiteral("/engine.sock"))), log.constData());
    struct stat directory = {};
    QCOMPARE(::lstat(QFile::encodeName(runtime).constData(), &directory), 0);
    QCOMPARE(directory.st_mode & 07777, mode_t(0700));
    QCOMPARE(directory.st_uid, ::geteuid());
    const Run served = run(attack, home, clientEnvironment);
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(30000));
    QVERIFY2(refused(served), QByteArray(served.out + served.err).constData());
    QVERIFY2(served.path.startsWith(QStringLiteral("daemon")), qPrintable(served.path));
    QCOMPARE(snapshot(), before);

    // Tier 1 keeps the engine's files read-only: the command runs, and they stay as they were.
    QVERIFY(select(QStringLiteral("strongest")));
    const QStringList tier1Before = snapshot();
    const Run tier1 = run(attack, home, environment);
    QVERIFY2(tier1.status == 0 && tier1.out.contains("RAN"), QByteArray(tier1.out + tier1.err).constData());
    QCOMPARE(snapshot(), tier1Before);
}

void TestRecordedPlan::aRecordNotTheUsersAloneIsRefused()
{
    QVERIFY(recordFor(m_workspace));
    const QString record = recordPath(m_workspace);
    const QStringList command{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") };
    QVERIFY(::chmod(QFile::encodeName(record).constData(), 0640) == 0);
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
    // The full program wrote it again, owner-only.
    QVERIFY(recordFor(m_workspace));
    QVERIFY(::chmod(QFile::encodeName(record).constData(), 0602) == 0);
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
    QVERIFY(recordFor(m_workspace));
    QVERIFY(::chmod(QFile::encodeName(recordDirectory()).constData(), 0770) == 0);
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
    QVERIFY(recordFor(m_workspace));
    QCOMPARE(int(QFileInfo(recordDirectory()).permissions() & (QFileDevice::WriteGroup | QFileDevice::WriteOther)), 0);
    // A second name for the record (a hard link) is not the record alone.
    QVERIFY(::link(QFile::encodeName(record).constData(),
                   QFile::encodeName(m_root->path() + QStringLiteral("/home/second")).constData())
            == 0);
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
    // A record of another user: only root can make one here.
    if (::geteuid() == 0) {
        QVERIFY(recordFor(m_workspace));
        QVERIFY(::chown(QFile::encodeName(record).constData(), 65534, 65534) == 0);
        QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
    }
}

void TestRecordedPlan::anEditedRecordIsRefused()
{
    QVERIFY(recordFor(m_workspace));
    const QString record = recordPath(m_workspace);
    const QStringList command{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") };
    QFile file(record);
    QVERIFY(file.open(QIODevice::ReadWrite));
    const QByteArray bytes = file.readAll();
    // Cut short, and a trailing byte more: neither is a record.
    QVERIFY(file.resize(bytes.size() - 1));
    file.close();
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
    QVERIFY(recordFor(m_workspace));
    QVERIFY(file.open(QIODevice::Append));
    file.write("x");
    file.close();
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full no record"));
}

void TestRecordedPlan::aNewlyDeniedPathIsHonouredAtOnce()
{
    QFile secret(m_root->path() + QStringLiteral("/home/notes.txt"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("SECRET-NOTES\n");
    secret.close();
    Policy policy = Policy::defaults();
    const QString policyPath = writePolicy(policy, QStringLiteral("policy.json"));
    const QStringList policyArguments{ QStringLiteral("--policy"), policyPath };
    QVERIFY(recordFor(m_workspace, policyArguments));
    const QStringList readIt = QStringList{ QStringLiteral("run") } + policyArguments
        + QStringList{ QStringLiteral("--"), QStringLiteral("cat"), secret.fileName() };
    const Run readable = run(readIt, m_workspace);
    QCOMPARE(readable.path, QStringLiteral("recorded"));
    QVERIFY(readable.out.contains("SECRET-NOTES"));
    // The same file name rewritten with the path denied: the next run is the full program's.
    policy.denied.append(secret.fileName());
    QCOMPARE(writePolicy(policy, QStringLiteral("policy.json")), policyPath);
    const Run denied = run(readIt, m_workspace);
    QCOMPARE(denied.path, QStringLiteral("full content ") + policyPath);
    QVERIFY(!denied.out.contains("SECRET-NOTES"));
    QVERIFY(denied.status != 0);
    // Recorded again under the new policy, and still denied through the recorded plan.
    QVERIFY(recordFor(m_workspace, policyArguments));
    const Run deniedRecorded = run(readIt, m_workspace);
    QCOMPARE(deniedRecorded.path, QStringLiteral("recorded"));
    QVERIFY(!deniedRecorded.out.contains("SECRET-NOTES"));
    QVERIFY(deniedRecorded.status != 0);

    // The stored policy likewise.
    QVERIFY(recordFor(m_workspace));
    QFile stored(m_root->path() + QStringLiteral("/config/policy.json"));
    QVERIFY(stored.open(QIODevice::WriteOnly));
    stored.write(QJsonDocument(policy.toJson()).toJson());
    stored.close();
    const QStringList readStored{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"),
                                  secret.fileName() };
    const Run storedDenied = run(readStored, m_workspace);
    QVERIFY(storedDenied.path.startsWith(QStringLiteral("full content ")));
    QVERIFY(!storedDenied.out.contains("SECRET-NOTES"));
}

void TestRecordedPlan::aSymlinkSwappedOnTheWayIsSeen()
{
    // ~/data is a link; the policy denies ~/data/secret, i.e. what the link leads to.
    const QString home = m_root->path() + QStringLiteral("/home");
    for (const char *dir : { "a", "b" }) {
        QVERIFY(QDir().mkpath(home + QLatin1Char('/') + QLatin1String(dir)));
        QFile file(home + QLatin1Char('/') + QLatin1String(dir) + QStringLiteral("/secret"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("SECRET-" + QByteArray(dir).toUpper() + "\n");
    }
    QVERIFY(QFile::link(home + QStringLiteral("/a"), home + QStringLiteral("/data")));
    Policy policy = Policy::defaults();
    policy.denied.append(QStringLiteral("~/data/secret"));
    const QString policyPath = writePolicy(policy, QStringLiteral("linked.json"));
    const QStringList policyArguments{ QStringLiteral("--policy"), policyPath };
    QVERIFY(recordFor(m_workspace, policyArguments));
    const QStringList readB = QStringList{ QStringLiteral("run") } + policyArguments
        + QStringList{ QStringLiteral("--"), QStringLiteral("cat"), home + QStringLiteral("/b/secret") };
    QVERIFY(run(readB, m_workspace).out.contains("SECRET-B")); // b is not denied yet
    QVERIFY(recordFor(m_workspace, policyArguments));
    // Swapped: ~/data now leads to b, whose secret the policy now denies.
    QVERIFY(QFile::remove(home + QStringLiteral("/data")));
    QVERIFY(QFile::link(home + QStringLiteral("/b"), home + QStringLiteral("/data")));
    const Run swapped = run(readB, m_workspace);
    QVERIFY2(swapped.path.startsWith(QStringLiteral("full ")), qPrintable(swapped.path));
    QVERIFY2(!swapped.out.contains("SECRET-B"), swapped.out.constData());
}

void TestRecordedPlan::aPolicyFileRenamedOverIsSeen()
{
    Policy policy = Policy::defaults();
    const QString policyPath = writePolicy(policy, QStringLiteral("renamed.json"));
    const QStringList policyArguments{ QStringLiteral("--policy"), policyPath };
    QVERIFY(recordFor(m_workspace, policyArguments));
    const QStringList command = QStringList{ QStringLiteral("run") } + policyArguments
        + QStringList{ QStringLiteral("--"), QStringLiteral("/bin/true") };
    // The same bytes under a new inode: the plan is still the one for them.
    const QString sameBytes = writePolicy(policy, QStringLiteral("same.json"));
    QVERIFY(::rename(QFile::encodeName(sameBytes).constData(), QFile::encodeName(policyPath).constData()) == 0);
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("recorded"));
    policy.network = Policy::NetworkMode::Full;
    const QString other = writePolicy(policy, QStringLiteral("other.json"));
    QVERIFY(::rename(QFile::encodeName(other).constData(), QFile::encodeName(policyPath).constData()) == 0);
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full content ") + policyPath);
}

void TestRecordedPlan::aRecordFromAnotherWorkspaceIsNotUsed()
{
    QVERIFY(recordFor(m_workspace));
    const QString elsewhere = m_root->path() + QStringLiteral("/home");
    QVERIFY(QFile::copy(recordPath(m_workspace), recordPath(elsewhere)));
    QVERIFY(QFile::setPermissions(recordPath(elsewhere), QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    const Run run2 = run({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") }, elsewhere);
    QCOMPARE(run2.path, QStringLiteral("full cwd"));
}

// `run --workspace DIR` from a sub-folder: DIR is what ${workspace} names (writable, its
// parent not), the recorded plan of the sub-folder does not serve it, it records none, and
// a cwd outside DIR (a symbolic link leading out included) is refused with 125.
void TestRecordedPlan::aGivenWorkspaceIsTheFullProgramsToServe()
{
    const QString sub = m_workspace + QStringLiteral("/src");
    QVERIFY(QDir().mkpath(sub));
    QVERIFY(recordFor(sub));
    const QString atRoot = m_workspace + QStringLiteral("/from-src.txt");
    const QString inParent = m_root->path() + QStringLiteral("/from-src.txt");
    const QString script = QStringLiteral("echo root > \"$1\" && echo wrote-root; "
                                          "(echo parent > \"$2\") 2>/dev/null || echo parent-refused; pwd");
    // Without --workspace the sub-folder is the workspace, and its record serves.
    const Run plain = run({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                            script, QStringLiteral("sh"), atRoot, inParent },
                          sub);
    QCOMPARE(plain.path, QStringLiteral("recorded"));
    QCOMPARE(plain.out, QByteArray("parent-refused\n") + QFile::encodeName(sub) + '\n');

    QVERIFY(!QFile::exists(atRoot));
    for (const QStringList &option : { QStringList{ QStringLiteral("--workspace"), m_workspace },
                                       QStringList{ QStringLiteral("--workspace=") + m_workspace } }) {
        QFile::remove(atRoot);
        const Run given = run(QStringList{ QStringLiteral("run") } + option
                                  + QStringList{ QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                 script, QStringLiteral("sh"), atRoot, inParent },
                              sub);
        QCOMPARE(given.path, QStringLiteral("full"));
        QCOMPARE(given.status, 0);
        QCOMPARE(given.out, QByteArray("wrote-root\nparent-refused\n") + QFile::encodeName(sub) + '\n');
        QVERIFY(QFile::exists(atRoot));
        QVERIFY(!QFile::exists(inParent));
    }
    // Runs given a workspace leave no record behind for their cwd.
    const QString other = m_workspace + QStringLiteral("/other");
    QVERIFY(QDir().mkpath(other));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(run({ QStringLiteral("run"), QStringLiteral("--workspace"), m_workspace, QStringLiteral("--"),
                       QStringLiteral("/bin/true") },
                     other)
                     .status,
                 0);
    QVERIFY(!QFile::exists(recordPath(other)));

    // A cwd outside the workspace: nothing runs, 125, and the message says why.
    QVERIFY(QFile::link(m_root->path() + QStringLiteral("/home"), m_workspace + QStringLiteral("/home-link")));
    const QString marker = m_workspace + QStringLiteral("/ran-outside");
    for (const QString &cwd : { m_root->path(), QString(m_workspace + QStringLiteral("/home-link")) }) {
        const Run refused = run({ QStringLiteral("run"), QStringLiteral("--workspace"), m_workspace,
                                  QStringLiteral("--"), QStringLiteral("touch"), marker },
                                cwd);
        QCOMPARE(refused.status, 125);
        QVERIFY2(refused.err.contains(QByteArray("is not inside the workspace " + QFile::encodeName(m_workspace))),
                 refused.err.constData());
    }
    const Run missing
        = run({ QStringLiteral("run"), QStringLiteral("--workspace"), m_root->path() + QStringLiteral("/none"),
                QStringLiteral("--"), QStringLiteral("touch"), marker },
              m_workspace);
    QCOMPARE(missing.status, 125);
    QVERIFY2(missing.err.contains("--workspace"), missing.err.constData());
    QVERIFY(!QFile::exists(marker));
}

void TestRecordedPlan::anotherKernelOrTierIsNotUsed()
{
    QVERIFY(recordFor(m_workspace));
    const QStringList command{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"),
                               QStringLiteral("/proc/1/cmdline") };
    // A record made under another kernel: its release differs (same length, one letter changed).
    QFile file(recordPath(m_workspace));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    const qsizetype at = bytes.indexOf(QByteArray("\0uname\0", 7));
    QVERIFY(at >= 0);
    bytes[at + 7] = bytes[at + 7] == 'x' ? 'y' : 'x';
    QVERIFY(file.seek(0));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();
    QCOMPARE(run(command, m_workspace).path, QStringLiteral("full uname"));
    // Another tier selected: the selection's bytes changed, so the next run builds anew,
    // and the plan recorded then is tier 2's (no pid namespace: pid 1 is the host's init).
    QVERIFY(recordFor(m_workspace));
    QVERIFY(selectTier(QStringLiteral("landlock-seccomp")));
    const Run tier2 = run(command, m_workspace);
    QVERIFY2(tier2.path.startsWith(QStringLiteral("full content ")), qPrintable(tier2.path));
    QVERIFY(!tier2.out.contains("sandbox-init"));
    QVERIFY(recordFor(m_workspace));
    const Run tier2Recorded = run(command, m_workspace);
    QCOMPARE(tier2Recorded.path, QStringLiteral("recorded"));
    QVERIFY(!tier2Recorded.out.contains("sandbox-init"));
}

void TestRecordedPlan::anotherEnvironmentIsNotUsed()
{
    QVERIFY(recordFor(m_workspace));
    QProcessEnvironment extra;
    extra.insert(QStringLiteral("SANDBOX_INIT_PATH"), QStringLiteral("/nonexistent/sandbox-init"));
    const Run moved
        = run({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") }, m_workspace, extra);
    QCOMPARE(moved.path, QStringLiteral("full env"));
}

void TestRecordedPlan::aPackThatAppearsIsTheFullProgramsToLoad()
{
    // A file in a pack directory is loaded (or reported as not a pack) by the full program
    // at start-up: the recorded plan is not used once one appears.
    const QString packs = m_root->path() + QStringLiteral("/home/packs");
    QVERIFY(QDir().mkpath(packs));
    QProcessEnvironment extra;
    extra.insert(QStringLiteral("SANDBOX_PACK_PATH"), packs);
    const QStringList command{ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/true") };
    bool recorded = false;
    for (int attempt = 0; attempt < 6 && !recorded; ++attempt)
        recorded = run(command, m_workspace, extra).path == QLatin1String("recorded");
    QVERIFY(recorded);
    QFile plugin(packs + QStringLiteral("/libbroken.so"));
    QVERIFY(plugin.open(QIODevice::WriteOnly));
    plugin.write("not a library");
    plugin.close();
    const Run withPack = run(command, m_workspace, extra);
    QCOMPARE(withPack.path, QStringLiteral("full list ") + packs);
    QVERIFY2(withPack.err.contains("not an atom pack"), withPack.err.constData());
    // A run that warns records nothing: every run says it again.
    const Run again = run(command, m_workspace, extra);
    QVERIFY(again.path.startsWith(QStringLiteral("full ")));
    QVERIFY2(again.err.contains("not an atom pack"), again.err.constData());
}

void TestRecordedPlan::nothingOutlivesAClientKilledWithSigkill_data()
{
    QTest::addColumn<QString>("tier");
    QTest::addColumn<bool>("recorded");
    QTest::newRow("namespaces, embedded") << QStringLiteral("strongest") << false;
    QTest::newRow("namespaces, recorded plan") << QStringLiteral("strongest") << true;
    QTest::newRow("landlock-seccomp, embedded") << QStringLiteral("landlock-seccomp") << false;
    QTest::newRow("landlock-seccomp, recorded plan") << QStringLiteral("landlock-seccomp") << true;
}

// A harness timeout or the OOM killer ends the client with SIGKILL: the sandbox goes with
// it, grandchildren in a session of their own included (they hold a lock until they end).
void TestRecordedPlan::nothingOutlivesAClientKilledWithSigkill()
{
    QFETCH(QString, tier);
    QFETCH(bool, recorded);
    QVERIFY(selectTier(tier));
    if (recorded)
        QVERIFY(recordFor(m_workspace));
    const QString lock = m_workspace + QStringLiteral("/held.lock");
    const QString ready = m_workspace + QStringLiteral("/held.ready");
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->path() + QStringLiteral("/run"));
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->path() + QStringLiteral("/config"));
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->path() + QStringLiteral("/state"));
    environment.insert(QStringLiteral("HOME"), m_root->path() + QStringLiteral("/home"));
    QProcess client;
    client.setProcessEnvironment(environment);
    client.setWorkingDirectory(m_workspace);
    client.start(QCoreApplication::applicationDirPath()
                     + (recorded ? QStringLiteral("/sandboxctl") : QStringLiteral("/sandboxctl-full")),
                 { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                   QStringLiteral("setsid flock held.lock sh -c 'echo up > held.ready; exec sleep 1000' & "
                                  "sh -c 'exec sleep 1000' & wait") });
    QVERIFY(client.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(ready), 30000);
    ::kill(static_cast<pid_t>(client.processId()), SIGKILL);
    QVERIFY(client.waitForFinished());
    // The lock is free once every process of the sandbox has ended.
    QTRY_VERIFY_WITH_TIMEOUT(sandbox::test::lockIsFree(lock), 15000);
}

QTEST_GUILESS_MAIN(TestRecordedPlan)
#include "tst_recorded_plan.moc"
