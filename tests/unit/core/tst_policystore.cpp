// policy.json as every spawn reads it: a file unchanged since the last load is answered
// from memory, and any change to it (a save, an edit by hand, removal) is seen at once.
#include "core/settings/PolicyStore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;

class TestPolicyStore final : public QObject
{
    Q_OBJECT

private slots:
    void absentFileIsTheDefaults();
    void savedPolicyIsLoadedAgainAndAgain();
    void editByHandIsSeenAtOnce();
    void removedFileIsTheDefaultsAgain();
    void damagedFileIsNeverAnsweredFromMemory();

private:
    static Policy withNetwork(Policy::NetworkMode mode)
    {
        Policy policy = Policy::defaults();
        policy.network = mode;
        return policy;
    }
    static void writeByHand(const QString &path, const Policy &policy)
    {
        // In place, as an editor that does not rename would: same inode.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite | QIODevice::Truncate));
        file.write(QJsonDocument(policy.toJson()).toJson());
    }
};

void TestPolicyStore::absentFileIsTheDefaults()
{
    QTemporaryDir dir;
    PolicyStore store(dir.path());
    const Result<Policy> loaded = store.load();
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.value().toJson(), Policy::defaults().toJson());
}

void TestPolicyStore::savedPolicyIsLoadedAgainAndAgain()
{
    QTemporaryDir dir;
    PolicyStore store(dir.path());
    QVERIFY(store.save(withNetwork(Policy::NetworkMode::Full)).ok());
    for (int i = 0; i < 3; ++i) {
        const Result<Policy> loaded = store.load();
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.value().network, Policy::NetworkMode::Full);
    }
    QVERIFY(store.save(withNetwork(Policy::NetworkMode::None)).ok());
    QCOMPARE(store.load().value().network, Policy::NetworkMode::None);
}

void TestPolicyStore::editByHandIsSeenAtOnce()
{
    QTemporaryDir dir;
    PolicyStore store(dir.path());
    QVERIFY(store.save(withNetwork(Policy::NetworkMode::Full)).ok());
    QCOMPARE(store.load().value().network, Policy::NetworkMode::Full);
    // Another process (or the user) changes it; this store's memory must not win.
    PolicyStore other(dir.path());
    QVERIFY(other.save(withNetwork(Policy::NetworkMode::None)).ok());
    QCOMPARE(store.load().value().network, Policy::NetworkMode::None);
    writeByHand(QDir(dir.path()).filePath(QStringLiteral("policy.json")), withNetwork(Policy::NetworkMode::Full));
    QCOMPARE(store.load().value().network, Policy::NetworkMode::Full);
}

void TestPolicyStore::removedFileIsTheDefaultsAgain()
{
    QTemporaryDir dir;
    PolicyStore store(dir.path());
    QVERIFY(store.save(withNetwork(Policy::NetworkMode::Full)).ok());
    QCOMPARE(store.load().value().network, Policy::NetworkMode::Full);
    QVERIFY(QFile::remove(QDir(dir.path()).filePath(QStringLiteral("policy.json"))));
    QCOMPARE(store.load().value().toJson(), Policy::defaults().toJson());
}

void TestPolicyStore::damagedFileIsNeverAnsweredFromMemory()
{
    QTemporaryDir dir;
    PolicyStore store(dir.path());
    QVERIFY(store.save(withNetwork(Policy::NetworkMode::Full)).ok());
    QCOMPARE(store.load().value().network, Policy::NetworkMode::Full);
    QFile file(QDir(dir.path()).filePath(QStringLiteral("policy.json")));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("{ not json");
    file.close();
    // Neither the memory nor the defaults stand in for the damaged file: the load fails,
    // naming it, and the file is left as it is.
    const Result<Policy> loaded = store.load();
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.error().where, file.fileName());
    QVERIFY2(loaded.error().message.contains(QStringLiteral("sandboxctl policy set FILE")),
             qPrintable(loaded.error().message));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("{ not json"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{ QStringLiteral("policy.json") });
}

QTEST_GUILESS_MAIN(TestPolicyStore)
#include "tst_policystore.moc"
