// Atom packs as files: a folder or .tar.gz with pack.json and a real Qt plugin, validated
// strictly, installed for the user under the data directory, loaded again at start-up,
// and gone for good once removed. Also: a disable whose pack state cannot be saved.
#include "EngineRig.h"
#include "core/packs/AtomPack.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPluginLoader>
#include <QProcess>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const QString packId = QStringLiteral("manifest-test");
const BackendRef alpha = BackendRef::atomPack(packId, QStringLiteral("alpha"));
const QString pluginName = QFileInfo(QStringLiteral(SANDBOX_MANIFEST_TEST_PACK)).fileName();

QJsonObject validManifest()
{
    return { { QStringLiteral("id"), packId },
             { QStringLiteral("publisher"), QStringLiteral("Sandbox Studio tests") },
             { QStringLiteral("version"), QStringLiteral("1.0.0") },
             { QStringLiteral("name"), QStringLiteral("Manifest test pack") },
             { QStringLiteral("description"), QStringLiteral("Backends for the pack-format tests.") },
             { QStringLiteral("engineApi"), 1 },
             { QStringLiteral("kinds"), QJsonArray{ QStringLiteral("alpha"), QStringLiteral("marked") } },
             { QStringLiteral("plugin"), pluginName } };
}

// A pack folder under `parent`: the manifest as given and a copy of the test plugin.
QString writePack(const QString &parent, const QJsonObject &manifest)
{
    const QString folder = QDir(parent).filePath(QStringLiteral("manifest-test"));
    QDir(folder).removeRecursively();
    QDir().mkpath(folder);
    QFile file(QDir(folder).filePath(QStringLiteral("pack.json")));
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QJsonDocument(manifest).toJson());
    file.close();
    QFile::copy(QStringLiteral(SANDBOX_MANIFEST_TEST_PACK), QDir(folder).filePath(pluginName));
    return folder;
}

QString tarGz(const QString &folder, const QString &archive)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"),
              { QStringLiteral("-czf"), archive, QStringLiteral("-C"), QFileInfo(folder).absolutePath(),
                QFileInfo(folder).fileName() });
    if (!tar.waitForFinished(60000) || tar.exitCode() != 0)
        return {};
    return archive;
}

QString installedFolder(const EngineRig &rig)
{
    return QDir(rig.stateDir).filePath(QStringLiteral("packs/") + packId);
}

} // namespace

class PackFolderTest final : public QObject
{
    Q_OBJECT

private slots:
    void installsFromAFolderAndRefusesBadBackends();
    void installsFromATarGz();
    void badManifestsAreRefusedWithTheFieldNamed_data();
    void badManifestsAreRefusedWithTheFieldNamed();
    void archivesWithLinksAreRefused();
    void installedPacksReturnAfterARestart();
    void aPackBuiltForAnotherVersionIsRefusedBeforeItRuns();
    void aRemovedPackStaysRemoved();
    void disableWhosePackStateCannotBeSavedChangesNothing();
};

void PackFolderTest::installsFromAFolderAndRefusesBadBackends()
{
    EngineRig rig;
    const QString folder = writePack(rig.dir.path(), validManifest());
    const Result<PackInfo> installed = await(rig.engine->installPackFrom(folder));
    QVERIFY2(installed.ok(), installed.ok() ? "" : qPrintable(installed.error().toString()));
    QCOMPARE(installed.value().id, packId);
    QCOMPARE(installed.value().version, QStringLiteral("1.0.0"));
    QCOMPARE(installed.value().description, QStringLiteral("Backends for the pack-format tests."));
    // Only the valid backend is installed; the other two are refused, each with its reason.
    QCOMPARE(installed.value().backends, QList<BackendRef>{ alpha });
    const QString refused = installed.value().refused.join(QLatin1Char(' '));
    QVERIFY2(refused.contains(QStringLiteral("vm is a built-in backend and is never provided by a pack")),
             qPrintable(refused));
    QVERIFY2(refused.contains(QStringLiteral("atom-pack:manifest-test:marked was refused: its descriptor")),
             qPrintable(refused));
    QVERIFY(rig.engine->backend(alpha).ok());
    QVERIFY(!rig.engine->backend(BackendRef::atomPack(packId, QStringLiteral("vm"))).ok());
    QVERIFY(rig.activate(alpha).ok);

    // Installed per user: a copy of exactly the manifest and the plugin.
    QCOMPARE(QDir(installedFolder(rig)).entryList(QDir::Files, QDir::Name),
             (QStringList{ pluginName, QStringLiteral("pack.json") }));
    // The same identity twice is refused.
    const Result<PackInfo> again = await(rig.engine->installPackFrom(folder));
    QVERIFY(!again.ok());
    QVERIFY(again.error().toString().contains(QStringLiteral("already installed")));
}

void PackFolderTest::installsFromATarGz()
{
    EngineRig rig;
    const QString archive
        = tarGz(writePack(rig.dir.path(), validManifest()), rig.dir.filePath(QStringLiteral("manifest-test.tar.gz")));
    QVERIFY(!archive.isEmpty());
    const Result<PackInfo> installed = await(rig.engine->installPackFrom(archive));
    QVERIFY2(installed.ok(), installed.ok() ? "" : qPrintable(installed.error().toString()));
    QCOMPARE(installed.value().backends, QList<BackendRef>{ alpha });
    QVERIFY(QFileInfo(QDir(installedFolder(rig)).filePath(pluginName)).isFile());
    // Nothing of the unpacking is left behind.
    QCOMPARE(QDir(QDir(rig.stateDir).filePath(QStringLiteral("packs")))
                 .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{ packId });
}

void PackFolderTest::badManifestsAreRefusedWithTheFieldNamed_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << QStringLiteral("onInstall") << QJsonValue(QStringLiteral("rm -rf ~"))
                                 << QStringLiteral("pack.json.onInstall");
    QTest::newRow("wrong type") << QStringLiteral("engineApi") << QJsonValue(QStringLiteral("1"))
                                << QStringLiteral("pack.json.engineApi");
    QTest::newRow("markup") << QStringLiteral("name") << QJsonValue(QStringLiteral("<script>alert(1)</script>"))
                            << QStringLiteral("pack.json.name");
    QTest::newRow("newer engine API") << QStringLiteral("engineApi") << QJsonValue(2)
                                      << QStringLiteral("needs engine API 2");
    QTest::newRow("built-in kind") << QStringLiteral("kinds")
                                   << QJsonValue(QJsonArray{ QStringLiteral("alpha"), QStringLiteral("vm") })
                                   << QStringLiteral("vm is a built-in backend and is never provided by a pack");
    QTest::newRow("auto") << QStringLiteral("kinds") << QJsonValue(QJsonArray{ QStringLiteral("auto") })
                          << QStringLiteral("pack.json.kinds[0]");
    QTest::newRow("plugin outside the folder")
        << QStringLiteral("plugin") << QJsonValue(QStringLiteral("../libevil.so"))
        << QStringLiteral("pack.json.plugin");
    QTest::newRow("bad version") << QStringLiteral("version") << QJsonValue(QStringLiteral("latest"))
                                 << QStringLiteral("pack.json.version");
    QTest::newRow("plugin of another version")
        << QStringLiteral("version") << QJsonValue(QStringLiteral("2.0.0")) << QStringLiteral("manifest describes");
}

void PackFolderTest::badManifestsAreRefusedWithTheFieldNamed()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, expected);
    EngineRig rig;
    QJsonObject manifest = validManifest();
    manifest.insert(key, value);
    const Result<PackInfo> installed = await(rig.engine->installPackFrom(writePack(rig.dir.path(), manifest)));
    QVERIFY(!installed.ok());
    QVERIFY2(installed.error().toString().contains(expected), qPrintable(installed.error().toString()));
    // Nothing changed: no pack, no backend, no files.
    QVERIFY(rig.engine->packs().isEmpty());
    QVERIFY(!rig.engine->backend(alpha).ok());
    QVERIFY(!QFileInfo::exists(installedFolder(rig)));
}

void PackFolderTest::archivesWithLinksAreRefused()
{
    EngineRig rig;
    const QString folder = writePack(rig.dir.path(), validManifest());
    QVERIFY(QFile::link(QDir::homePath(), QDir(folder).filePath(QStringLiteral("home"))));
    const QString archive = tarGz(folder, rig.dir.filePath(QStringLiteral("linked.tar.gz")));
    const Result<PackInfo> installed = await(rig.engine->installPackFrom(archive));
    QVERIFY(!installed.ok());
    QVERIFY2(installed.error().toString().contains(QStringLiteral("links and devices are refused")),
             qPrintable(installed.error().toString()));
    QVERIFY(rig.engine->packs().isEmpty());
}

void PackFolderTest::installedPacksReturnAfterARestart()
{
    EngineRig rig;
    QVERIFY(await(rig.engine->installPackFrom(writePack(rig.dir.path(), validManifest()))).ok());
    QVERIFY(await(rig.engine->disablePack(packId)).ok());
    rig.restart();
    QVERIFY(rig.engine->packs().isEmpty());
    rig.engine->loadInstalledPacks();
    QCOMPARE(rig.engine->packs().size(), 1);
    QCOMPARE(rig.engine->packs().first().backends, QList<BackendRef>{ alpha });
    QVERIFY(!rig.engine->packs().first().enabled);
}

void PackFolderTest::aPackBuiltForAnotherVersionIsRefusedBeforeItRuns()
{
    EngineRig rig;
    // Offered for installation: refused, naming both versions, and nothing is installed.
    const QString folder = writePack(rig.dir.path(), validManifest());
    const QString plugin = QDir(folder).filePath(pluginName);
    QVERIFY(QFile::remove(plugin));
    QVERIFY(QFile::copy(QStringLiteral(SANDBOX_OTHER_API_TEST_PACK), plugin));
    const Result<PackInfo> refused = await(rig.engine->installPackFrom(folder));
    QVERIFY(!refused.ok());
    const QString message = refused.error().toString();
    QVERIFY2(message.contains(QStringLiteral("built for another version of Sandbox Studio")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("0000000000000000")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String(SANDBOX_LAUNCHER_API_DIGEST)), qPrintable(message));
    QVERIFY(rig.engine->packs().isEmpty());
    QVERIFY(!QFileInfo::exists(installedFolder(rig)));

    // Installed by an earlier version, then the engine was upgraded: the pack's files and its
    // record are as that version left them. The engine starts, the pack's backends are not
    // offered, and a warning says why.
    QVERIFY(QDir().mkpath(installedFolder(rig)));
    QVERIFY(QFile::copy(QDir(folder).filePath(QStringLiteral("pack.json")),
                        QDir(installedFolder(rig)).filePath(QStringLiteral("pack.json"))));
    QVERIFY(QFile::copy(plugin, QDir(installedFolder(rig)).filePath(pluginName)));
    const QJsonObject record{ { QStringLiteral("enabled"), true },
                              { QStringLiteral("installed"), true },
                              { QStringLiteral("name"), QStringLiteral("Manifest test pack") },
                              { QStringLiteral("publisher"), QStringLiteral("Sandbox Studio tests") },
                              { QStringLiteral("secretFields"), QJsonArray{} },
                              { QStringLiteral("version"), QStringLiteral("1.0.0") } };
    QFile records(QDir(rig.configDir).filePath(QStringLiteral("packs.json")));
    QVERIFY(records.open(QIODevice::WriteOnly));
    records.write(QJsonDocument(QJsonObject{ { QStringLiteral("packs"), QJsonObject{ { packId, record } } },
                                             { QStringLiteral("version"), 1 } })
                      .toJson());
    records.close();
    rig.restart();
    rig.engine->loadInstalledPacks();
    QVERIFY(!rig.engine->backend(alpha).ok());
    const QString warnings = rig.engine->warnings().join(QLatin1Char('\n'));
    QVERIFY2(warnings.contains(QStringLiteral("could not be loaded")), qPrintable(warnings));
    QVERIFY2(warnings.contains(QStringLiteral("built for another version of Sandbox Studio")), qPrintable(warnings));
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
}

void PackFolderTest::aRemovedPackStaysRemoved()
{
    EngineRig rig;
    QVERIFY(await(rig.engine->installPackFrom(writePack(rig.dir.path(), validManifest()))).ok());
    QVERIFY(rig.activate(alpha, values({ { QStringLiteral("label"), QStringLiteral("kept") } })).ok);
    const Status removed = await(rig.engine->removePack(packId));
    QVERIFY2(removed.ok(), removed.ok() ? "" : qPrintable(removed.error().toString()));
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    QVERIFY(!QFileInfo::exists(installedFolder(rig)));

    // At the next start neither the data directory nor the plugin search path brings it back.
    rig.restart();
    rig.engine->loadInstalledPacks();
    QVERIFY(rig.engine->packs().isEmpty());
    QPluginLoader loader(QStringLiteral(SANDBOX_MANIFEST_TEST_PACK));
    auto *discovered = qobject_cast<AtomPack *>(loader.instance());
    QVERIFY(discovered);
    QVERIFY(rig.engine->installDiscoveredPack(std::shared_ptr<AtomPack>(discovered, [](AtomPack *) {})).ok());
    QVERIFY(rig.engine->packs().isEmpty());

    // Installing it again on purpose restores its settings.
    QVERIFY(await(rig.engine->installPackFrom(writePack(rig.dir.path(), validManifest()))).ok());
    QCOMPARE(rig.engine->settings(alpha).value().values.values.value(QStringLiteral("label")).toString(),
             QStringLiteral("kept"));
}

void PackFolderTest::disableWhosePackStateCannotBeSavedChangesNothing()
{
    EngineRig rig;
    QVERIFY(await(rig.engine->installPackFrom(writePack(rig.dir.path(), validManifest()))).ok());
    QVERIFY(rig.activate(alpha).ok);
    // packs.json cannot be replaced any more: a folder stands where the file was.
    const QString packsFile = QDir(rig.configDir).filePath(QStringLiteral("packs.json"));
    QVERIFY(QFile::remove(packsFile));
    QVERIFY(QDir().mkpath(QDir(packsFile).filePath(QStringLiteral("in-the-way"))));

    const Status disabled = await(rig.engine->disablePack(packId));
    QVERIFY(!disabled.ok());
    QVERIFY2(disabled.error().toString().contains(QStringLiteral("Nothing was changed")),
             qPrintable(disabled.error().toString()));
    // Coherent: the pack is enabled and its backend still serves, in memory and on disk.
    QVERIFY(rig.engine->packs().first().enabled);
    QCOMPARE(rig.engine->activeRef(), alpha);
    QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), alpha.toString());

    const Status removed = await(rig.engine->removePack(packId));
    QVERIFY(!removed.ok());
    QCOMPARE(rig.engine->activeRef(), alpha);
    QCOMPARE(rig.engine->packs().size(), 1);
    QVERIFY(QFileInfo::exists(installedFolder(rig)));
}

QTEST_GUILESS_MAIN(PackFolderTest)
#include "tst_packfolder.moc"
