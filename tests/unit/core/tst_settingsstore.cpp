// settings.json and policy.json: schema validation with per-field errors, only
// non-default values written, corrupt files kept as backups and reported.
#include "EngineRig.h"
#include "UnconfinedPolicy.h"
#include "core/settings/FileSettingsStore.h"

#include <QDir>
#include <QJsonDocument>
#include <QTest>
#include <QThread>

#include <atomic>
#include <fcntl.h>
#include <sys/stat.h>

using namespace sandbox;
using namespace sandbox::test;

namespace {

QStringList corruptBackups(const QString &directory, const QString &name)
{
    return QDir(directory).entryList({ name + QStringLiteral(".corrupt-*") }, QDir::Files);
}

} // namespace

class SettingsStoreTest final : public QObject
{
    Q_OBJECT

private slots:
    void perFieldValidationErrors();
    void onlyNonDefaultValuesAreWritten();
    void settingsAreKeyedByCanonicalRef();
    void activeBackendSettingsGoThroughActivation();
    void corruptSettingsAreBackedUpAndReported();
    void unsupportedVersionIsKeptNotOverwritten();
    void corruptPolicyIsKeptAndRefusesCommands();
    void invalidPolicyIsRefused();
    void storeSerializesWritersOfOneProcess();
    void readersWithoutTheLockSeeWholeVersions();
    void updateThatChangesNothingLeavesTheDirectoryAlone();
    void legacyVmBaselineSettingsNormaliseOnceWithANotice();
};

void SettingsStoreTest::perFieldValidationErrors()
{
    EngineRig rig;
    QVERIFY(rig.engine
                ->updateSettings(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("kept") } }))
                .ok());
    const QByteArray before = readFile(rig.settingsPath());

    const Status status = rig.engine->updateSettings(EngineRig::faultRef(),
                                                     values({ { QStringLiteral("label"), 5 },
                                                              { QStringLiteral("count"), QStringLiteral("many") },
                                                              { QStringLiteral("bogus"), true } }));
    QVERIFY(!status.ok());
    QCOMPARE(status.error().details.size(), 3);
    QStringList where;
    for (const Error &detail : status.error().details) {
        where.append(detail.where);
        QVERIFY(!detail.message.isEmpty());
    }
    where.sort();
    QCOMPARE(where,
             (QStringList{ QStringLiteral("builtin:fault.bogus"), QStringLiteral("builtin:fault.count"),
                           QStringLiteral("builtin:fault.label") }));
    // Nothing changed.
    QCOMPARE(readFile(rig.settingsPath()), before);
    QCOMPARE(
        rig.engine->settings(EngineRig::faultRef()).value().values.values.value(QStringLiteral("label")).toString(),
        QStringLiteral("kept"));

    // Out of range is a field error too.
    const Status range
        = rig.engine->updateSettings(EngineRig::faultRef(), values({ { QStringLiteral("count"), 1000 } }));
    QVERIFY(!range.ok());
    QVERIFY(range.error().toString().contains(QStringLiteral("builtin:fault.count")));

    // Secrets for fields that are not secret fields are refused.
    const Status secret = rig.engine->updateSettings(
        EngineRig::faultRef(), {},
        { SecretUpdate{ QStringLiteral("label"), SecretUpdate::Action::Replace, QStringLiteral("x") } });
    QVERIFY(!secret.ok());
    QCOMPARE(readFile(rig.settingsPath()), before);

    // An unknown backend is named.
    const Status unknown = rig.engine->updateSettings(BackendRef::builtin(QStringLiteral("nope")), {});
    QCOMPARE(unknown.error().where, QStringLiteral("builtin:nope"));
}

void SettingsStoreTest::onlyNonDefaultValuesAreWritten()
{
    EngineRig rig;
    QVERIFY(rig.engine
                ->updateSettings(
                    EngineRig::faultRef(),
                    values({ { QStringLiteral("label"), QStringLiteral("default") }, { QStringLiteral("count"), 3 } }))
                .ok());
    // Only defaults: nothing to write at all.
    QVERIFY(!QFile::exists(rig.settingsPath()));
    QJsonObject file;

    QVERIFY(rig.engine
                ->updateSettings(
                    EngineRig::faultRef(),
                    values({ { QStringLiteral("label"), QStringLiteral("x") }, { QStringLiteral("count"), 3 } }))
                .ok());
    file = rig.settingsFile();
    QCOMPARE(file.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(file.value(QStringLiteral("backends")).toObject().value(QStringLiteral("builtin:fault")).toObject(),
             (QJsonObject{ { QStringLiteral("label"), QStringLiteral("x") } }));
    // Reads fill defaults back in.
    const SettingsView view = rig.engine->settings(EngineRig::faultRef()).value();
    QCOMPARE(view.values.values.value(QStringLiteral("count")).toInt(), 3);
    QCOMPARE(view.values.values.value(QStringLiteral("label")).toString(), QStringLiteral("x"));

    // Activation with defaults only writes no entry either.
    QVERIFY(rig.activate(EngineRig::fallbackRef(), values({ { QStringLiteral("count"), 3 } })).ok);
    QVERIFY(!rig.settingsFile()
                 .value(QStringLiteral("backends"))
                 .toObject()
                 .contains(QStringLiteral("builtin:host-fallback")));
    QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), QStringLiteral("builtin:host-fallback"));
}

void SettingsStoreTest::settingsAreKeyedByCanonicalRef()
{
    EngineRig rig;
    QVERIFY(rig.engine
                ->updateSettings(EngineRig::fallbackRef(), values({ { QStringLiteral("label"), QStringLiteral("a") } }))
                .ok());
    QVERIFY(
        rig.engine->updateSettings(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("f") } }))
            .ok());
    const QJsonObject backends = rig.settingsFile().value(QStringLiteral("backends")).toObject();
    QCOMPARE(backends.keys(),
             (QStringList{ QStringLiteral("builtin:fault"), QStringLiteral("builtin:host-fallback") }));
    rig.restart();
    QCOMPARE(
        rig.engine->settings(EngineRig::fallbackRef()).value().values.values.value(QStringLiteral("label")).toString(),
        QStringLiteral("a"));
}

void SettingsStoreTest::activeBackendSettingsGoThroughActivation()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::faultRef()).ok);
    const Status status = rig.engine->updateSettings(EngineRig::faultRef(),
                                                     values({ { QStringLiteral("label"), QStringLiteral("x") } }));
    QVERIFY(!status.ok());
    QVERIFY(status.error().message.contains(QStringLiteral("activat")));
}

void SettingsStoreTest::corruptSettingsAreBackedUpAndReported()
{
    EngineRig rig;
    rig.observer.reset();
    rig.engine.reset();
    const QByteArray garbage("{ \"version\": 1, \"backends\": { \"builtin:fault\": { \"label\": \"trunc");
    QVERIFY(writeFile(rig.settingsPath(), garbage));
    rig.restart();

    // Defaults are used, the bad file is kept byte for byte, and the user is told.
    const SettingsView view = rig.engine->settings(EngineRig::faultRef()).value();
    QCOMPARE(view.values.values.value(QStringLiteral("label")).toString(), QStringLiteral("default"));
    const QStringList backups = corruptBackups(rig.configDir, QStringLiteral("settings.json"));
    QCOMPARE(backups.size(), 1);
    QCOMPARE(readFile(QDir(rig.configDir).filePath(backups.first())), garbage);
    const QString warnings = rig.engine->warnings().join(QLatin1Char('\n'));
    QVERIFY2(warnings.contains(backups.first()), qPrintable(warnings));
    QVERIFY(!QFile::exists(rig.settingsPath()));

    // Writing again starts a fresh file; the backup stays.
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), QStringLiteral("builtin:host-fallback"));
    QCOMPARE(corruptBackups(rig.configDir, QStringLiteral("settings.json")).size(), 1);

    // A structurally wrong (but parseable) file is corrupt too.
    rig.observer.reset();
    rig.engine.reset();
    QVERIFY(writeFile(rig.settingsPath(), R"({"version":1,"active":"not a ref","backends":{}})"));
    rig.restart();
    QVERIFY(rig.engine->settings(EngineRig::faultRef()).ok());
    QCOMPARE(corruptBackups(rig.configDir, QStringLiteral("settings.json")).size(), 2);
}

void SettingsStoreTest::unsupportedVersionIsKeptNotOverwritten()
{
    EngineRig rig;
    rig.observer.reset();
    rig.engine.reset();
    const QByteArray future(R"({"version":7,"backends":{}})");
    QVERIFY(writeFile(rig.settingsPath(), future));
    rig.restart();
    QVERIFY(rig.engine->settings(EngineRig::faultRef()).ok());
    const QStringList backups = corruptBackups(rig.configDir, QStringLiteral("settings.json"));
    QCOMPARE(backups.size(), 1);
    QCOMPARE(readFile(QDir(rig.configDir).filePath(backups.first())), future);
    QVERIFY(rig.engine->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("version 7")));
}

// A policy.json that cannot be read stands for a policy nobody knows, maybe stricter than
// the defaults: while it is unreadable nothing runs, every presenter is told what is wrong
// and how to fix it, and the file stays as it is until the user replaces it.
void SettingsStoreTest::corruptPolicyIsKeptAndRefusesCommands()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    QVERIFY(QDir().mkpath(rig.command({}).cwd));
    const QString policyPath = QDir(rig.configDir).filePath(QStringLiteral("policy.json"));
    QVERIFY(writeFile(policyPath, "not json at all"));

    const QString marker = QDir(rig.command({}).cwd).filePath(QStringLiteral("ran"));
    const Result<std::shared_ptr<SandboxProcess>> refused = rig.engine->spawn(
        rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral(": > ") + marker }));
    QVERIFY(!refused.ok());
    const QString message = refused.error().toString();
    QVERIFY2(message.contains(policyPath), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("no command runs until it is fixed")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("sandboxctl policy set FILE")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("sandboxctl policy reset")), qPrintable(message));
    QVERIFY(!QFile::exists(marker));
    QVERIFY(rig.engine->processes().isEmpty());
    // Said where a status display looks, and the file is kept as it is, where it is.
    QVERIFY2(rig.engine->warnings().join(QLatin1Char('\n')).contains(policyPath), qPrintable(message));
    QCOMPARE(readFile(policyPath), QByteArray("not json at all"));
    QVERIFY(corruptBackups(rig.configDir, QStringLiteral("policy.json")).isEmpty());

    // The user replaces it: commands run again, and the warning is gone.
    QVERIFY(rig.engine->setPolicy(unconfinedPolicy()).ok());
    const Result<std::shared_ptr<SandboxProcess>> ran = rig.engine->spawn(
        rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral(": > ") + marker }));
    QVERIFY2(ran.ok(), ran.ok() ? "" : qPrintable(ran.error().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
    QVERIFY(!rig.engine->warnings().join(QLatin1Char('\n')).contains(policyPath));
}

void SettingsStoreTest::invalidPolicyIsRefused()
{
    EngineRig rig;
    Policy good = Policy::defaults();
    good.network = Policy::NetworkMode::Allowlist;
    good.allowedDomains = { QStringLiteral("example.com") };
    QVERIFY(rig.engine->setPolicy(good).ok());
    const QString policyPath = QDir(rig.configDir).filePath(QStringLiteral("policy.json"));
    const QByteArray before = readFile(policyPath);
    QCOMPARE(QFile(policyPath).permissions() & (QFileDevice::ReadOther | QFileDevice::WriteOther),
             QFileDevice::Permissions());

    Policy bad = good;
    bad.allowedDomains = { QStringLiteral("not a domain!") };
    QVERIFY(!rig.engine->setPolicy(bad).ok());
    QCOMPARE(readFile(policyPath), before);
    QCOMPARE(rig.engine->policy(), good);
}

void SettingsStoreTest::storeSerializesWritersOfOneProcess()
{
    QTemporaryDir dir;
    FileSettingsStore first(dir.path());
    FileSettingsStore second(dir.path()); // two stores on one file, as two processes would have
    constexpr int perThread = 40;
    auto writer = [&](FileSettingsStore &store, const QString &key) {
        for (int i = 0; i < perThread; ++i) {
            const Status status = store.update([&](SettingsDocument &document) -> Status {
                QJsonObject entry = document.backends.value(key);
                entry.insert(QStringLiteral("n"), entry.value(QStringLiteral("n")).toInt() + 1);
                document.backends.insert(key, entry);
                return {};
            });
            QVERIFY(status.ok());
        }
    };
    std::unique_ptr<QThread> a(QThread::create([&] { writer(first, QStringLiteral("builtin:a")); }));
    std::unique_ptr<QThread> b(QThread::create([&] { writer(second, QStringLiteral("builtin:b")); }));
    a->start();
    b->start();
    a->wait();
    b->wait();
    const SettingsDocument document = first.load().value();
    // No update was lost to an interleaved read-modify-write.
    QCOMPARE(document.backends.value(QStringLiteral("builtin:a")).value(QStringLiteral("n")).toInt(), perThread);
    QCOMPARE(document.backends.value(QStringLiteral("builtin:b")).value(QStringLiteral("n")).toInt(), perThread);
}

// Restoring the saved selection on every engine start changes nothing: no lock file is
// created and removed, nothing is written or synced.
void SettingsStoreTest::updateThatChangesNothingLeavesTheDirectoryAlone()
{
    QTemporaryDir dir;
    FileSettingsStore store(dir.path());
    const BackendRef ref = BackendRef::builtin(QStringLiteral("auto"));
    const auto select = [&](SettingsDocument &document) -> Status {
        document.active = ref;
        document.backends.insert(ref.toString(), QJsonObject{ { QStringLiteral("tier"), QStringLiteral("x") } });
        return {};
    };
    QVERIFY(store.update(select).ok());
    const QByteArray directory = QFile::encodeName(dir.path());
    const QString file = dir.filePath(QStringLiteral("settings.json"));
    // Long ago, so any entry created or removed in the directory now shows.
    const timespec old[2] = { { 946684800, 0 }, { 946684800, 0 } };
    QCOMPARE(::utimensat(AT_FDCWD, directory.constData(), old, 0), 0);
    struct stat before = {};
    QCOMPARE(::stat(QFile::encodeName(file).constData(), &before), 0);

    QVERIFY(store.update(select).ok());
    struct stat directoryAfter = {};
    QCOMPARE(::stat(directory.constData(), &directoryAfter), 0);
    QCOMPARE(qint64(directoryAfter.st_mtim.tv_sec), qint64(946684800));
    struct stat after = {};
    QCOMPARE(::stat(QFile::encodeName(file).constData(), &after), 0);
    QCOMPARE(after.st_ino, before.st_ino);

    // A real change still goes through the lock and is written.
    QVERIFY(store
                .update([](SettingsDocument &document) -> Status {
                    document.active.reset();
                    return {};
                })
                .ok());
    QVERIFY(!store.load().value().active);
    QCOMPARE(::stat(directory.constData(), &directoryAfter), 0);
    QVERIFY(directoryAfter.st_mtim.tv_sec > 946684800);
}

// Reads do not take the lock: while another store (as another process would) keeps
// replacing the file, every read is one whole version, never an error, a warning or a mix.
void SettingsStoreTest::readersWithoutTheLockSeeWholeVersions()
{
    QTemporaryDir dir;
    FileSettingsStore writerStore(dir.path());
    FileSettingsStore readerStore(dir.path());
    constexpr int versions = 60;
    const auto stateFor = [](int n) {
        return QJsonObject{ { QStringLiteral("n"), n },
                            { QStringLiteral("fill"), QString(64 * 1024, QChar(u'a' + char16_t(n % 26))) } };
    };
    std::atomic<bool> done{ false };
    std::unique_ptr<QThread> writer(QThread::create([&] {
        for (int n = 1; n <= versions; ++n) {
            const Status status = writerStore.update([&](SettingsDocument &document) -> Status {
                document.backends.insert(QStringLiteral("builtin:auto"), stateFor(n));
                return {};
            });
            if (!status.ok())
                break;
        }
        done = true;
    }));
    writer->start();
    int reads = 0;
    int last = 0;
    while (!done || reads == 0) {
        const Result<SettingsDocument> loaded = readerStore.load();
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().toString()));
        ++reads;
        if (!loaded.value().backends.contains(QStringLiteral("builtin:auto")))
            continue;
        const QJsonObject state = loaded.value().backends.value(QStringLiteral("builtin:auto"));
        const int n = state.value(QStringLiteral("n")).toInt();
        QCOMPARE(state, stateFor(n));
        QVERIFY(n >= last);
        last = n;
    }
    writer->wait();
    QVERIFY2(readerStore.warnings().isEmpty(), qPrintable(readerStore.warnings().join(QLatin1Char('\n'))));
    QCOMPARE(readerStore.load().value().backends.value(QStringLiteral("builtin:auto")), stateFor(versions));
    QVERIFY(QDir(dir.path()).entryList({ QStringLiteral("settings.json.corrupt-*") }, QDir::Files).isEmpty());
}

QTEST_GUILESS_MAIN(SettingsStoreTest)
void SettingsStoreTest::legacyVmBaselineSettingsNormaliseOnceWithANotice()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("settings.json"));
    QVERIFY(
        writeFile(path,
                  R"({"version":1,"sandbox.vm.baseline":{"enabled":true,"maxInactiveArtifacts":5,"maxBytes":1000000},)"
                  R"("backends":{"builtin:vm":{"baselineMaxInactiveArtifacts":3}}})"));
    {
        FileSettingsStore store(dir.path());
        const Result<SettingsDocument> document = store.load();
        QVERIFY(document.ok());
        const QJsonObject vm = document.value().backends.value(QStringLiteral("builtin:vm"));
        QCOMPARE(vm.value(QStringLiteral("baselineEnabled")).toBool(), true);
        QCOMPARE(vm.value(QStringLiteral("baselineMaxBytes")).toDouble(), 1000000.0);
        // A value already set in the source-qualified settings wins over the legacy one.
        QCOMPARE(vm.value(QStringLiteral("baselineMaxInactiveArtifacts")).toInt(), 3);
        QCOMPARE(store.warnings().size(), 1);
        QVERIFY2(store.warnings().first().contains(QStringLiteral("sandbox.vm.baseline")),
                 qPrintable(store.warnings().first()));
        QVERIFY(store.warnings().first().contains(QStringLiteral("builtin:vm")));
    }
    // Written back without the old key: the next reader sees no legacy setting, no notice.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray written = file.readAll();
    QVERIFY2(!written.contains("sandbox.vm.baseline"), written.constData());
    QVERIFY(written.contains("baselineEnabled"));
    FileSettingsStore again(dir.path());
    QVERIFY(again.load().ok());
    QVERIFY(again.update([](SettingsDocument &) -> Status { return {}; }).ok());
    QVERIFY(again.warnings().isEmpty());
    QCOMPARE(again.load()
                 .value()
                 .backends.value(QStringLiteral("builtin:vm"))
                 .value(QStringLiteral("baselineEnabled"))
                 .toBool(),
             true);

    // A legacy value of the wrong type: an error naming it.
    const Result<SettingsDocument> bad = SettingsDocument::fromJson(
        QJsonDocument::fromJson(R"({"version":1,"sandbox.vm.baseline":{"enabled":"yes"}})").object(),
        QStringLiteral("f"));
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().where, QStringLiteral("f.sandbox.vm.baseline.enabled"));
}

#include "tst_settingsstore.moc"
